"""Standing snap orders over HTTP (Corte, 4 Cartas): thin routes onto the use cases.

``POST`` sends the ruleset's ``PlaceOrder`` and ``DELETE`` its ``CancelOrder`` through
:func:`service.usecases.playing.run_command` (so they are decided, stored and audited like any
command); ``GET`` reads the caller's own live orders from its view. Other seats' orders are
never shown here.
"""
from __future__ import annotations

import uuid
from typing import Any

from flask import Blueprint, request
from flask.typing import ResponseReturnValue

from service.http.requests import caller, deps, idempotency_key, if_match, json_body, load, reply
from service.http.schemas import games as s
from service.model.problems import Problem
from service.usecases import playing, reading

bp = Blueprint("orders", __name__)


_order_in, _order_out, _orders_out = s.OrderIn(), s.OrderOut(), s.OrdersOut()


def _send(game_id: uuid.UUID, player: str, command: dict[str, Any]) -> dict[str, Any]:
    # the answer names the order, not the view: none is built
    return playing.run_command(deps(), game_id, player, command, if_match(), idempotency_key(), request.path,
                               "none")


@bp.post("/v1/games/<uuid:game_id>/orders")
def place_order(game_id: uuid.UUID) -> ResponseReturnValue:
    who = caller()
    assert who is not None
    body = json_body()
    load(_order_in, body)
    if body.get("type", "PlaceOrder") != "PlaceOrder":
        raise Problem("validation", "an order's body has no other type", errors={"type": ["must be PlaceOrder"]})
    reading.with_orders(deps(), game_id)
    out = _send(game_id, who[0], {**body, "type": "PlaceOrder"})
    seat = out["seat"]
    placed = next(e["data"] for e in out["events"] if e["type"] == "OrderPlaced" and e["data"]["seat"] == seat)
    return reply(_order_out, {"order_id": placed["order_id"], "version": out["version"],
                              "chain_head": out["chain_head"], "checkpoint": out["checkpoint"]}, 201,
                 {"ETag": f'"{out["version"]}"', "Location": f"/v1/games/{game_id}/orders/{placed['order_id']}"})


@bp.get("/v1/games/<uuid:game_id>/orders")
def list_orders(game_id: uuid.UUID) -> ResponseReturnValue:
    who = caller()
    assert who is not None
    reading.with_orders(deps(), game_id)
    orders, version, head = reading.live_orders(deps(), game_id, who[0])
    return reply(_orders_out, {"orders": orders, "version": version, "chain_head": head.hex()}, 200,
                 {"ETag": f'"{version}"', "Cache-Control": "private, no-cache", "Vary": "Authorization"})


@bp.delete("/v1/games/<uuid:game_id>/orders/<int:order_id>")
def cancel_order(game_id: uuid.UUID, order_id: int) -> ResponseReturnValue:
    who = caller()
    assert who is not None
    reading.with_orders(deps(), game_id)
    try:
        out = _send(game_id, who[0], {"type": "CancelOrder", "order_id": order_id})
    except Problem as exc:
        if exc.extra.get("code") == "no_order":  # fired, cancelled, or never placed by this seat
            raise Problem("not-found", exc.detail) from exc
        raise
    return reply(_order_out, {"order_id": order_id, "version": out["version"], "chain_head": out["chain_head"],
                              "checkpoint": out["checkpoint"]}, 200, {"ETag": f'"{out["version"]}"'})
