"""Ratings on the cluster (docs/ratings.md, docs/deployment-citus.md): a player's rating and
history sit in the player's shard group and are written, under each player's row lock, by the
append that ends a game on the game's node; the leaderboard (`GET /v1/ratings/{ruleset}`) asks
every shard. The same tests as on one server, and the guard against a rating that moved."""
import pytest

from tests.service.http.lifecycle.conftest import clock, live  # noqa: F401 - the fixtures of that test
from tests.service.http.lifecycle.test_ratings import (  # noqa: F401 - the same tests, on the cluster
    test_ratings_are_openskill_over_the_games_in_the_order_they_ended,
    test_unrated_games_and_games_of_bot_accounts_change_nothing)
from tests.service.usecases.conftest import deps  # noqa: F401 - a fixture
from tests.service.usecases.test_ratings_races import (  # noqa: F401
    test_an_append_computed_on_a_rating_that_moved_is_refused_whole,
    test_two_games_ending_at_once_chain_their_shared_players_ratings)


@pytest.fixture
def database_url(coordinator: str) -> str:
    """The session's shared distributed database: the test's players are its own."""
    return coordinator
