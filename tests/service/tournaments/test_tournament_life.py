"""A tournament's life around its rounds, on a live server and a real PostgreSQL: what a
player may not do (each a problem+json), its start at its time by the sweep, and rounds that
are formed once, and not lost, whatever crashes or races between the appends."""
from __future__ import annotations

import threading
import uuid
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest

from events.errors import StoreError
from facedown_client import Client
from facedown_client.errors import ProblemError
from service.usecases import tournaments
from service.usecases.sweep import sweep
from tests.service.tournaments.play import fill, open_tournament, play_round, players


def _refused(call: Any) -> tuple[int, str]:
    with pytest.raises(ProblemError) as caught:
        call()
    return caught.value.status, caught.value.slug


def _stream(live: Any, tid: str) -> list[Any]:
    return live.app.extensions["facedown"].store.read(uuid.UUID(tid))


def test_what_a_player_may_not_do_is_refused_with_a_problem(live: Any) -> None:
    clients = players(live.url, 5, "refused")
    creator, a, b, c, d = clients.values()
    t = open_tournament(creator, format="swiss", seats_per_table=2, rounds=2, max_players=3)
    path = f"/v1/tournaments/{t['id']}"
    assert _refused(lambda: a.start_tournament(t["id"])) == (403, "forbidden")
    assert _refused(lambda: creator.start_tournament(t["id"])) == (409, "too-few-players")
    assert _refused(lambda: a.request("POST", path + "/leave")) == (409, "not-in-tournament")
    a.join_tournament(t["id"])
    assert _refused(lambda: a.request("POST", path + "/join")) == (409, "already-joined")
    t = b.request("POST", path + "/join")  # the third of three: it starts, one player on a bye
    assert t["status"] == "running" and len(t["rounds"][0]["tables"]) == 1 and len(t["rounds"][0]["byes"]) == 1
    assert _refused(lambda: c.request("POST", path + "/join")) == (409, "tournament-not-open")
    assert _refused(lambda: a.request("POST", path + "/leave")) == (409, "tournament-not-open")
    assert _refused(lambda: creator.request("POST", path + "/start")) == (409, "tournament-not-open")
    assert _refused(lambda: d.request("GET", f"/v1/tournaments/{uuid.uuid4()}")) == (404, "not-found")
    body = {"name": "x", "ruleset": "cuatro-cartas", "format": "swiss", "seats_per_table": 2, "max_players": 4}
    assert _refused(lambda: d.request("POST", "/v1/tournaments", body)) == (422, "validation")  # no rounds
    assert _refused(lambda: d.request("POST", "/v1/tournaments", {**body, "rounds": 1, "ruleset": "chess"})
                    ) == (422, "validation")
    # before the start a player may leave, and the list shows it open
    other = open_tournament(c, format="round_robin", seats_per_table=2)
    d.join_tournament(other["id"])
    left = d.leave_tournament(other["id"])
    assert [p["id"] for p in left["players"]] == [p["id"] for p in other["players"]]
    listed = d.tournaments()
    assert {x["id"]: x["status"] for x in listed if x["id"] in (t["id"], other["id"])} == {
        t["id"]: "running", other["id"]: "open"}


