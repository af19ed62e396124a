"""The e-mail and push outboxes (``sql/017_reach_outboxes.sql``): rows written in the same
transaction as what causes them, claimed by one sending process, settled after the send.

* A notification of a kind a channel follows writes its rows itself (``fd_insert_notifications``,
  in the append's transaction): an e-mail row if the player has a verified address, a push row
  per subscription. Other rows (a sign-in code's e-mail, the reminders and digests the sender
  schedules) are enqueued (:func:`enqueue_mail`, :func:`enqueue_push`) or written by the
  settling of the row that caused them (``then``).
* :func:`claim_mail` / :func:`claim_push` lease due rows (each claim numbered); the sender
  decides (send, put off, skip) and :func:`settle_mail` / :func:`settle_push` record it,
  naming the claim: a settling by a claim that is not the row's latest changes nothing
  ('stale'). A sender killed between its send and its settling leaves a row that is due again
  once the lease runs out: at least once, with the same Message-ID or Topic.
* :class:`SenderLock` lets one process send at a time.
"""
from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from psycopg.types.json import Jsonb

from events.db import Database, connect, translated
from events.errors import StoreError
from events.notifications import Notification

#: how a claimed e-mail row may be settled (push rows also 'gone': the subscription is)
DONE = ("sent", "skipped", "failed")
AGAIN = ("retry", "postpone")  # due again at a time: after a failure / put off
MAIL_LOCK = 0x66646D6C  # "fdml": one process sends e-mail at a time
PUSH_LOCK = 0x66647073  # "fdps": one process sends pushes at a time


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def _str(value: Any) -> str | None:
    return None if value is None else str(value)


@dataclass(frozen=True, slots=True)
class MailItem:
    """An e-mail to enqueue. ``to_address`` None: the player's verified address when it is sent.
    ``dedup_key``: at most one row per player and key (a reminder, a digest). ``due_at`` None:
    at once. ``secret``: what it carries that is kept nowhere else in the clear (a token, a
    code), readable only by the claim and gone once the row is settled."""

    player_id: uuid.UUID
    kind: str
    args: dict[str, Any] = field(default_factory=dict)
    mail_id: uuid.UUID | None = None
    seq: int | None = None
    game_id: uuid.UUID | None = None
    to_address: str | None = None
    dedup_key: str | None = None
    due_at: datetime | None = None
    secret: str | None = None

    def json(self) -> dict[str, Any]:
        return {"player_id": str(self.player_id), "mail_id": _str(self.mail_id), "kind": self.kind,
                "seq": self.seq, "game_id": _str(self.game_id), "to_address": self.to_address, "args": self.args,
                "dedup_key": self.dedup_key, "due_at": _iso(self.due_at), "secret": self.secret}


@dataclass(frozen=True, slots=True)
class PushItem:
    """A push to enqueue, to one subscription (fields as :class:`MailItem`'s)."""

    player_id: uuid.UUID
    subscription_id: uuid.UUID
    kind: str
    args: dict[str, Any] = field(default_factory=dict)
    push_id: uuid.UUID | None = None
    seq: int | None = None
    game_id: uuid.UUID | None = None
    dedup_key: str | None = None
    due_at: datetime | None = None

    def json(self) -> dict[str, Any]:
        return {"player_id": str(self.player_id), "subscription_id": str(self.subscription_id),
                "push_id": _str(self.push_id), "kind": self.kind, "seq": self.seq, "game_id": _str(self.game_id),
                "args": self.args, "dedup_key": self.dedup_key, "due_at": _iso(self.due_at)}


@dataclass(frozen=True, slots=True)
class ClaimedMail:
    """A claimed e-mail row: ``claim`` numbers this claim (settle with it), ``failures`` the
    tries that failed for a while so far; ``address`` where it goes (None: the player has no
    verified address now); ``notification`` the one that caused it, if one did."""

    player_id: uuid.UUID
    mail_id: uuid.UUID
    claim: int
    failures: int
    kind: str
    game_id: uuid.UUID | None
    address: str | None
    args: dict[str, Any]
    secret: str | None
    unsubscribe: uuid.UUID
    created_at: datetime
    notification: Notification | None


