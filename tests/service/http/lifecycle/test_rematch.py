"""Rematch: after a game ends any of its players opens the next one, with the same ruleset,
options, time control, visibility and players (all invited); both games link to each other."""
from __future__ import annotations

from tests.service.helpers import Live
from tests.service.http.lifecycle.clocked import HOUR, started


def test_a_rematch_links_both_games_and_invites_the_same_players(live: Live) -> None:
    options = {"target_score": 50}
    gid, (ann, bob, cat) = started(live, "corte", seats=3, options=options, visibility="unlisted",
                                   time_control={"turn_seconds": 5 * HOUR})
    early = bob.post(f"/v1/games/{gid}/rematch")
    assert early.status_code == 409 and early.json()["type"].endswith("/game-not-over")
    ann.post(f"/v1/games/{gid}/resign")
    cat.post(f"/v1/games/{gid}/resign")
    old = bob.get(f"/v1/games/{gid}").json()
    assert old["status"] == "finished"
    r = bob.post(f"/v1/games/{gid}/rematch")
    assert r.status_code == 201, r.text
    new = r.json()
    assert new["rematch_of"] == gid and bob.get(f"/v1/games/{gid}").json()["next_game"] == new["id"]
    assert (new["ruleset"], new["options"], new["time_control"], new["visibility"], new["status"]) == \
        (old["ruleset"], old["options"], old["time_control"], old["visibility"], "open")
    seats = new["seats"]
    assert [(s["player_id"] or s["reserved_for"]["player_id"]) for s in seats] == [s["player_id"] for s in old["seats"]]
    bob_seat = next(s["seat"] for s in old["seats"] if s["player_id"] == bob.id)
    assert seats[bob_seat]["player_id"] == bob.id and new["your_seat"] == bob_seat
    # asked again, by anyone of them: the same game
    assert ann.post(f"/v1/games/{gid}/rematch").json()["id"] == new["id"]
    listed = {g["id"]: g for g in ann.get("/v1/me/games").json()["games"]}
    assert listed[new["id"]]["invited_seat"] is not None and listed[gid]["next_game"] == new["id"]
    for p in (ann, cat):
        assert p.post(f"/v1/games/{new['id']}/join", {}).status_code == 200  # no invite code needed
    assert bob.get(f"/v1/games/{new['id']}").json()["status"] == "active"


def test_a_stranger_cannot_ask_for_a_rematch(live: Live) -> None:
    gid, (ann, bob) = started(live, "pedro")
    ann.post(f"/v1/games/{gid}/resign")
    assert live.player("x").post(f"/v1/games/{gid}/rematch").status_code == 403
