"""Vacation: a player's clocks stand still in every game while it lasts; it ends by itself
or early, is charged by the day against a yearly allowance, shows to the others, and is
recorded in each game's log so that the audit replays the deadlines exactly."""
from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import timedelta

import pytest

from service.audit.export import export_game
from service.usecases.sweep import sweep
from tests.service.helpers import Live, Player
from tests.service.http.lifecycle.clocked import DAY, HOUR, Clock, api_of, at, clocked, delete, open_game, started



@pytest.fixture
def live(database_url: str, clock: Clock) -> Iterator[Live]:
    yield from clocked(database_url, clock, vacation_days=10)


def _deadline(p: Player, gid: str) -> str:
    return str(p.get(f"/v1/games/{gid}").json()["deadline"]["at"])


def _awaited(p: Player, gid: str) -> list[int]:
    return list(p.get(f"/v1/games/{gid}").json()["awaiting"])


def test_a_vacation_pauses_the_players_clock_in_every_game_until_it_ends(live: Live, clock: Clock) -> None:
    first, players = started(live, "least-score", time_control={"turn_seconds": 2 * HOUR})
    ann = players[_awaited(players[0], first)[0]]  # the player whose turn it is
    second, _ = open_game(live, "least-score", 2, time_control={"turn_seconds": 3 * HOUR})
    assert ann.post(f"/v1/games/{second}/join", {}).status_code == 200
    clock.advance(HOUR)
    r = ann.post("/v1/me/vacation", {"days": 2})
    assert r.status_code == 201, r.text
    assert r.json()["games"] == 2
    assert at(r.json()["current"]["until"]) == clock.now + timedelta(days=2)
    # an hour of her turn is left: it runs out an hour after the vacation
    assert at(_deadline(ann, first)) == clock.now + timedelta(days=2, hours=1)
    # the lists and the view show the moved deadline too, not the one written before the vacation
    summary = ann.get(f"/v1/games/{first}").json()["deadline"]
    listed = next(g for g in ann.get("/v1/me/games").json()["games"] if g["id"] == first)["deadline"]
    public = next(g for g in ann.get("/v1/games").json()["games"] if g["id"] == first)["deadline"]
    assert summary == listed == public == ann.get(f"/v1/games/{first}/view").json()["deadline"]
    seat = next(s["seat"] for s in ann.get(f"/v1/games/{second}").json()["seats"] if s["player_id"] == ann.id)
    per_seat = {s["seat"]: at(s["at"]) for s in ann.get(f"/v1/games/{second}").json()["deadline"]["per_seat"]}
    if seat in per_seat:  # her turn there too: two of its three hours are left after the vacation
        assert per_seat[seat] == clock.now + timedelta(days=2, hours=2)
    clock.advance(1.5 * DAY)
    sweep(api_of(live))
    assert ann.get(f"/v1/games/{first}").json()["awaiting"] == _awaited(ann, first) and \
        ann.get(f"/v1/games/{first}").json()["seats"][_awaited(ann, first)[0]]["player_id"] == ann.id
    clock.advance(DAY // 2 + HOUR - 1)
    sweep(api_of(live))
    assert ann.get(f"/v1/games/{first}").json()["seats"][_awaited(ann, first)[0]]["player_id"] == ann.id
    clock.advance(2)
    sweep(api_of(live))
    assert ann.get(f"/v1/games/{first}").json()["seats"][_awaited(ann, first)[0]]["player_id"] != ann.id


def test_ending_a_vacation_early_resumes_the_clock_and_charges_the_days_begun(live: Live, clock: Clock) -> None:
    gid, players = started(live, "corte", time_control={"turn_seconds": 2 * HOUR})
    ann = players[0]
    assert ann.post("/v1/me/vacation", {"days": 5}).status_code == 201
    assert ann.get("/v1/me").json()["vacation"]["used_days"] == 5
    clock.advance(DAY + HOUR)
    r = delete(ann, "/v1/me/vacation")
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["ended"]["days_charged"] == 2 and body["used_days"] == 2 and body["remaining_days"] == 8
    assert body["current"] is None and body["games"] == 1
    # the initial peek's clock ran for none of the vacation: 2 h from now
    per_seat = {s["seat"]: s["at"] for s in ann.get(f"/v1/games/{gid}").json()["deadline"]["per_seat"]}
    assert at(per_seat[0]) == clock.now + timedelta(hours=2)
    assert at(per_seat[1]) < clock.now  # the other seat's clock ran all along
    assert delete(ann, "/v1/me/vacation").json()["type"].endswith("/not-on-vacation")


def test_the_allowance_is_yearly_and_a_vacation_cannot_overlap_another(live: Live, clock: Clock) -> None:
    ann = live.player("ann")
    assert ann.post("/v1/me/vacation", {"days": 7}).status_code == 201
    again = ann.post("/v1/me/vacation", {"days": 1})
    assert again.status_code == 409 and again.json()["type"].endswith("/already-on-vacation")
    clock.advance(8 * DAY)
    too_long = ann.post("/v1/me/vacation", {"days": 4})
    assert too_long.status_code == 409 and too_long.json()["remaining_days"] == 3
    assert ann.post("/v1/me/vacation", {"days": 3}).status_code == 201
    for bad in ({"days": 0}, {"days": "2"}, {}, {"days": 2, "x": 1}):
        assert ann.post("/v1/me/vacation", bad).status_code == 422
    clock.now = clock.now.replace(year=clock.now.year + 1, month=1, day=5)
    assert ann.get("/v1/me").json()["vacation"] == {"allowance_days": 10, "year": clock.now.year, "used_days": 0,
                                                   "remaining_days": 10, "current": None}


def test_the_others_see_until_when_a_player_is_on_vacation(live: Live, clock: Clock) -> None:
    gid, players = started(live, "pedro")
    ann, bob = players
    ann.post("/v1/me/vacation", {"days": 3})
    until = (clock.now + timedelta(days=3)).isoformat().replace("+00:00", "Z")
    seat = next(s for s in bob.get(f"/v1/games/{gid}").json()["seats"] if s["player_id"] == ann.id)
    assert seat["vacation_until"] == until
    handle = ann.get("/v1/me").json()["handle"]
    assert bob.get(f"/v1/players/{handle}").json()["on_vacation_until"] == until


def test_a_game_dealt_during_a_vacation_records_it_when_its_deadline_comes(live: Live, clock: Clock) -> None:
    gid, players = open_game(live, "corte", 2, time_control={"turn_seconds": HOUR})
    bob, ann = players
    assert ann.post("/v1/me/vacation", {"days": 1}).status_code == 201
    assert ann.post(f"/v1/games/{gid}/join", {}).status_code == 200  # no game of hers recorded it
    clock.advance(2 * HOUR)
    # both initial peeks are due: bob's times out, ann's clock stands still from now on
    assert sweep(api_of(live)).commands_sent == 1
    events = bob.get(f"/v1/games/{gid}/events").json()["events"]
    paused = [e for e in events if e["type"] == "ClockPaused"]
    assert len(paused) == 1 and paused[0]["data"]["player_id"] == ann.id and paused[0]["data"]["seat"] == 1
    assert [e["data"]["seat"] for e in events if e["type"] == "TimeoutApplied"] == [0]
    assert at(_deadline(ann, gid)) == clock.now - timedelta(hours=2) + timedelta(days=1, hours=1)


def test_the_audit_replays_the_deadlines_of_a_game_with_vacations(live: Live, clock: Clock) -> None:
    gid, players = started(live, "least-score", time_control={"turn_seconds": HOUR},
                           options={"elimination_threshold": 25, "common.round_turn_limit": 2})
    ann = players[0]
    ann.post("/v1/me/vacation", {"days": 1})
    for _ in range(600):
        clock.advance(HOUR)
        sweep(api_of(live))
        if ann.get(f"/v1/games/{gid}").json()["status"] == "finished":
            break
    export = export_game(api_of(live).store, uuid.UUID(gid))
    assert export["verification"]["ok"], export["verification"]["failures"][:3]
    assert export["verification"]["checks"]["lifecycle"] == "ok"
    timed_out = [e for e in export["events"] if (e["metadata"].get("command") or {}).get("type") == "TurnTimedOut"]
    assert timed_out and all(at(e["time"]) >= at(export["events"][0]["time"]) + timedelta(days=1)
                             for e in timed_out if e["metadata"]["command"]["seat"] == 0)
