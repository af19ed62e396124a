"""The evolve steps of the standing-order events (:mod:`domain.orders`), for a ruleset's state
with a ``book``."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domain.orders import Order, OrderBook, OrderCancelled, OrderFired, OrderPlaced, OrdersRevealed, locations


def build_claim(data: Mapping[str, Any], claim_types: Mapping[str, type]) -> Any:
    """The claim of a stored ``OrderPlaced`` (window 0)."""
    return claim_types[data["type"]](window_id=0, **{k: v for k, v in data.items() if k != "type"})


def evolvers(claim_types: Mapping[str, type], set_book: Callable[..., Any]) -> dict[type, Callable[[Any, Any], Any]]:
    """The evolve steps of the order events for a state with a ``book`` (``set_book(s, book=...)``)."""

    # (seat, the claim's pairs and their types) -> (claim, target, watches, fields): a seat
    # places the same few orders again and again, and each is built from its JSON once
    built: dict[tuple[Any, ...], tuple[Any, Any, Any, Any]] = {}

    def placed(s: Any, e: OrderPlaced) -> Any:
        data = e.claim
        key = (e.seat, *data.items(), *map(type, data.values()))
        parts = built.get(key)
        if parts is None:
            claim = build_claim(data, claim_types)
            parts = (claim, *locations(e.seat, claim), tuple((k, v) for k, v in data.items() if k != "type"))
            if len(built) >= 1024:
                built.clear()
            built[key] = parts
        b = s.book
        seq = b.seq[:e.seat] + (e.order_id,) + b.seq[e.seat + 1:]
        order = Order(e.order_id, e.seat, e.rank, *parts)
        return set_book(s, book=OrderBook(b.live + (order,), b.done, seq))

    def cancelled(s: Any, e: OrderCancelled) -> Any:
        return set_book(s, book=s.book.settle(e.seat, e.order_id, e.reason))

    def fired(s: Any, e: OrderFired) -> Any:
        return set_book(s, book=s.book.settle(e.seat, e.order_id, "fired", e.window_id))

    return {OrderPlaced: placed, OrderCancelled: cancelled, OrderFired: fired, OrdersRevealed: lambda s, e: s}
