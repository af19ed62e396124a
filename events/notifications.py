"""Each player's notifications: read in order, and the effect that writes them with an append."""
from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from psycopg.types.json import Jsonb

from events.db import Database


@dataclass(frozen=True, slots=True)
class Item:
    """A notification to write: for whom, what kind, about which game and version."""

    player_id: str
    kind: str
    game_id: str | None = None
    version: int | None = None
    seats: tuple[int, ...] = ()
    data: dict[str, Any] | None = None
    dedup_key: str | None = None

    def json(self) -> dict[str, Any]:
        return {"player_id": self.player_id, "kind": self.kind, "game_id": self.game_id, "version": self.version,
                "seats": list(self.seats), "data": self.data or {}, "dedup_key": self.dedup_key}


@dataclass(frozen=True, slots=True)
class Notification:
    seq: int
    kind: str
    game_id: uuid.UUID | None
    version: int | None
    seats: list[int]
    data: dict[str, Any]
    created_at: datetime


def effect(items: Sequence[Item]) -> dict[str, Any]:
    """The notifications as an effect of :meth:`EventStore.append` (numbered in its transaction)."""
    return {"op": "notify", "items": [i.json() for i in items]}


def insert(db: Database, items: Sequence[Item]) -> None:
    """Notifications that no append causes (a deadline drawing near); a repeated dedup key is skipped."""
    if items:
        with db.connection() as conn:
            conn.execute("SELECT fd_notify(%s)", (Jsonb([i.json() for i in items]),))


def after(db: Database, player_id: uuid.UUID, seq: int, limit: int) -> list[Notification]:
    """The player's notifications numbered above ``seq``, in order."""
    with db.connection() as conn:
        rows = conn.execute(
            "SELECT seq, kind, game_id, version, seats, data, created_at FROM notifications"
            " WHERE player_id = %s AND seq > %s ORDER BY seq LIMIT %s", (player_id, seq, limit)).fetchall()
    return [Notification(r[0], r[1], r[2], r[3], list(r[4]), r[5], r[6]) for r in rows]


def head(db: Database, player_id: uuid.UUID) -> int:
    """The number of the player's latest notification (0: none yet)."""
    with db.connection() as conn:
        row = conn.execute("SELECT seq FROM notification_heads WHERE player_id = %s", (player_id,)).fetchone()
    return 0 if row is None else int(row[0])
