"""Leaving a game: resign an active game (the rules' automatic action plays the seat, the
game ends when one player is left, the resigner ranks last), leave an open one, and the
creator cancels an open one. Each is an event, with its refusals."""
from __future__ import annotations

import random
import uuid

from service.audit.export import export_game
from tests.service.helpers import Live
from tests.service.http.lifecycle.clocked import api_of, delete, open_game, play_greedy, started


def _types(live: Live, gid: str) -> list[str]:
    return [e["type"] for e in live.player("reader").get(f"/v1/games/{gid}/events").json()["events"]]


def test_a_resignation_by_one_of_two_ends_the_game_and_the_resigner_ranks_last(live: Live) -> None:
    gid, (ann, bob) = started(live, "corte")
    r = ann.post(f"/v1/games/{gid}/resign")
    assert r.status_code == 200, r.text
    game = r.json()
    ann_seat = next(s["seat"] for s in game["seats"] if s["player_id"] == ann.id)
    assert game["status"] == "finished" and game["winners"] == [1 - ann_seat]
    assert game["ranking"] == [1 - ann_seat, ann_seat] and game["secret"] is not None
    assert _types(live, gid)[-3:] == ["SeatResigned", "GameConcluded", "SecretRevealed"]
    assert ann.post(f"/v1/games/{gid}/resign").json()["type"].endswith("/game-not-active")
    export = export_game(api_of(live).store, uuid.UUID(gid))
    assert export["verification"]["ok"], export["verification"]["failures"][:3]


def test_the_game_goes_on_after_a_resignation_with_the_seat_played_automatically(live: Live) -> None:
    gid, (ann, bob, cat) = started(live, "corte", seats=3)
    r = ann.post(f"/v1/games/{gid}/resign")
    assert r.status_code == 200 and r.json()["status"] == "active"
    seat = next(s["seat"] for s in r.json()["seats"] if s["player_id"] == ann.id)
    # the initial peek of the resigned seat was played at once, by the rules' automatic action
    assert seat not in r.json()["awaiting"]
    assert ann.post(f"/v1/games/{gid}/resign").json()["type"].endswith("/already-resigned")
    view = ann.get(f"/v1/games/{gid}/view").json()
    assert view["legal_actions"] == [] and view["seats"][seat]["status"] == "resigned"
    listed = next(g for g in ann.get("/v1/me/games").json()["games"] if g["id"] == gid)
    assert listed["may_act"] is False
    stranger = live.player("stranger")
    assert stranger.post(f"/v1/games/{gid}/resign").status_code == 403


def test_a_resigner_ranks_last_when_the_others_finish_the_game(live: Live) -> None:
    gid, players = started(live, "least-score", seats=3, options={"elimination_threshold": 25})
    ann = players[0]
    seat = next(s["seat"] for s in ann.get(f"/v1/games/{gid}").json()["seats"] if s["player_id"] == ann.id)
    assert ann.post(f"/v1/games/{gid}/resign").status_code == 200
    rng = random.Random(5)
    for _ in range(3000):
        if ann.get(f"/v1/games/{gid}").json()["status"] != "active":
            break
        assert any(play_greedy(p, gid, rng) for p in players[1:])
    game = ann.get(f"/v1/games/{gid}").json()
    assert game["status"] == "finished" and seat not in game["winners"] and game["ranking"][-1] == seat
    export = export_game(api_of(live).store, uuid.UUID(gid))
    assert export["verification"]["ok"], export["verification"]["failures"][:3]
    automatic = [e for e in export["events"] if e["metadata"].get("actor") is None
                 and (e["metadata"].get("command") or {}).get("seat") == seat]
    assert automatic  # the rules' automatic action played the resigned seat's turns


def test_a_resigned_player_sends_no_more_commands(live: Live) -> None:
    gid, (ann, bob, cat) = started(live, "cuatro-cartas", seats=3)
    legal = ann.get(f"/v1/games/{gid}/view").json()["legal_actions"]
    ann.post(f"/v1/games/{gid}/resign")
    r = ann.post(f"/v1/games/{gid}/commands", legal[0])
    assert r.status_code == 409 and r.json()["type"].endswith("/seat-not-playing")


def test_a_player_leaves_an_open_game_and_the_seat_is_free_again(live: Live) -> None:
    gid, (ann, bob, cat) = open_game(live, "pedro", 3)
    assert bob.post(f"/v1/games/{gid}/join", {}).status_code == 200
    r = bob.post(f"/v1/games/{gid}/leave")
    assert r.status_code == 200 and r.json()["seats"][1]["player_id"] is None
    assert gid not in {g["id"] for g in bob.get("/v1/me/games").json()["games"]}
    assert bob.post(f"/v1/games/{gid}/leave").status_code == 403  # no seat any more
    assert cat.post(f"/v1/games/{gid}/join", {}).json()["seat"] == 1
    creator = ann.post(f"/v1/games/{gid}/leave")
    assert creator.status_code == 409 and creator.json()["type"].endswith("/creator-cannot-leave")


def test_nobody_leaves_an_active_game_with_leave(live: Live) -> None:
    gid, (ann, bob) = started(live, "least-score")
    r = bob.post(f"/v1/games/{gid}/leave")
    assert r.status_code == 409 and r.json()["type"].endswith("/game-not-open")


def test_the_creator_cancels_an_open_game_and_nobody_else_can(live: Live) -> None:
    gid, (ann, bob, cat) = open_game(live, "corte", 3)
    assert bob.post(f"/v1/games/{gid}/join", {}).status_code == 200
    refused = delete(bob, f"/v1/games/{gid}")
    assert refused.status_code == 403 and refused.headers["Content-Type"] == "application/problem+json"
    r = delete(ann, f"/v1/games/{gid}")
    assert r.status_code == 200 and r.json()["status"] == "cancelled" and r.json()["secret"] is not None
    assert delete(ann, f"/v1/games/{gid}").json()["type"].endswith("/game-not-open")
    assert cat.post(f"/v1/games/{gid}/join", {}).json()["type"].endswith("/game-not-open")
    assert gid not in {g["id"] for g in cat.get("/v1/games", params={"status": "open"}).json()["games"]}
    export = export_game(api_of(live).store, uuid.UUID(gid))
    assert export["verification"]["ok"], export["verification"]["failures"][:3]


def test_an_active_game_cannot_be_cancelled(live: Live) -> None:
    gid, (ann, bob) = started(live, "corte")
    assert delete(ann, f"/v1/games/{gid}").json()["type"].endswith("/game-not-open")


def test_a_resignation_cancels_the_seats_standing_orders(live: Live) -> None:
    gid, (ann, bob, cat) = started(live, "corte", seats=3)
    view = ann.get(f"/v1/games/{gid}/view").json()
    place = next(a for a in view["legal_actions"] if a["type"] == "PlaceOrder")
    assert ann.post(f"/v1/games/{gid}/commands", place).status_code == 200
    assert ann.get(f"/v1/games/{gid}/orders").json()["orders"]
    assert ann.post(f"/v1/games/{gid}/resign").status_code == 200
    assert ann.get(f"/v1/games/{gid}/orders").json()["orders"] == []
