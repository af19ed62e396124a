"""The tournaments' read model (sql/060_tournaments.sql): one row per tournament, written by
its stream's appends (the effect below); read by lists and by the sweep."""
from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from events.db import Database

#: the order of a list: open and running tournaments first, the newest first within each
_ORDER = ("CASE status WHEN 'running' THEN 0 WHEN 'open' THEN 1 ELSE 2 END, created_at DESC, stream_id")


def effect(version: int, listed: dict[str, Any]) -> dict[str, Any]:
    """The tournament's row, as an effect of its stream's append (``listed``: what lists show)."""
    row = {"version": version, "status": listed["status"], "name": listed["name"],
           "starts_at": listed["starts_at"], "created_at": listed["created_at"],
           "updated_at": listed["updated_at"], "listed": listed}
    return {"op": "tournament", "row": row}


def page(db: Database, status: str | None, limit: int) -> list[dict[str, Any]]:
    """Tournaments (of one ``status``, or all), open and running first."""
    where, params = ("WHERE status = %s", [status]) if status else ("", [])
    with db.connection() as conn:
        rows = conn.execute(f"SELECT listed FROM tournaments {where} ORDER BY {_ORDER} LIMIT %s",  # noqa: S608
                            (*params, limit)).fetchall()
    return [r[0] for r in rows]


def due(db: Database, now: datetime, limit: int = 100) -> list[tuple[uuid.UUID, bool]]:
    """Open tournaments whose start time has come, or that are full (the join that filled one
    starts it; this is for one whose start that join did not reach): (id, full)."""
    full = "(listed->>'player_count')::int >= (listed->>'max_players')::int"
    with db.connection() as conn:
        return [(r[0], r[1]) for r in conn.execute(
            f"SELECT stream_id, {full} FROM tournaments WHERE status = 'open' AND (starts_at <= %s OR {full})"
            " ORDER BY created_at LIMIT %s", (now, limit))]


def running(db: Database, limit: int = 500) -> list[uuid.UUID]:
    """Running tournaments, the least recently changed first (the sweep looks at their rounds)."""
    with db.connection() as conn:
        return [r[0] for r in conn.execute(
            "SELECT stream_id FROM tournaments WHERE status = 'running' ORDER BY updated_at LIMIT %s", (limit,))]
