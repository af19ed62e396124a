"""``deadline_soon``: a notification to each awaited seat when little of its wait is left.

Sent by the deadline sweeper (service/usecases/sweep.py), once per seat and wait: the dedup key
names the game, the moment the wait began and the seat, so a repeated sweep adds nothing.
"""
from __future__ import annotations

from events import game_index, notifications
from events.notifications import Item
from service.model.game import iso, moment
from service.model.notifications import wake_key
from service.usecases.dependencies import Dependencies


def remind(deps: Dependencies, left: float, limit: int = 500) -> int:
    """Notify the awaited seats of every game near its deadline; returns how many were told."""
    if left <= 0:
        return 0
    now = deps.clock()
    rows = game_index.nearly_due(deps.db, now, left, limit)
    items = []
    for row in rows:
        players = {s["seat"]: s.get("player_id") for s in row.seats}
        assert row.deadline_since is not None
        soon = {d["seat"] for d in (row.deadline or {}).get("per_seat", [])
                if d["at"] is not None and not d["automatic"] and moment(d["at"]) > now}
        for seat in row.awaiting:
            player = players.get(seat)
            if player and seat in soon:
                key = f"deadline_soon:{row.id}:{iso(row.deadline_since)}:{seat}"
                items.append(Item(player, "deadline_soon", str(row.id), row.version, (seat,),
                                  {"ruleset": row.ruleset, "name": row.name, "kind": row.deadline_kind}, key))
    notifications.insert(deps.db, items)
    for player in {i.player_id for i in items}:
        deps.live.hint(wake_key(player), 0)
    return len(items)
