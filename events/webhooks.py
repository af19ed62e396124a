"""Webhooks: the projection a player's registrations write, the outbox, and the delivery log."""
from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from events.db import Database
from events.notifications import Notification


@dataclass(frozen=True, slots=True)
class Webhook:
    id: uuid.UUID
    player_id: uuid.UUID
    url: str
    events: list[str]
    enabled: bool
    failures: int
    disabled_reason: str | None
    created_at: datetime


@dataclass(frozen=True, slots=True)
class Due:
    """A claimed delivery: where to send which notification, and how many tries so far (this one included)."""

    delivery_id: uuid.UUID
    webhook_id: uuid.UUID
    url: str
    secret: bytes | None
    attempt: int
    player_id: uuid.UUID
    notification: Notification


_COLS = "webhook_id, player_id, url, events, enabled, failures, disabled_reason, created_at"


def add_effect(webhook_id: uuid.UUID, player_id: uuid.UUID, url: str, events: list[str], secret: bytes
               ) -> dict[str, Any]:
    """The registration's effect on the projection (the secret goes beside it, not in the log)."""
    return {"op": "webhook_add", "row": {"webhook_id": str(webhook_id), "player_id": str(player_id), "url": url,
                                         "events": events, "secret": secret.hex()}}


def remove_effect(webhook_id: uuid.UUID) -> dict[str, Any]:
    return {"op": "webhook_remove", "row": {"webhook_id": str(webhook_id)}}


def of_player(db: Database, player_id: uuid.UUID) -> list[Webhook]:
    with db.connection() as conn:
        rows = conn.execute(f"SELECT {_COLS} FROM webhooks WHERE player_id = %s AND NOT removed"
                            " ORDER BY created_at, webhook_id", (player_id,)).fetchall()
    return [Webhook(*r) for r in rows]


def get(db: Database, player_id: uuid.UUID, webhook_id: uuid.UUID) -> Webhook | None:
    with db.connection() as conn:
        row = conn.execute(f"SELECT {_COLS} FROM webhooks WHERE player_id = %s AND webhook_id = %s"
                           " AND NOT removed", (player_id, webhook_id)).fetchone()
    return None if row is None else Webhook(*row)


def deliveries(db: Database, webhook_id: uuid.UUID, limit: int) -> list[dict[str, Any]]:
    """The webhook's latest deliveries, newest first, each with its attempts."""
    with db.connection() as conn:
        rows = conn.execute(
            "SELECT d.delivery_id, d.seq, n.kind, d.status, d.attempts, d.last_status, d.last_error, d.created_at,"
            " d.finished_at, d.next_attempt_at,"
            " coalesce((SELECT jsonb_agg(jsonb_build_object('attempt', a.attempt,"
            "   'at', to_char(a.at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'), 'status', a.status,"
            "   'error', a.error, 'duration_ms', a.duration_ms) ORDER BY a.attempt)"
            "   FROM webhook_attempts a WHERE a.delivery_id = d.delivery_id), '[]'::jsonb)"
            " FROM webhook_deliveries d JOIN notifications n ON n.player_id = d.player_id AND n.seq = d.seq"
            " WHERE d.webhook_id = %s ORDER BY d.created_at DESC, d.seq DESC LIMIT %s", (webhook_id, limit)).fetchall()
    keys = ("delivery_id", "seq", "kind", "status", "attempts", "last_status", "last_error", "created_at",
            "finished_at", "next_attempt_at", "attempt_log")
    return [dict(zip(keys, r)) for r in rows]


def claim(db: Database, limit: int, lease_seconds: int) -> list[Due]:
    """Due deliveries, leased to the caller for ``lease_seconds`` (then due again if not settled)."""
    with db.connection() as conn:
        rows = conn.execute("SELECT * FROM fd_claim_deliveries(%s, %s)", (limit, lease_seconds)).fetchall()
    return [Due(r[0], r[1], r[2], None if r[3] is None else bytes(r[3]), r[4], r[5],
                Notification(r[6], r[7], r[8], r[9], list(r[10]), r[11], r[12])) for r in rows]


def settle(db: Database, delivery_id: uuid.UUID, attempt: int, status: int | None, error: str | None,
           duration_ms: int, delivered: bool, next_at: datetime | None, disable_after: int) -> str:
    """Record one attempt: 'delivered', 'retry', 'failed', 'disabled' (the webhook), or 'gone'."""
    with db.connection() as conn:
        row = conn.execute("SELECT fd_delivery_result(%s, %s, %s, %s, %s, %s, %s, %s)",
                           (delivery_id, attempt, status, error, duration_ms, delivered, next_at,
                            disable_after)).fetchone()
    return str(row[0])
