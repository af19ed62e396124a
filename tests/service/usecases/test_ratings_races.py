"""Two games that end at once with a player in common (docs/ratings.md): each rating is
computed from the one before it, in the order the games' appends commit, never both from
the same one. The append's effect checks each player's rating under its row lock and refuses
the whole append when it moved; the repository then decides again."""
from __future__ import annotations

import threading
import uuid

import pytest

from events import ratings as store
from events.errors import RatingsMoved
from events.store import NewEvent
from service.adapters import ratings as projection
from service.usecases import game_life, lobby
from service.usecases.dependencies import Dependencies
from tests.service.usecases.conftest import player


def _game(deps: Dependencies, a: tuple[str, str], b: tuple[str, str]) -> uuid.UUID:
    cur, _ = lobby.create_game(deps, a, "pedro", 2, {}, None, True, None)
    gid = uuid.UUID(cur.game.id)
    lobby.join_game(deps, gid, b, None)
    return gid


def test_an_append_computed_on_a_rating_that_moved_is_refused_whole(deps: Dependencies) -> None:
    ann = player(deps, "ann")[0]
    entry = store.Entry(ann, 0, 1, 0, 25.0, 25 / 3, 27.0, 8.0)
    first, second = uuid.uuid4(), uuid.uuid4()
    deps.store.append(first, 0, [NewEvent("Marker", {})], kind="test", effects=[store.effect("pedro", [entry])])
    assert store.current(deps.db, "pedro", [ann]) == {ann: (27.0, 8.0, 1)}
    # computed from the rating before the first: refused, and nothing of it written
    with pytest.raises(RatingsMoved):
        deps.store.append(second, 0, [NewEvent("Marker", {})], kind="test", effects=[store.effect("pedro", [entry])])
    assert deps.store.head(second) is None
    assert store.current(deps.db, "pedro", [ann]) == {ann: (27.0, 8.0, 1)}
    # the marker's rating is no game's: a rebuild from the logs takes it away (a database shared
    # with other tests stays as the logs give it)
    projection.rebuild(deps.store, deps.admin())
    assert store.current(deps.db, "pedro", [ann]) == {}


@pytest.mark.parametrize("attempt", range(3))
def test_two_games_ending_at_once_chain_their_shared_players_ratings(deps: Dependencies, attempt: int) -> None:
    ann, bob, cat = player(deps, "ann"), player(deps, "bob"), player(deps, "cat")
    games = [_game(deps, ann, bob), _game(deps, ann, cat)]
    start = threading.Barrier(2)
    errors: list[BaseException] = []

    def resign(gid: uuid.UUID, who: str) -> None:
        start.wait()
        try:
            game_life.resign(deps, gid, who)
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            errors.append(exc)

    threads = [threading.Thread(target=resign, args=(g, p[0])) for g, p in zip(games, (bob, cat))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    _, history = store.of_player(deps.db, uuid.UUID(ann[0]))
    assert [h.n for h in history] == [1, 2] and {h.game_id for h in history} == set(games)
    # the second started from the first's result, not from the rating both began with
    assert (history[1].mu_before, history[1].sigma_before) == (history[0].mu_after, history[0].sigma_after)
    assert store.current(deps.db, "pedro", [ann[0]])[ann[0]] == (history[1].mu_after, history[1].sigma_after, 2)
    # and the logs give the same, in the order the games ended
    assert projection.differences(deps.store, deps.admin()) == []