def test_a_full_tournament_whose_start_failed_refuses_joins_and_the_sweep_starts_it(
        live: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    deps = live.app.extensions["facedown"]
    clients = players(live.url, 3, "full")
    creator, a, late = clients.values()
    t = open_tournament(creator, format="swiss", seats_per_table=2, rounds=1, max_players=2)

    def crash(*_: Any) -> Any:
        raise StoreError("the server went away")

    monkeypatch.setattr(tournaments, "start", crash)
    a.join_tournament(t["id"])  # the join that fills it, whose start does not happen
    monkeypatch.undo()
    assert creator.tournament(t["id"])["status"] == "open"
    assert _refused(lambda: late.join_tournament(t["id"])) == (409, "tournament-full")
    sweep(deps)
    assert creator.tournament(t["id"])["status"] == "running"


def test_a_retried_creation_returns_the_tournament_the_first_one_made(live: Any) -> None:
    [ann] = players(live.url, 1, "retry").values()
    body = {"name": "once", "ruleset": "pedro", "format": "swiss", "seats_per_table": 2, "rounds": 1,
            "max_players": 4}
    first = ann.request("POST", "/v1/tournaments", body, headers={"Idempotency-Key": "k-1"})
    again = ann.request("POST", "/v1/tournaments", body, headers={"Idempotency-Key": "k-1"})
    assert again["id"] == first["id"] and again["version"] == first["version"]
    other = ann.request("POST", "/v1/tournaments", body, headers={"Idempotency-Key": "k-2"})
    assert other["id"] != first["id"]


def test_the_sweep_starts_a_tournament_at_its_time_and_cancels_one_with_too_few(live: Any) -> None:
    clients = players(live.url, 3, "timed")
    creator, a, lonely = clients.values()
    past = (datetime.now(timezone.utc) - timedelta(seconds=1)).isoformat().replace("+00:00", "Z")
    timed = open_tournament(creator, format="swiss", seats_per_table=2, rounds=1, starts_at=past)
    a.request("POST", f"/v1/tournaments/{timed['id']}/join")
    alone = open_tournament(lonely, format="swiss", seats_per_table=2, rounds=1, starts_at=past)
    sweep(live.app.extensions["facedown"])
    assert creator.request("GET", f"/v1/tournaments/{timed['id']}")["status"] == "running"
    assert lonely.request("GET", f"/v1/tournaments/{alone['id']}")["status"] == "cancelled"


def test_a_round_is_formed_once_and_never_lost_whatever_crashes_between_the_appends(
        live: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    deps = live.app.extensions["facedown"]
    clients = players(live.url, 4, "crash")
    creator = next(iter(clients.values()))
    t = fill(open_tournament(creator, format="swiss", seats_per_table=2, rounds=3, max_players=4), clients)
    # the server dies right after the append that ends the round's last table
    monkeypatch.setattr(deps.games, "on_table_over", None)
    play_round(t, clients)
    t = creator.tournament(t["id"])
    assert [r["status"] for r in t["rounds"]] == ["playing"]
    # four workers see the round over at once: one of them forms the next round
    tid = uuid.UUID(t["id"])
    threads = [threading.Thread(target=tournaments.progress, args=(deps, tid)) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    paired = [e.data["n"] for e in _stream(live, t["id"]) if e.type == "RoundPaired"]
    assert paired == [1, 2]
    t = creator.tournament(t["id"])
    for table in t["rounds"][1]["tables"]:
        assert creator.request("GET", f"/v1/games/{table['game_id']}")["status"] == "active"
    monkeypatch.setattr(deps.games, "on_table_over", lambda game: tournaments.table_over(deps, game))

    # now it dies between the round's append and its tables: the sweep deals them, once
    def crash(*_: Any) -> int:
        raise StoreError("the server went away")

    monkeypatch.setattr(tournaments, "_open_table", crash)
    play_round(t, clients, seed=2)
    t = creator.tournament(t["id"])
    assert [r["status"] for r in t["rounds"]] == ["over", "over", "playing"]
    missing = t["rounds"][2]["tables"][0]["game_id"]
    assert deps.store.head(uuid.UUID(missing)) is None
    monkeypatch.undo()
    sweep(deps)
    sweep(deps)
    seated = t["rounds"][2]["tables"][0]["players"]
    game = clients[seated[0]].request("GET", f"/v1/games/{missing}")
    assert game["status"] == "active" and [s["player_id"] for s in game["seats"]] == seated
    news = clients[seated[0]].request("GET", "/v1/me/notifications", params={"after": 0, "wait": 0})
    assert [n["data"]["round"] for n in news["notifications"] if n["kind"] == "tournament_round"] == [1, 2, 3]
    play_round(t, clients, seed=3)
    done = creator.tournament(t["id"])
    assert done["status"] == "finished"
    sweep(deps)
    tournaments.progress(deps, tid)
    assert creator.tournament(t["id"])["version"] == done["version"]
    assert [e.data["n"] for e in _stream(live, t["id"]) if e.type == "RoundPaired"] == [1, 2, 3]


def test_a_client_sees_its_tables_tournament(live: Any) -> None:
    clients = players(live.url, 2, "link")
    creator, other = clients.values()
    t = fill(open_tournament(creator, format="round_robin", seats_per_table=2, max_players=2), clients)
    gid = t["rounds"][0]["tables"][0]["game_id"]
    view = Client(live.url, creator.token).request("GET", f"/v1/games/{gid}/view")
    assert view["tournament"] == {"id": t["id"], "round": 1, "table": 0, "board_commitment": None}
    assert other.request("GET", f"/v1/games/{gid}")["tournament"]["id"] == t["id"]