@dataclass(frozen=True, slots=True)
class ClaimedPush:
    """A claimed push row, with its subscription's endpoint and keys (``auth`` the secret)."""

    player_id: uuid.UUID
    push_id: uuid.UUID
    claim: int
    failures: int
    subscription_id: uuid.UUID
    endpoint: str
    p256dh: str
    auth: bytes
    kind: str
    game_id: uuid.UUID | None
    args: dict[str, Any]
    created_at: datetime
    notification: Notification | None


def _notification(seq: int | None, kind: str | None, game_id: uuid.UUID | None, version: int | None,
                  seats: list[int] | None, data: dict[str, Any] | None, at: datetime) -> Notification | None:
    if seq is None or kind is None:
        return None
    return Notification(seq, kind, game_id, version, list(seats or []), data or {}, at)


def enqueue_mail(db: Database, items: Sequence[MailItem]) -> int:
    """Write these e-mail rows (one transaction); returns how many were new (a dedup key the
    player already has is left out)."""
    if not items:
        return 0
    with db.connection() as conn:
        row = conn.execute("SELECT fd_mail_enqueue(%s)", (Jsonb([i.json() for i in items]),)).fetchone()
    return int(row[0]) if row else 0


def enqueue_push(db: Database, items: Sequence[PushItem]) -> int:
    if not items:
        return 0
    with db.connection() as conn:
        row = conn.execute("SELECT fd_push_enqueue(%s)", (Jsonb([i.json() for i in items]),)).fetchone()
    return int(row[0]) if row else 0


def claim_mail(db: Database, limit: int, lease_seconds: int, now: datetime) -> list[ClaimedMail]:
    """Up to ``limit`` due e-mail rows, the earliest due first, leased until ``now`` + the lease."""
    with db.connection() as conn:
        rows = conn.execute("SELECT * FROM fd_mail_claim(%s, %s, %s)", (limit, lease_seconds, now)).fetchall()
    return [ClaimedMail(r[0], r[1], r[2], r[3], r[4], r[6], r[7], r[8], r[9], r[10], r[11],
                        _notification(r[5], r[12], r[6], r[13], r[14], r[15], r[11])) for r in rows]


def claim_push(db: Database, limit: int, lease_seconds: int, now: datetime) -> list[ClaimedPush]:
    """As :func:`claim_mail`; rows whose subscription is gone are skipped, not returned."""
    with db.connection() as conn:
        rows = conn.execute("SELECT * FROM fd_push_claim(%s, %s, %s)", (limit, lease_seconds, now)).fetchall()
    return [ClaimedPush(r[0], r[1], r[2], r[3], r[4], r[5], r[6], bytes(r[7]), r[8], r[10], r[11], r[12],
                        _notification(r[9], r[13], r[10], r[14], r[15], r[16], r[12])) for r in rows]


def _settling(outcome: str, next_at: datetime | None, done: Sequence[str]) -> None:
    if outcome not in (*done, *AGAIN):
        raise ValueError(f"an outbox row is settled as one of {(*done, *AGAIN)}, not {outcome!r}")
    if (outcome in AGAIN) != (next_at is not None):
        raise ValueError(f"{outcome!r} {'needs' if outcome in AGAIN else 'takes no'} next_at")


def settle_mail(db: Database, mail: ClaimedMail, outcome: str, now: datetime, *, error: str | None = None,
                next_at: datetime | None = None, then: Sequence[MailItem] = ()) -> str:
    """Record what became of a claimed e-mail: 'sent', 'skipped', 'failed' (done), 'retry'
    (failed for a while) or 'postpone' (not now), the last two due again at ``next_at``;
    ``then``: rows it causes, written in the same transaction. Returns the row's status
    ('pending' when due again) or 'stale' (a later claim holds the row: nothing changed)."""
    _settling(outcome, next_at, DONE)
    with db.connection() as conn:
        row = conn.execute("SELECT fd_mail_settle(%s, %s, %s, %s, %s, %s, %s, %s)",
                           (mail.player_id, mail.mail_id, mail.claim, outcome, error, next_at, now,
                            Jsonb([i.json() for i in then]))).fetchone()
    assert row is not None
    return str(row[0])


