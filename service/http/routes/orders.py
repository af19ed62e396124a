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
from marshmallow import INCLUDE, Schema, fields, validate

from domain import rules
from service.usecases import playing as commands
from service.http.requests import api, caller, idempotency_key, if_match, json_body, load, reply
from service.model.views import view
from service.model.problems import Problem

bp = Blueprint("orders", __name__)


class OrderIn(Schema):
    """A ``PlaceOrder`` without its ``type``; the ruleset checks the claim's fields."""

    class Meta:
        unknown = INCLUDE

    rank = fields.String(required=True, validate=validate.Length(min=1, max=2))
    claim = fields.String(required=True, validate=validate.Length(min=1, max=64))


class OrderOut(Schema):
    order_id = fields.Integer()
    version = fields.Integer()
    chain_head = fields.String()


class OrdersOut(Schema):
    orders = fields.Raw()  # the seat's live orders, as its view lists them
    version = fields.Integer()
    chain_head = fields.String()


_order_in, _order_out, _orders_out = OrderIn(), OrderOut(), OrdersOut()


def _with_orders(game_id: uuid.UUID) -> None:
    """404 unless the game's ruleset has standing orders (only the games with windows do)."""
    name = api().games.ruleset_of(game_id)
    if "PlaceOrder" not in rules.get(name).command_types:
        raise Problem("not-found", f"{name} has no standing orders (it has no reaction windows)")


def _send(game_id: uuid.UUID, player: str, command: dict[str, Any]) -> dict[str, Any]:
    return commands.run_command(api(), game_id, player, command, if_match(), idempotency_key(), request.path)


def _live_orders(game_id: uuid.UUID, player: str) -> tuple[list[dict[str, Any]], int, bytes]:
    """The caller's live orders, from its view; 403 for a caller with no seat."""
    cur = api().games.load(game_id)
    seat = cur.game.seat_of(player)
    if seat is None:
        raise Problem("forbidden", "you have no seat in this game, so no orders")
    table = view(cur.game, cur.version, cur.head, seat, api().timeouts)["table"]
    return ((table or {}).get("extension") or {}).get("orders", []), cur.version, cur.head


@bp.post("/v1/games/<uuid:game_id>/orders")
def place_order(game_id: uuid.UUID) -> ResponseReturnValue:
    who = caller()
    assert who is not None
    body = json_body()
    load(_order_in, body)
    if body.get("type", "PlaceOrder") != "PlaceOrder":
        raise Problem("validation", "an order's body has no other type", errors={"type": ["must be PlaceOrder"]})
    _with_orders(game_id)
    out = _send(game_id, who[0], {**body, "type": "PlaceOrder"})
    seat = out["view"]["seat"]
    placed = next(e["data"] for e in out["events"] if e["type"] == "OrderPlaced" and e["data"]["seat"] == seat)
    return reply(_order_out, {"order_id": placed["order_id"], "version": out["version"],
                              "chain_head": out["chain_head"]}, 201,
                 {"ETag": f'"{out["version"]}"', "Location": f"/v1/games/{game_id}/orders/{placed['order_id']}"})


@bp.get("/v1/games/<uuid:game_id>/orders")
def list_orders(game_id: uuid.UUID) -> ResponseReturnValue:
    who = caller()
    assert who is not None
    _with_orders(game_id)
    orders, version, head = _live_orders(game_id, who[0])
    return reply(_orders_out, {"orders": orders, "version": version, "chain_head": head.hex()}, 200,
                 {"ETag": f'"{version}"', "Cache-Control": "private, no-cache", "Vary": "Authorization"})


@bp.delete("/v1/games/<uuid:game_id>/orders/<int:order_id>")
def cancel_order(game_id: uuid.UUID, order_id: int) -> ResponseReturnValue:
    who = caller()
    assert who is not None
    _with_orders(game_id)
    try:
        out = _send(game_id, who[0], {"type": "CancelOrder", "order_id": order_id})
    except Problem as exc:
        if exc.extra.get("code") == "no_order":  # fired, cancelled, or never placed by this seat
            raise Problem("not-found", exc.detail) from exc
        raise
    return reply(_order_out, {"order_id": order_id, "version": out["version"], "chain_head": out["chain_head"]},
                 200, {"ETag": f'"{out["version"]}"'})
