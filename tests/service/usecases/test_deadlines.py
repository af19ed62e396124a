"""Deadlines through the service (RULES §2.11, §7.6): the view shows when the current wait
times out; past it, a sweep sends the ruleset's system commands as an ordinary append, which
the audit replays like any other command; a player who moves first restarts the clock."""
from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest

from service.usecases.sweep import sweep
from tests.service.helpers import Live, acting, serve, start_game
from tests.service.http.lifecycle.clocked import Clock

TURN, WINDOW = 60.0, 30.0


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def timed(database_url: str, clock: Clock) -> Iterator[Live]:
    yield from serve(database_url, turn_timeout_seconds=TURN, final_window_timeout_seconds=WINDOW,
                     extra={"clock": clock})


def _at(iso: str) -> datetime:
    return datetime.fromisoformat(iso.replace("Z", "+00:00"))


def test_the_view_says_when_the_wait_times_out(timed: Live, clock: Clock) -> None:
    gid, players = start_game(timed, "cuatro-cartas")
    view = players[0].get(f"/v1/games/{gid}/view").json()
    deadline = view["deadline"]
    assert deadline["kind"] == "turn" and deadline["seats"] == view["awaiting"] == [0, 1, 2, 3]
    assert _at(deadline["since"]) == clock.now
    assert _at(deadline["at"]) == clock.now + timedelta(seconds=TURN)
    summary = players[1].get(f"/v1/games/{gid}").json()
    assert summary["deadline"] == deadline


def test_nothing_is_sent_before_the_deadline_and_everything_after(timed: Live, clock: Clock) -> None:
    gid, players = start_game(timed, "corte")
    api = timed.app.extensions["facedown"]
    before = players[0].get(f"/v1/games/{gid}/view").json()
    clock.advance(TURN - 1)
    assert sweep(api).commands_sent == 0
    assert players[0].get(f"/v1/games/{gid}/view").json()["version"] == before["version"]
    clock.advance(2)
    result = sweep(api)
    assert result.swept and result.games_due == 1 and result.commands_sent == 4  # every seat's initial peek
    after = players[0].get(f"/v1/games/{gid}/view").json()
    assert after["version"] > before["version"] and after["awaiting"] != before["awaiting"]
    page = players[0].get(f"/v1/games/{gid}/events", params={"after": before["version"]}).json()
    applied = [e for e in page["events"] if e["type"] == "TimeoutApplied"]
    assert sorted(e["data"]["seat"] for e in applied) == [0, 1, 2, 3]
    assert all(e["actor"] is None for e in page["events"])
    # the turn that follows has its own clock, started by the sweep
    assert after["deadline"]["kind"] == "turn" and _at(after["deadline"]["since"]) == clock.now
    assert sweep(api).commands_sent == 0


def test_the_audit_replays_the_system_commands(timed: Live, clock: Clock) -> None:
    from service.audit.export import load_log
    from service.audit.verify import Report, check_readjudication

    gid, players = start_game(timed, "corte")
    api = timed.app.extensions["facedown"]
    for _ in range(3):
        clock.advance(TURN + 1)
        assert sweep(api).commands_sent > 0
    report = Report()
    game = api.games.load(uuid.UUID(gid)).game
    check_readjudication(load_log(api.store, uuid.UUID(gid)), api.games.chance_key(game), report)
    assert report.ok, [str(f) for f in report.failures]
    assert report.checked["commands replayed"] >= 6


def test_a_player_who_moves_first_restarts_the_clock(timed: Live, clock: Clock) -> None:
    gid, players = start_game(timed, "cuatro-cartas")
    api = timed.app.extensions["facedown"]
    clock.advance(TURN + 1)
    sweep(api)  # the initial peeks time out: the first turn begins now
    clock.advance(TURN - 5)
    p, view = acting(gid, players)
    since = view["deadline"]["since"]
    assert p.post(f"/v1/games/{gid}/commands", view["legal_actions"][0]).status_code == 200
    clock.advance(10)  # past the old deadline, not past the new one
    after = players[0].get(f"/v1/games/{gid}/view").json()
    if after["deadline"]["since"] != since:  # the turn passed on: a new wait, a new clock
        assert sweep(api).commands_sent == 0
    else:  # the same turn goes on (the player drew and now holds a card): same clock
        assert sweep(api).commands_sent == 1


def test_the_index_finds_only_the_games_past_their_deadline(timed: Live, clock: Clock) -> None:
    from events import game_index

    api = timed.app.extensions["facedown"]
    early, _ = start_game(timed, "corte")
    clock.advance(TURN / 2)
    late, _ = start_game(timed, "pedro")
    clock.advance(TURN / 2 + 1)
    due = game_index.due(api.db, clock.now, 100)
    assert uuid.UUID(early) in due and uuid.UUID(late) not in due


def test_the_server_sweeps_by_itself(make_app: Any) -> None:
    clock = Clock()
    app = make_app(turn_timeout_seconds=TURN, deadline_sweep_seconds=0.2, extra={"clock": clock})
    client = app.test_client()
    tokens = [client.post("/v1/players", json={"name": f"p{i}"}).get_json()["token"] for i in range(2)]
    auth: list[dict[str, Any]] = [{"Authorization": f"Bearer {t}"} for t in tokens]
    gid = client.post("/v1/games", json={"ruleset": "least-score", "seats": 2}, headers=auth[0]).get_json()["id"]
    client.post(f"/v1/games/{gid}/join", json={}, headers=auth[1])
    before = client.get(f"/v1/games/{gid}/view", headers=auth[0]).get_json()
    clock.advance(TURN + 1)
    for _ in range(50):
        time.sleep(0.1)
        now = client.get(f"/v1/games/{gid}/view", headers=auth[0]).get_json()
        if now["version"] > before["version"]:
            break
    assert now["version"] > before["version"], "the sweeper did not send the turn's timeout"