def settle_push(db: Database, push: ClaimedPush, outcome: str, now: datetime, *, status: int | None = None,
                error: str | None = None, next_at: datetime | None = None, then: Sequence[PushItem] = ()) -> str:
    """As :func:`settle_mail`, with the push service's HTTP ``status``, and 'gone' (404 or
    410: the subscription is removed and its other pending pushes skipped)."""
    _settling(outcome, next_at, (*DONE, "gone"))
    with db.connection() as conn:
        row = conn.execute("SELECT fd_push_settle(%s, %s, %s, %s, %s, %s, %s, %s, %s)",
                           (push.player_id, push.push_id, push.claim, outcome, status, error, next_at, now,
                            Jsonb([i.json() for i in then]))).fetchone()
    assert row is not None
    return str(row[0])


def unsubscribe_target(db: Database, token: uuid.UUID) -> tuple[uuid.UUID, str] | None:
    """(player, kind of e-mail) of the e-mail whose List-Unsubscribe link carries ``token``."""
    with db.connection() as conn:
        row = conn.execute("SELECT player_id, kind FROM mail_outbox WHERE unsubscribe = %s", (token,)).fetchone()
    return None if row is None else (row[0], row[1])


def purge(db: Database, before: datetime) -> int:
    """Forget settled rows finished before ``before`` (their unsubscribe links with them) and
    verification tokens used or expired before it; how many rows went."""
    with db.connection() as conn:
        row = conn.execute("SELECT fd_reach_purge(%s)", (before,)).fetchone()
    return int(row[0]) if row else 0


@dataclass(frozen=True, slots=True)
class Row:
    """An outbox row as stored, for its owner's eyes and for tests."""

    id: uuid.UUID
    kind: str
    status: str
    due_at: datetime | None  # None: at once
    claims: int
    failures: int
    game_id: uuid.UUID | None
    seq: int | None
    args: dict[str, Any]
    dedup_key: str | None
    last_error: str | None
    subscription_id: uuid.UUID | None = None


def mail_rows(db: Database, player_id: uuid.UUID) -> list[Row]:
    """The player's e-mail rows, the oldest first."""
    with db.connection() as conn:
        rows = conn.execute("SELECT mail_id, kind, status, nullif(due_at, '-infinity'), claims, failures, game_id, seq, args, dedup_key,"
                            " last_error FROM mail_outbox WHERE player_id = %s ORDER BY created_at, seq, mail_id",
                            (player_id,)).fetchall()
    return [Row(*r) for r in rows]


def push_rows(db: Database, player_id: uuid.UUID) -> list[Row]:
    with db.connection() as conn:
        rows = conn.execute("SELECT push_id, kind, status, nullif(due_at, '-infinity'), claims, failures, game_id, seq, args, dedup_key,"
                            " last_error, subscription_id FROM push_outbox WHERE player_id = %s"
                            " ORDER BY created_at, seq, push_id", (player_id,)).fetchall()
    return [Row(*r) for r in rows]


class SenderLock:
    """A session advisory lock on a connection of its own: the process holding it is the one
    that sends (``key``: :data:`MAIL_LOCK` or :data:`PUSH_LOCK`). A process that dies lets it
    go with its connection, and another takes over."""

    def __init__(self, url: str, key: int) -> None:
        self.url, self.key = url, key
        self._conn: Any = None

    def acquire(self) -> bool:
        """Whether this process holds the lock now (tried once, never waits)."""
        if self._conn is not None:
            return self.held()
        conn = connect(self.url)
        with translated():
            got = conn.execute("SELECT pg_try_advisory_lock(%s)", (self.key,)).fetchone()
        if got and got[0]:
            self._conn = conn
            return True
        conn.close()
        return False

    def held(self) -> bool:
        """Whether the lock's session is still alive (if not, the lock is let go)."""
        if self._conn is None:
            return False
        try:
            with translated():
                self._conn.execute("SELECT 1")
            return True
        except StoreError:
            self.release()
            return False

    def release(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            try:
                conn.close()  # the session's end lets the lock go
            except Exception:  # noqa: BLE001 - it is being dropped anyway
                pass
