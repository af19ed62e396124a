"""A player's inbox and notifications: what the account stream and its long-poll serve."""
from __future__ import annotations

import uuid
from typing import Any

from events import game_index, notifications
from service.model.notifications import notification_out
from service.usecases.dependencies import Dependencies

INBOX_LIMIT = 500



def inbox(deps: Dependencies, player: str, limit: int = INBOX_LIMIT) -> dict[str, Any]:
    """Every game that waits for the player (the ``limit`` nearest deadlines), nearest
    deadline first, and the number of the player's latest notification (a stream resumes
    after it)."""
    pid = uuid.UUID(player)
    seq = notifications.head(deps.db, pid)  # read first: nothing after it can be missed
    games = []
    for row in game_index.awaiting_player(deps.db, pid, limit):
        seat = next((x["seat"] for x in row.seats if x.get("player_id") == player), None)
        if seat is None or seat not in row.awaiting:
            continue
        deadline = None
        mine = next((d for d in (row.deadline or {}).get("per_seat", []) if d["seat"] == seat), None)
        if mine is not None and mine["at"] is not None:  # the seat's own, on the game's own clock
            deadline = {"kind": row.deadline_kind, "at": mine["at"]}
        games.append({"game_id": str(row.id), "ruleset": row.ruleset, "name": row.name, "seat": seat,
                      "version": row.version, "deadline": deadline})
    games.sort(key=lambda g: (g["deadline"] is None, g["deadline"]["at"] if g["deadline"] else ""))
    return {"games": games, "seq": seq}


def page(deps: Dependencies, player: str, after: int, limit: int) -> tuple[dict[str, Any], bool]:
    """The player's notifications after ``after``, and whether there were any."""
    items = notifications.after(deps.db, uuid.UUID(player), after, limit)
    out = [notification_out(n) for n in items]
    return {"notifications": out, "next_after": out[-1]["seq"] if out else after}, bool(out)
