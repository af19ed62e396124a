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


def test_the_command_that_ends_a_rated_game_and_its_reads_are_routed_to_one_shard_each(
        coordinator: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The ratings read at a game's end (one player at a time, by key), the append that writes
    them (delegated to the game's node), and the game's changes read with its summary."""
    from tests.citus.test_routing import _check, recording
    from tests.service.helpers import serve, start_game

    for live in serve(coordinator):
        gid, (ann, bob) = start_game(live, "pedro", 2, {})
        with recording(monkeypatch) as seen:
            assert bob.post(f"/v1/games/{gid}/resign").status_code == 200
            game = ann.get(f"/v1/games/{gid}").json()
        assert game["status"] == "finished" and [c["rank"] for c in game["rating_changes"]] == [1, 2]
        assert any("FROM ratings" in q for q, _ in seen) and any("FROM game_ratings" in q for q, _ in seen)
        _check(coordinator, seen)
