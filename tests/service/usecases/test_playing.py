"""Playing, called as a use case: a seat's command is decided, stored and answered with what
that seat may see; the same request again (its Idempotency-Key) gets the first answer and
appends nothing; a command from someone without a seat is refused."""
from __future__ import annotations

import uuid
from typing import Any

import pytest

from service.model.problems import Problem
from service.usecases import playing, reading
from service.usecases.dependencies import Dependencies
from tests.service.usecases.conftest import dependencies, two_seat_game


def _awaited(deps: Dependencies, gid: uuid.UUID, players: list[tuple[str, str]]) -> tuple[str, dict[str, Any]]:
    """The player the game awaits and the first of their legal actions, from their own view."""
    for pid, _ in players:
        view = reading.seat_view(deps, gid, pid, lambda version: False)[1]
        assert view is not None
        if view["seat"] in view["awaiting"] and view["legal_actions"]:
            return pid, view["legal_actions"][0]
    raise AssertionError("no seat is awaited")


def test_a_command_is_stored_and_answered_with_the_senders_view(deps: Dependencies) -> None:
    gid, ann, bob = two_seat_game(deps)
    before = deps.store.head(gid)[0]
    pid, action = _awaited(deps, gid, [ann, bob])
    out = playing.run_command(deps, gid, pid, action, None, None, f"/v1/games/{gid}/commands")
    assert out["version"] > before == out["events"][0]["version"] - 1
    assert deps.store.head(gid)[0] == out["version"]
    assert out["chain_head"] == deps.store.head(gid)[1].hex()
    assert out["view"]["version"] == out["version"] and out["view"]["seat"] in (0, 1)


def test_the_same_command_with_its_key_again_gets_the_first_answer_and_appends_nothing(deps: Dependencies,
                                                                                      database_url: str) -> None:
    gid, ann, bob = two_seat_game(deps)
    pid, action = _awaited(deps, gid, [ann, bob])
    path = f"/v1/games/{gid}/commands"
    first = playing.run_command(deps, gid, pid, action, None, "retry-me", path)
    again = playing.run_command(deps, gid, pid, action, None, "retry-me", path)
    assert again == first
    assert deps.store.head(gid)[0] == first["version"]
    # a worker that never saw the first answer rebuilds it from the log, the same
    other_worker = dependencies(database_url)
    try:
        assert playing.run_command(other_worker, gid, pid, action, None, "retry-me", path) == first
    finally:
        other_worker.close()
    with pytest.raises(Problem) as reused:
        playing.run_command(deps, gid, pid, {**action, "extra": 1}, None, "retry-me", path)
    assert reused.value.slug == "idempotency-key-reused"


def test_a_command_out_of_turn_or_without_a_seat_is_refused_and_nothing_is_stored(deps: Dependencies) -> None:
    gid, ann, bob = two_seat_game(deps)
    head = deps.store.head(gid)[0]
    pid, action = _awaited(deps, gid, [ann, bob])
    other = bob[0] if pid == ann[0] else ann[0]
    with pytest.raises(Problem) as turn:
        playing.run_command(deps, gid, other, action, None, None, f"/v1/games/{gid}/commands")
    with pytest.raises(Problem) as stranger:
        playing.run_command(deps, gid, str(uuid.uuid4()), action, None, None, f"/v1/games/{gid}/commands")
    with pytest.raises(Problem) as stale:
        playing.run_command(deps, gid, pid, action, head - 1, None, f"/v1/games/{gid}/commands")
    assert turn.value.status == 409 and "legal_actions" in turn.value.extra
    assert (stranger.value.slug, stale.value.slug, stale.value.extra) == ("forbidden", "precondition-failed",
                                                                           {"version": head})
    assert deps.store.head(gid)[0] == head
