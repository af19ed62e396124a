"""The inbox (/v1/me/games) and the public list (/v1/games): every game of the caller
whatever their number, cursor pagination that returns each game once, filters, the games
the caller may act in first, may_act beside your_turn, ETag/304 and long-polls."""
from __future__ import annotations

import random
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from service.usecases import lobby
from tests.service.helpers import Live, Player
from tests.service.http.lifecycle.clocked import Clock, api_of, clocked, open_game, play_greedy, started



@pytest.fixture
def live(database_url: str, clock: Clock) -> Iterator[Live]:
    yield from clocked(database_url, clock, long_poll_max=5, recheck_seconds=30)


def _pages(p: Player, path: str, **params: Any) -> list[dict[str, Any]]:
    out, cursor = [], None
    for _ in range(100):
        body = p.get(path, params={**params, **({"cursor": cursor} if cursor else {})}).json()
        out += body["games"]
        cursor = body["next_cursor"]
        if cursor is None:
            return out
    raise AssertionError("the pages never ended")


def test_with_1001_games_the_active_one_comes_first_and_pagination_lists_each_once(live: Live,
                                                                                 clock: Clock) -> None:
    active, (ann, bob) = started(live, "least-score")
    if bob.get(f"/v1/games/{active}").json()["awaiting"] != [0]:
        ann, bob = bob, ann  # ann is the player the game awaits
    api = api_of(live)
    for i in range(1000):
        clock.advance(1)  # each open game is more recent than the active one
        lobby.create_game(api, (ann.id, ann.name), "corte", 2, {}, f"open {i}", True, None)
    assert [g["id"] for g in ann.get("/v1/me/games", params={"status": "active"}).json()["games"]] == [active]
    first = ann.get("/v1/me/games", params={"limit": 10}).json()
    assert first["games"][0]["id"] == active and first["games"][0]["may_act"] is True
    assert first["games"][0]["your_turn"] is True and first["next_cursor"]
    every = _pages(ann, "/v1/me/games", limit=200)
    assert len(every) == 1001 and len({g["id"] for g in every}) == 1001 and every[0]["id"] == active
    acting = ann.get("/v1/me/games", params={"may_act": "true"}).json()["games"]
    assert [g["id"] for g in acting] == [active]
    assert len(_pages(ann, "/v1/me/games", may_act="false", limit=200)) == 1000
    public = _pages(live.player("x"), "/v1/games", status="open", ruleset="corte", seats_free=1, limit=150)
    assert len(public) == 1000 and len({g["id"] for g in public}) == 1000
    assert _pages(live.player("y"), "/v1/games", ruleset="pedro") == []


def test_the_streams_inbox_lists_the_games_awaiting_the_player_however_many_others_come_first(
        live: Live, clock: Clock) -> None:
    from service.usecases.inbox import inbox

    ann, bob = live.player("ann"), live.player("bob")
    awaiting: dict[str, list[str]] = {ann.id: [], bob.id: []}
    while len(awaiting[bob.id]) < 4 or len(awaiting[ann.id]) < 2:
        clock.advance(60)  # each game's deadline later than the one before
        gid, _ = open_game(live, "least-score", 2, creator=ann)
        assert bob.post(f"/v1/games/{gid}/join", {}).status_code == 200
        seat = ann.get(f"/v1/games/{gid}").json()["awaiting"][0]
        who = (ann, bob)[seat]
        if who is ann and len(awaiting[bob.id]) < 4:
            assert ann.post(f"/v1/games/{gid}/resign").status_code == 200  # keep bob's four first
            continue
        awaiting[who.id].append(gid)
    # bob's four games have the nearest deadlines: a limit of 3 must still reach ann's two
    box = inbox(api_of(live), ann.id, limit=3)
    assert [g["game_id"] for g in box["games"]] == awaiting[ann.id]
    assert all(g["seat"] == 0 and g["deadline"]["at"].endswith("Z") for g in box["games"])


def test_may_act_is_true_for_a_seat_with_only_a_snap_to_send(live: Live) -> None:
    gid, players = started(live, "corte")
    rng = random.Random(4)
    for _ in range(200):
        for p in players:
            view = p.get(f"/v1/games/{gid}/view").json()
            kinds = {a["type"] for a in view["legal_actions"]} - {"PlaceOrder", "CancelOrder"}
            if view["seat"] not in view["awaiting"] and kinds and all(k.startswith("Snap") for k in kinds):
                listed = next(g for g in p.get("/v1/me/games").json()["games"] if g["id"] == gid)
                assert listed["your_turn"] is False and listed["may_act"] is True
                return
        assert any(play_greedy(p, gid, rng) for p in players)
    raise AssertionError("no seat ever had only a snap to send")


def test_the_list_answers_304_when_nothing_changed_and_waits_for_a_change(live: Live) -> None:
    gid, (ann, bob) = open_game(live, "corte", 2)
    first = ann.get("/v1/me/games")
    etag = first.headers["ETag"]
    assert ann.get("/v1/me/games", headers={"If-None-Match": etag}).status_code == 304
    started_at = time.monotonic()
    assert ann.get("/v1/me/games", params={"wait": 1}, headers={"If-None-Match": etag}).status_code == 304
    assert time.monotonic() - started_at >= 0.9
    threading.Timer(0.5, lambda: bob.post(f"/v1/games/{gid}/join", {})).start()
    started_at = time.monotonic()
    changed = ann.get("/v1/me/games", params={"wait": 5}, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.json()["games"][0]["status"] == "active"
    assert time.monotonic() - started_at < 4  # woken by the game's hint, not by the timer
    assert changed.headers["ETag"] != etag


def test_an_invitation_wakes_the_invitees_waiting_list(live: Live) -> None:
    gid, (ann, bob) = open_game(live, "corte", 2)
    etag = bob.get("/v1/me/games").headers["ETag"]
    threading.Timer(0.5, lambda: ann.post(f"/v1/games/{gid}/invitations", {"player_id": bob.id})).start()
    started_at = time.monotonic()
    r = bob.get("/v1/me/games", params={"wait": 5}, headers={"If-None-Match": etag})
    assert r.status_code == 200 and r.json()["games"][0]["invited_seat"] == 1
    assert time.monotonic() - started_at < 4


def test_a_bad_cursor_or_filter_is_refused(live: Live) -> None:
    ann = live.player("ann")
    for params in ({"cursor": "nope"}, {"status": "paused"}, {"may_act": "yes"}, {"limit": 0}, {"wait": 31},
                   {"cursor": "WyJwdWJsaWMiLCJ4Il0"}):
        r = ann.get("/v1/me/games", params=params)
        assert r.status_code == 422 and r.headers["Content-Type"] == "application/problem+json", params
    assert ann.get("/v1/games", params={"cursor": str(uuid.uuid4())}).status_code == 422
