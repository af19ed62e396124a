"""Standing orders over real HTTP: POST, GET and DELETE /v1/games/{id}/orders, and the same
commands through /commands; nothing of an order reaches another seat."""
from __future__ import annotations

from typing import Any

import pytest
import requests

from tests.service.helpers import Live, Player, start_game

PROBLEM = "application/problem+json"
SNAP_A = {"rank": "7", "claim": "SnapOwn", "slot": "A", "penalty_to": "new"}


def _problem(r: requests.Response, status: int, slug: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    assert r.headers["Content-Type"].startswith(PROBLEM)
    body = r.json()
    assert body["status"] == status and body["type"].endswith("/" + slug)
    return body


def _delete(p: Player, path: str, **kw: Any) -> requests.Response:
    return requests.delete(p.live.url + path, headers={**p.auth, **kw.pop("headers", {})}, timeout=20, **kw)


@pytest.fixture()
def corte(live: Live) -> tuple[str, list[Player]]:
    return start_game(live, "corte", seats=3)


def test_an_order_is_placed_listed_to_its_owner_only_and_cancelled(corte: tuple[str, list[Player]]) -> None:
    gid, (p0, p1, p2) = corte
    before = p1.get(f"/v1/games/{gid}/events", params={"after": 0}).json()
    r = p0.post(f"/v1/games/{gid}/orders", SNAP_A)
    assert r.status_code == 201, r.text
    body = r.json()
    assert set(body) == {"order_id", "version", "chain_head", "checkpoint"} and body["order_id"] == 1
    assert r.headers["ETag"] == f'"{body["version"]}"'
    assert r.headers["Location"] == f"/v1/games/{gid}/orders/1"
    mine = p0.get(f"/v1/games/{gid}/orders")
    assert mine.status_code == 200
    assert mine.json()["orders"] == [{"order_id": 1, **SNAP_A}] and mine.json()["version"] == body["version"]
    assert p1.get(f"/v1/games/{gid}/orders").json()["orders"] == []
    assert p1.get(f"/v1/games/{gid}/view").json()["table"]["extension"]["orders"] == []
    page = p1.get(f"/v1/games/{gid}/events", params={"after": before["next_after"]}).json()
    assert page["events"] == [] and page["version"] == body["version"]  # the version moved, nothing shown
    assert p0.get(f"/v1/games/{gid}/view").json()["table"]["extension"]["orders"] == [{"order_id": 1, **SNAP_A}]
    gone = _delete(p0, f"/v1/games/{gid}/orders/1")
    assert gone.status_code == 200 and gone.json()["order_id"] == 1 and gone.json()["version"] > body["version"]
    assert p0.get(f"/v1/games/{gid}/orders").json()["orders"] == []
    _problem(_delete(p0, f"/v1/games/{gid}/orders/1"), 404, "not-found")
    _problem(_delete(p2, f"/v1/games/{gid}/orders/1"), 404, "not-found")  # ids are per seat


def test_the_command_route_takes_the_same_commands(corte: tuple[str, list[Player]]) -> None:
    gid, (p0, p1, _) = corte
    r = p1.post(f"/v1/games/{gid}/commands", {"type": "PlaceOrder", **SNAP_A})
    assert r.status_code == 200, r.text
    assert [e["type"] for e in r.json()["events"]] == ["OrderPlaced"]
    assert {"type": "CancelOrder", "order_id": 1} in r.json()["view"]["legal_actions"]
    assert any(a["type"] == "PlaceOrder" for a in r.json()["view"]["legal_actions"])
    r = p1.post(f"/v1/games/{gid}/commands", {"type": "CancelOrder", "order_id": 1})
    assert r.status_code == 200 and [e["type"] for e in r.json()["events"]] == ["OrderCancelled"]
    assert p1.get(f"/v1/games/{gid}/orders").json()["orders"] == []


def test_an_idempotent_retry_of_an_order_returns_the_same_order(corte: tuple[str, list[Player]]) -> None:
    gid, (p0, _, _) = corte
    key = {"Idempotency-Key": "order-once"}
    first = p0.post(f"/v1/games/{gid}/orders", SNAP_A, headers=key)
    again = p0.post(f"/v1/games/{gid}/orders", SNAP_A, headers=key)
    assert first.status_code == again.status_code == 201 and first.json() == again.json()
    assert len(p0.get(f"/v1/games/{gid}/orders").json()["orders"]) == 1


@pytest.mark.parametrize("body, status, slug", [
    ({"claim": "SnapOwn", "slot": "A", "penalty_to": "new"}, 422, "validation"),
    ({**SNAP_A, "type": "SnapOwn"}, 422, "validation"),
    ({**SNAP_A, "rank": "Z"}, 422, "invalid-command"),
    ({**SNAP_A, "slot": "E7"}, 422, "invalid-command"),
    ({**SNAP_A, "bogus": 1}, 422, "invalid-command"),
    ({"rank": "7", "claim": "Match", "slot": "A"}, 422, "invalid-command"),
])
def test_a_malformed_order_is_refused_as_problem_json(corte: tuple[str, list[Player]], body: dict[str, Any],
                                                       status: int, slug: str) -> None:
    gid, (p0, _, _) = corte
    _problem(p0.post(f"/v1/games/{gid}/orders", body), status, slug)


def test_a_caller_without_a_seat_has_no_orders_and_an_anonymous_one_is_refused(
        live: Live, corte: tuple[str, list[Player]]) -> None:
    gid, _ = corte
    stranger = live.player("stranger")
    _problem(stranger.get(f"/v1/games/{gid}/orders"), 403, "forbidden")
    _problem(stranger.post(f"/v1/games/{gid}/orders", SNAP_A), 403, "forbidden")
    _problem(requests.get(f"{live.url}/v1/games/{gid}/orders", timeout=20), 401, "unauthorized")


def test_a_game_without_windows_has_no_orders(live: Live) -> None:
    gid, (p0, _) = start_game(live, "pedro", seats=2)
    _problem(p0.get(f"/v1/games/{gid}/orders"), 404, "not-found")
    _problem(p0.post(f"/v1/games/{gid}/orders", SNAP_A), 404, "not-found")
    _problem(_delete(p0, f"/v1/games/{gid}/orders/1"), 404, "not-found")


def test_orders_work_in_cuatro_cartas_too(live: Live) -> None:
    gid, (p0, p1) = start_game(live, "cuatro-cartas", seats=2)
    r = p1.post(f"/v1/games/{gid}/orders", {"rank": "K", "claim": "Match", "slot": "B"})
    assert r.status_code == 201, r.text
    assert p1.get(f"/v1/games/{gid}/orders").json()["orders"] == [
        {"order_id": 1, "rank": "K", "claim": "Match", "slot": "B"}]
    assert p0.get(f"/v1/games/{gid}/orders").json()["orders"] == []
