"""The playable core over real HTTP: players, rulesets, create, join, view, command, events."""
from __future__ import annotations

import pytest
import requests

from tests.service.conftest import RULESETS
from tests.service.helpers import Live, acting, start_game


def test_a_player_registers_and_gets_a_token_shown_once(live: Live) -> None:
    r = requests.post(live.url + "/v1/players", json={"name": "ann"}, timeout=10)
    assert r.status_code == 201
    body = r.json()
    assert set(body) == {"id", "name", "token", "bot"} and len(body["token"]) >= 40 and body["bot"] is False


def test_every_present_ruleset_is_listed_with_its_options(live: Live) -> None:
    body = requests.get(live.url + "/v1/rulesets", timeout=10).json()
    names = {r["name"] for r in body["rulesets"]}
    assert set(RULESETS) <= names
    for r in body["rulesets"]:
        assert r["defaults"] and all("key" in o for o in r["options"])


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_game_starts_when_every_seat_is_filled_and_accepts_a_legal_command(live: Live, ruleset: str) -> None:
    gid, players = start_game(live, ruleset)
    summary = players[0].get(f"/v1/games/{gid}").json()
    assert summary["status"] == "active" and summary["secret"] is None
    assert [s["seat"] for s in summary["seats"]] == [0, 1, 2, 3]
    views = [p.get(f"/v1/games/{gid}/view").json() for p in players]
    assert [v["seat"] for v in views] == [0, 1, 2, 3]
    acting = next(v for v in views if v["legal_actions"])
    seat = acting["seat"]
    r = players[seat].post(f"/v1/games/{gid}/commands", acting["legal_actions"][0])
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["version"] > acting["version"] and body["view"]["version"] == body["version"]
    assert r.headers["ETag"] == f'"{body["version"]}"'
    page = players[(seat + 1) % 4].get(f"/v1/games/{gid}/events", params={"after": 0}).json()
    assert page["next_after"] == body["version"] and page["chain_head"] == body["chain_head"]
    assert page["events"][0]["type"] == "GameOpened"


def test_my_games_lists_the_games_awaiting_me_first(live: Live) -> None:
    ruleset = RULESETS[-1]
    gid, players = start_game(live, ruleset)
    waiting = players[0].get(f"/v1/games/{gid}/view").json()["awaiting"]
    for p in players:
        games = p.get("/v1/me/games").json()["games"]
        mine = next(g for g in games if g["id"] == gid)
        assert mine["your_turn"] == (mine["your_seat"] in waiting)


def test_the_game_index_follows_every_command(live: Live) -> None:
    """Commands update the index with a lighter statement than seating: it must still follow."""
    gid, players = start_game(live, RULESETS[0])
    for _ in range(6):
        p, v = acting(gid, players)
        r = p.post(f"/v1/games/{gid}/commands", v["legal_actions"][0])
        assert r.status_code == 200, r.text
        after = r.json()["view"]
        for q in players:
            mine = next(g for g in q.get("/v1/me/games").json()["games"] if g["id"] == gid)
            assert (mine["version"], mine["awaiting"], mine["status"]) == \
                (after["version"], after["awaiting"], after["status"])
            assert [s["player_id"] for s in mine["seats"]] == [s["player_id"] for s in after["seats"]]
        listed = next(g for g in live.player("x").get("/v1/games").json()["games"] if g["id"] == gid)
        assert listed["version"] == after["version"]


def test_view_etag_gives_304_when_nothing_changed(live: Live) -> None:
    gid, players = start_game(live, RULESETS[-1])
    r = players[0].get(f"/v1/games/{gid}/view")
    again = players[0].get(f"/v1/games/{gid}/view", headers={"If-None-Match": r.headers["ETag"]})
    assert again.status_code == 304 and again.content == b""
