"""An independent record of standing orders for the no-leak tests of the games with windows."""
from __future__ import annotations

from typing import Any

OTHER = object()  # what ``Orders.shows`` says of an event that is not an order's


class Orders:
    """Which standing orders each seat has live, from the true events; and what an order event
    may show a seat: all of it to its owner, nothing to others, and at the round's end only
    who had orders (written from the rules, sharing no code with the rulesets)."""

    PRIVATE = ("OrderPlaced", "OrderCancelled", "OrderFired")

    def __init__(self) -> None:
        self.live: dict[int, list[int]] = {}
        self.placed = 0

    def apply(self, e: Any) -> None:
        k = type(e).__name__
        if k == "RoundDealt":
            self.live = {}
        elif k == "OrderPlaced":
            self.live.setdefault(e.seat, []).append(e.order_id)
            self.placed += 1
        elif k in ("OrderCancelled", "OrderFired"):
            self.live[e.seat].remove(e.order_id)

    def live_ids(self, seat: int | None) -> list[int]:
        return [] if seat is None else self.live.get(seat, [])

    def shows(self, e: Any, seat: int | None, truth: dict[str, Any]) -> Any:
        """What ``redact`` must give ``seat`` of an order event (``truth``: its JSON form), or
        :data:`OTHER` for any other event."""
        k = type(e).__name__
        if k in self.PRIVATE:
            return truth if seat == e.seat else None
        if k == "OrdersRevealed":
            return {**truth, "orders": [o if o["seat"] == seat else {"order_id": o["order_id"], "seat": o["seat"]}
                                        for o in truth["orders"]]}
        return OTHER
