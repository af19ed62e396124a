"""Private games and invitations: an unlisted game is never listed nor shown to a
stranger and is joined with its invite code, which only its seated players can read;
an invitation keeps a seat for a named player (found by id or by handle)."""
from __future__ import annotations

import requests

from tests.service.helpers import Live
from tests.service.http.lifecycle.clocked import open_game


def test_an_unlisted_game_is_never_listed_or_shown_to_a_stranger(live: Live) -> None:
    gid, (ann, bob) = open_game(live, "corte", 2, visibility="unlisted")
    stranger = live.player("stranger")
    for who in (stranger, ann):
        for status in (None, "open"):
            listed = who.get("/v1/games", params={"status": status} if status else {}).json()["games"]
            assert gid not in {g["id"] for g in listed}
    assert requests.get(f"{live.url}/v1/games", timeout=10).json()["games"] == []
    for path in ("", "/view", "/events", "/audit", "/invite_code"):
        r = stranger.get(f"/v1/games/{gid}{path}")
        assert r.status_code == 404 and r.headers["Content-Type"] == "application/problem+json", path
        assert requests.get(f"{live.url}/v1/games/{gid}{path}", timeout=10).status_code == 404
    assert ann.get(f"/v1/games/{gid}").status_code == 200
    assert [g["id"] for g in ann.get("/v1/me/games").json()["games"]] == [gid]


def test_its_invite_code_joins_it_and_only_seated_players_read_the_code(live: Live) -> None:
    r = live.player("ann").post("/v1/games", {"ruleset": "pedro", "seats": 3, "visibility": "unlisted"})
    ann_game = r.json()
    gid, code = ann_game["id"], ann_game["invite_code"]
    stranger, friend = live.player("stranger"), live.player("friend")
    assert stranger.post(f"/v1/games/{gid}/join", {}).status_code == 404
    assert stranger.post(f"/v1/games/{gid}/join", {"invite_code": "not-it"}).status_code == 404
    assert stranger.get(f"/v1/games/{gid}", params={"invite_code": code}).status_code == 200  # a join link
    joined = friend.post(f"/v1/games/{gid}/join", {"invite_code": code.upper()})
    assert joined.status_code == 200 and joined.json()["seat"] == 1
    assert friend.get(f"/v1/games/{gid}/invite_code").json()["invite_code"] == code
    assert friend.get(f"/v1/games/{gid}/view").status_code == 200
    assert stranger.get(f"/v1/games/{gid}/invite_code").status_code == 404


def test_an_invitation_keeps_a_seat_for_the_named_player(live: Live) -> None:
    gid, (ann, bob, cat) = open_game(live, "least-score", 3)
    handle = cat.get("/v1/me").json()["handle"]
    r = ann.post(f"/v1/games/{gid}/invitations", {"handle": handle.upper()})
    assert r.status_code == 201, r.text
    seat = r.json()["seat"]
    assert r.json()["player_id"] == cat.id
    assert r.json()["game"]["seats"][seat]["reserved_for"]["player_id"] == cat.id
    invited = next(g for g in cat.get("/v1/me/games").json()["games"] if g["id"] == gid)
    assert invited["invited_seat"] == seat and invited["your_seat"] is None
    again = ann.post(f"/v1/games/{gid}/invitations", {"player_id": cat.id})
    assert again.status_code == 409 and again.json()["type"].endswith("/already-invited")
    # the last free seat is bob's; cat's stays kept for cat
    assert bob.post(f"/v1/games/{gid}/join", {}).json()["seat"] != seat
    assert live.player("late").post(f"/v1/games/{gid}/join", {}).json()["type"].endswith("/game-not-open")
    joined = cat.post(f"/v1/games/{gid}/join", {})
    assert joined.json()["seat"] == seat and joined.json()["game"]["status"] == "active"
    events = [e["type"] for e in ann.get(f"/v1/games/{gid}/events").json()["events"]]
    assert "SeatReserved" in events  # what an `invited` notification reacts to


def test_an_invitation_is_refused_to_a_stranger_and_for_nobody(live: Live) -> None:
    gid, (ann, bob) = open_game(live, "corte", 2)
    stranger = live.player("stranger")
    assert stranger.post(f"/v1/games/{gid}/invitations", {"player_id": bob.id}).status_code == 403
    assert ann.post(f"/v1/games/{gid}/invitations", {"player_id": "00000000-0000-0000-0000-000000000000"}
                    ).status_code == 422
    assert ann.post(f"/v1/games/{gid}/invitations", {}).status_code == 422
    assert ann.post(f"/v1/games/{gid}/invitations", {"player_id": ann.id}).json()["type"].endswith(
        "/already-seated")


def test_an_invited_player_may_decline(live: Live) -> None:
    gid, (ann, bob) = open_game(live, "corte", 2)
    ann.post(f"/v1/games/{gid}/invitations", {"player_id": bob.id})
    r = bob.post(f"/v1/games/{gid}/leave")
    assert r.status_code == 200 and r.json()["seats"][1]["reserved_for"] is None
    assert gid not in {g["id"] for g in bob.get("/v1/me/games").json()["games"]}


def test_an_invitation_and_a_rematch_notify_the_invited_players(live: Live) -> None:
    gid, (ann, bob) = open_game(live, "corte", 2)
    ann.post(f"/v1/games/{gid}/invitations", {"player_id": bob.id})
    told = bob.get("/v1/me/notifications").json()["notifications"]
    assert [(n["kind"], n["game_id"], n["seats"]) for n in told] == [("invited", gid, [1])]
    assert bob.post(f"/v1/games/{gid}/join", {}).status_code == 200
    ann.post(f"/v1/games/{gid}/resign")
    new = bob.post(f"/v1/games/{gid}/rematch").json()["id"]
    kinds = [(n["kind"], n["game_id"]) for n in ann.get("/v1/me/notifications").json()["notifications"]]
    assert ("game_over", gid) in kinds and ("invited", new) in kinds
