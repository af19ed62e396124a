"""Tournaments on the cluster (docs/tournaments.md, docs/deployment-citus.md): a tournament's
stream and its row (``tournaments``) sit in the tournament's shard group, its tables in their
own games' groups; the list asks every shard. The same tests as on one server: a duplicate
Swiss played to its end by bots (boards sealed, then revealed and verified), refusals, the
sweep's start, and a round formed once whatever races or crashes."""
from tests.service.tournaments.test_tournament_life import (  # noqa: F401 - the same tests, on the cluster
    test_a_retried_creation_returns_the_tournament_the_first_one_made,
    test_a_round_is_formed_once_and_never_lost_whatever_crashes_between_the_appends,
    test_the_sweep_starts_a_tournament_at_its_time_and_cancels_one_with_too_few,
    test_what_a_player_may_not_do_is_refused_with_a_problem)
from tests.service.tournaments.test_tournaments_played import (  # noqa: F401
    test_a_duplicate_swiss_of_eight_is_played_to_its_end)
