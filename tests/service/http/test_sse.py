"""Server-Sent Events: ``GET /v1/games/{id}/events/stream`` over real HTTP."""
from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from tests.service.conftest import RULESETS
from tests.service.helpers import Live, Player, acting, serve, start_game
from tests.service.sse_client import Stream

PROBLEM = "application/problem+json"


@pytest.fixture(scope="module")
def live(db_factory: object) -> Iterator[Live]:
    """Heartbeats every 0.5 s; the timer re-check is 60 s, so a wake within a second is a hint's."""
    yield from serve(db_factory.new(), stream_heartbeat_seconds=0.5,  # type: ignore[attr-defined]
                     recheck_seconds=60, stream_max_seconds=20)


def _stream(live: Live, gid: str, who: Player | None, after: int | None = None, max_seconds: int = 10,
            headers: dict[str, str] | None = None) -> Stream:
    params: dict[str, Any] = {"max_seconds": max_seconds}
    if after is not None:
        params["after"] = after
    auth = who.auth if who is not None else {}
    return Stream(f"{live.url}/v1/games/{gid}/events/stream", {**auth, **(headers or {})}, params).start()


def _choose(v: dict[str, Any]) -> Any:
    """A legal action that does not end the round (no call), so that games last."""
    actions = v["legal_actions"]
    return next((a for a in actions if "call" not in a["type"].lower()), actions[0])


def _play(gid: str, players: list[Player], commands: int) -> int:
    version = players[0].get(f"/v1/games/{gid}").json()["version"]
    for _ in range(commands):
        try:
            p, v = acting(gid, players)
        except AssertionError:  # e.g. the game ended
            break
        r = p.post(f"/v1/games/{gid}/commands", _choose(v))
        assert r.status_code == 200, r.text
        version = r.json()["version"]
    return version


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_stream_receives_another_seats_command_within_a_second_redacted_for_the_caller(
        live: Live, ruleset: str) -> None:
    gid, players = start_game(live, ruleset)
    p, v = acting(gid, players)
    watcher = next(q for q in players if q is not p)
    s = _stream(live, gid, watcher, after=v["version"])
    assert s.status == 200 and s.content_type.startswith("text/event-stream")
    time.sleep(0.3)
    sent = time.monotonic()
    r = p.post(f"/v1/games/{gid}/commands", _choose(v))
    assert r.status_code == 200, r.text
    last = r.json()["version"]
    got = s.wait_for(last, 5)
    assert got is not None and got - sent < 1.0, "no message within a second of the command"
    # exactly what /events gives this seat: ids, event names and data
    page = watcher.get(f"/v1/games/{gid}/events", params={"after": v["version"]}).json()
    assert s.events() == page["events"]
    assert s.ids() == [e["version"] for e in page["events"]]
    assert [m["event"] for m in s.messages if "id" in m] == [e["type"] for e in page["events"]]


def test_the_whole_stream_is_each_seats_own_redacted_history(live: Live) -> None:
    gid, players = start_game(live, RULESETS[0])
    head = _play(gid, players, 3)
    seen = []
    for p in players[:2]:
        s = _stream(live, gid, p, after=0, max_seconds=1)
        assert s.ended.wait(10)
        assert s.events() == p.get(f"/v1/games/{gid}/events", params={"after": 0}).json()["events"]
        assert s.ids()[-1] == head
        seen.append(s.events())
    assert seen[0] != seen[1], "two seats saw the same deal: nothing was redacted"


def test_last_event_id_resumes_after_that_version_and_wins_over_after(live: Live) -> None:
    gid, players = start_game(live, RULESETS[-1])
    head = _play(gid, players, 4)
    full = players[1].get(f"/v1/games/{gid}/events", params={"after": 0}).json()["events"]
    middle = full[len(full) // 2]["version"]
    s = _stream(live, gid, players[1], after=0, max_seconds=1, headers={"Last-Event-ID": str(middle)})
    assert s.ended.wait(10)
    assert s.events() == [e for e in full if e["version"] > middle]
    assert s.ids()[-1] == head
    # an EventSource reconnects with the last id it received: nothing is repeated or lost
    p, v = acting(gid, players)
    assert p.post(f"/v1/games/{gid}/commands", _choose(v)).status_code == 200
    again = _stream(live, gid, players[1], max_seconds=1, headers={"Last-Event-ID": str(s.ids()[-1])})
    assert again.ended.wait(10)
    assert [e["version"] for e in again.events()] == [e["version"] for e in players[1].get(
        f"/v1/games/{gid}/events", params={"after": head}).json()["events"]]
    assert again.events() and all(e["version"] > head for e in again.events())


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_spectator_sees_only_public_data(live: Live, ruleset: str) -> None:
    gid, players = start_game(live, ruleset)
    outsider = live.player("outsider")
    _play(gid, players, 3)
    p, v = acting(gid, players)
    anonymous = _stream(live, gid, None, after=0, max_seconds=2)
    seatless = _stream(live, gid, outsider, after=0, max_seconds=2)
    assert p.post(f"/v1/games/{gid}/commands", _choose(v)).status_code == 200
    assert anonymous.ended.wait(10) and seatless.ended.wait(10)
    public = requests.get(f"{live.url}/v1/games/{gid}/events", params={"after": 0}, timeout=10).json()["events"]
    assert anonymous.events() == public and seatless.events() == public
    seats = [q.get(f"/v1/games/{gid}/events", params={"after": 0}).json()["events"] for q in players]
    assert any(public != mine for mine in seats), "every seat's events equal the public ones: nothing is private"
    assert "token" not in json.dumps(public)


def test_heartbeats_and_the_end_of_the_stream(live: Live) -> None:
    gid, players = start_game(live, RULESETS[-1])
    head = players[0].get(f"/v1/games/{gid}").json()["version"]
    t0 = time.monotonic()
    s = _stream(live, gid, players[0], after=head, max_seconds=2)
    assert s.ended.wait(10)
    assert 1.8 < time.monotonic() - t0 < 5
    assert s.events() == [] and s.messages and s.messages[0].get("retry") == "1000"
    assert sum(c == "heartbeat" for c in s.comments) >= 2
    assert any("reconnect with Last-Event-ID" in c for c in s.comments)


def test_errors_before_the_stream_are_problem_documents(live: Live) -> None:
    gid, players = start_game(live, RULESETS[-1])
    base = f"{live.url}/v1/games/{gid}/events/stream"
    r = requests.get(f"{live.url}/v1/games/00000000-0000-4000-8000-000000000000/events/stream", timeout=10)
    assert r.status_code == 404 and r.headers["Content-Type"].startswith(PROBLEM)
    r = requests.get(base, headers={"Authorization": "Bearer nope"}, timeout=10)
    assert r.status_code == 401 and r.headers["Content-Type"].startswith(PROBLEM)
    r = requests.get(base, params={"after": -1}, timeout=10)
    assert r.status_code == 422 and r.headers["Content-Type"].startswith(PROBLEM)
    r = requests.get(base, headers={"Last-Event-ID": "x1"}, timeout=10)
    assert r.status_code == 400 and r.headers["Content-Type"].startswith(PROBLEM)


def test_a_stream_ends_at_the_servers_limit_even_when_asked_for_more(db_factory: object) -> None:
    for live in serve(db_factory.new(), stream_max_seconds=1, stream_heartbeat_seconds=5):  # type: ignore[attr-defined]
        gid, players = start_game(live, RULESETS[-1])
        t0 = time.monotonic()
        s = _stream(live, gid, players[0], max_seconds=600)
        assert s.ended.wait(10) and time.monotonic() - t0 < 4
