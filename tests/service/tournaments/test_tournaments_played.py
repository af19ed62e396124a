"""Tournaments played to their end by bots through the API, on a live server and a real
PostgreSQL (every answer checked against openapi.yaml): duplicate Swiss tournaments and round
robins of eight players at two and at four seats; pairings, standings and boards checked
against what the test recomputes from the games themselves."""
from __future__ import annotations

import hashlib
from collections import Counter
from typing import Any

import pytest
import requests

from domain.tournaments import round_robin_rounds
from facedown_client import Client
from facedown_client.errors import ProblemError
from service.audit.verify import verify_export
from tests.service.tournaments.play import (expected_points, fill, open_tournament, play_round, players,
                                            seated_once)


def _problem(call: Any) -> ProblemError:
    with pytest.raises(ProblemError) as caught:
        call()
    return caught.value


def _deals(audit: dict[str, Any]) -> list[Any]:
    """The shuffled orders of a game's deals, in order, from its audit."""
    return [e["data"]["order"] for e in audit["events"] if e["type"] in ("RoundDealt", "StockReshuffled")]


def _another_seed_fails(audit: dict[str, Any]) -> None:
    """The offline verifier checks a table's deals against its board: a seed that does not open
    the board's commitment is refused, naming it; without the seed the deals wait for it."""
    for bad in ("00" * 32, None):
        tampered = {**audit, "board": {**audit["board"], "seed": bad}}
        tampered.pop("verification")
        report = verify_export(tampered)
        if bad is None:  # no seed: nothing to deal with, the deals are not checked
            assert report.status["deals"].startswith("skipped")
        else:
            assert not report.ok and [f.value for f in report.failures][:1] == ["board.seed"]


def _sealed(live_url: str, t: dict[str, Any], clients: dict[str, Client]) -> None:
    """While the round is played, a table of its board is its seats' alone: not another
    player's, not a spectator's, and its audit nobody's (the same problem for each)."""
    tables = t["rounds"][-1]["tables"]
    gid, own = tables[0]["game_id"], clients[tables[0]["players"][0]]
    other = clients[tables[1]["players"][0]]
    for path in ("", "/view", "/events?wait=0", "/audit", "/chat"):
        refused = _problem(lambda: other.request("GET", f"/v1/games/{gid}{path}"))
        assert (refused.status, refused.slug) == (403, "board-in-play"), path
        anonymous = requests.get(f"{live_url}/v1/games/{gid}{path}", timeout=10)
        assert anonymous.status_code == 403 and anonymous.json()["type"] == "/problems/board-in-play", path
    assert own.request("GET", f"/v1/games/{gid}/view")["seat"] == 0
    assert _problem(lambda: own.request("GET", f"/v1/games/{gid}/audit")).slug == "board-in-play"
    listed = requests.get(f"{live_url}/v1/games", timeout=10).json()["games"]
    assert gid not in {g["id"] for g in listed}


def _told(clients: dict[str, Client], t: dict[str, Any]) -> None:
    """Each seated player heard ``tournament_round`` for their table of the current round."""
    r = t["rounds"][-1]
    for table in r["tables"]:
        for p in table["players"]:
            news = clients[p].request("GET", "/v1/me/notifications", params={"after": 0, "wait": 0})
            mine = [n for n in news["notifications"] if n["kind"] == "tournament_round"
                    and n["data"]["round"] == r["n"]]
            assert [n["game_id"] for n in mine] == [table["game_id"]]
            assert mine[0]["data"]["tournament_id"] == t["id"]


@pytest.mark.parametrize(("seats", "rounds"), [(2, 3), (4, 2)])
def test_a_duplicate_swiss_of_eight_is_played_to_its_end(live: Any, seats: int, rounds: int) -> None:
    clients = players(live.url, 8, f"swiss{seats}")
    creator = next(iter(clients.values()))
    t = fill(open_tournament(creator, format="swiss", seats_per_table=seats, rounds=rounds, duplicate=True),
             clients)
    assert t["status"] == "running" and t["round_count"] == rounds
    expected: Counter[str] = Counter()
    while t["status"] == "running":
        r = t["rounds"][-1]
        seated_once(r, set(clients))
        board = t["boards"][-1]
        assert board["n"] == r["n"] and board["seed"] is None and len(board["commitment"]) == 64
        _told(clients, t)
        _sealed(live.url, t, clients)
        play_round(t, clients, seed=r["n"])
        t = creator.tournament(t["id"])
        seed = t["boards"][r["n"] - 1]["seed"]
        assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == board["commitment"]
        # the round over, anyone reads its tables: each dealt the same cards seat for seat,
        # every audit checking its deals against the revealed seed
        audits = [requests.get(f"{live.url}/v1/games/{x['game_id']}/audit", timeout=30).json()
                  for x in r["tables"]]
        assert all(a["verification"]["ok"] and a["board"]["seed"] == seed for a in audits)
        assert all(_deals(a) == _deals(audits[0]) for a in audits) and _deals(audits[0])
        assert all(a["verification"]["checks"]["deals"] == "ok" for a in audits)
        _another_seed_fails(audits[0])
        games = [requests.get(f"{live.url}/v1/games/{x['game_id']}", timeout=10).json() for x in r["tables"]]
        assert all(g["tournament"] == {"id": t["id"], "round": r["n"], "table": i, "board_commitment":
                                       board["commitment"]} for i, g in enumerate(games))
        expected += expected_points(games, duplicate=True)
    assert t["status"] == "finished" and len(t["rounds"]) == rounds
    assert {s["player"]: s["points"] for s in t["standings"]} == {p: expected[p] for p in clients}
    assert [s["points"] for s in t["standings"]] == sorted((s["points"] for s in t["standings"]), reverse=True)


@pytest.mark.parametrize("seats", [2, 4])
def test_a_round_robin_of_eight_is_played_to_its_end(live: Any, seats: int) -> None:
    clients = players(live.url, 8, f"robin{seats}")
    creator = next(iter(clients.values()))
    t = fill(open_tournament(creator, format="round_robin", seats_per_table=seats), clients)
    assert t["status"] == "running" and t["boards"] == []
    expected: Counter[str] = Counter()
    met: Counter[frozenset[str]] = Counter()
    while t["status"] == "running":
        r = t["rounds"][-1]
        seated_once(r, set(clients))
        _told(clients, t)
        met.update(frozenset((a, b)) for x in r["tables"] for a in x["players"] for b in x["players"] if a < b)
        play_round(t, clients, seed=r["n"])
        t = creator.tournament(t["id"])
        games = [creator.request("GET", f"/v1/games/{x['game_id']}") for x in r["tables"]]
        assert all(g["status"] == "finished" and g["tournament"]["board_commitment"] is None for g in games)
        expected += expected_points(games, duplicate=False)
    assert len(t["rounds"]) == t["round_count"] == round_robin_rounds(8, seats)
    assert len(met) == 8 * 7 // 2 and (seats > 2 or set(met.values()) == {1})  # every pair met (once at two)
    assert {s["player"]: s["points"] for s in t["standings"]} == {p: expected[p] for p in clients}
