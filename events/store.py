"""The event store: one hash-chained stream per game, appended in one round trip.

See ``sql/001_event_store.sql`` for the append function. The global feed reads by
the writing transaction's id (``xid8``) and only below the oldest transaction still
running (``pg_snapshot_xmin(pg_current_snapshot())``): a transaction that drew an
earlier id but commits later is still running while the reader passes, so the
reader stops short of it instead of skipping it. Positions such as a bigserial are
not commit-ordered and would skip it.
"""
from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from psycopg.types.json import Jsonb

from events.canonical import GENESIS, chain_hash, event_body
from events.db import Database
from events.errors import ConcurrencyError, IdempotencyConflict


@dataclass(frozen=True, slots=True)
class NewEvent:
    """An event to append: its stored type name, schema version, data and metadata."""

    type: str
    data: Mapping[str, Any]
    metadata: Mapping[str, Any] = field(default_factory=dict)
    schema_version: int = 1


@dataclass(frozen=True, slots=True)
class RecordedEvent:
    """An event as stored."""

    stream_id: uuid.UUID
    version: int
    type: str
    schema_version: int
    data: Any
    metadata: Any
    recorded_at: datetime
    prev_hash: bytes
    hash: bytes


@dataclass(frozen=True, slots=True)
class AppendResult:
    version: int
    head: bytes
    first_version: int
    last_version: int
    duplicate: bool = False


@dataclass(frozen=True, slots=True)
class Snapshot:
    version: int
    fingerprint: str
    state: bytes


@dataclass(frozen=True, slots=True)
class Loaded:
    """A stream's head, its usable snapshot (if any) and the events after it."""

    version: int
    head: bytes
    snapshot: Snapshot | None
    events: list[RecordedEvent]
    kind: str = "game"


@dataclass(frozen=True, slots=True, order=True)
class FeedCursor:
    """Position in the global feed: (transaction id, stream, version) of the last row read."""

    tx_id: int = 0
    stream_id: str = "00000000-0000-0000-0000-000000000000"
    version: int = 0


_COLUMNS = "stream_id, version, type, schema_version, data, metadata, recorded_at, prev_hash, hash"


# The stream row and its snapshot, with the events newer than the snapshot (if any)
# joined on: one row per newer event, or one row with NULL event columns.
_LOAD_SQL = (
    "SELECT s.version, s.head, sn.version, sn.fingerprint, sn.state, s.kind,"
    " e.stream_id, e.version, e.type, e.schema_version, e.data, e.metadata, e.recorded_at, e.prev_hash, e.hash"
    " FROM streams s"
    " LEFT JOIN snapshots sn ON sn.stream_id = s.stream_id AND sn.fingerprint = %s"
    " LEFT JOIN events e ON e.stream_id = s.stream_id AND e.version > coalesce(sn.version, 0)"
    "  AND e.version <= s.version"
    " WHERE s.stream_id = %s ORDER BY e.version"
)


# The same, for a caller that holds the stream up to a version: the events after it, and the
# snapshot only if it is more than max_gap versions newer than what the caller holds.
_LOAD_SINCE_SQL = (
    "SELECT s.version, s.head, sn.version, sn.fingerprint, sn.state, s.kind,"
    " e.stream_id, e.version, e.type, e.schema_version, e.data, e.metadata, e.recorded_at, e.prev_hash, e.hash"
    " FROM streams s"
    " LEFT JOIN snapshots sn ON sn.stream_id = s.stream_id AND sn.fingerprint = %s AND sn.version > %s + %s"
    " LEFT JOIN events e ON e.stream_id = s.stream_id AND e.version > coalesce(sn.version, %s)"
    "  AND e.version <= s.version"
    " WHERE s.stream_id = %s ORDER BY e.version"
)


def _recorded(row: Sequence[Any]) -> RecordedEvent:
    return RecordedEvent(row[0], row[1], row[2], row[3], row[4], row[5], row[6], bytes(row[7]), bytes(row[8]))


class EventStore:
    """Append, read, verify and follow event streams in PostgreSQL."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def append(
        self,
        stream_id: uuid.UUID,
        expected_version: int,
        events: Sequence[NewEvent],
        *,
        command_id: str | None = None,
        request_hash: str | None = None,
        snapshot: Snapshot | None = None,
        kind: str = "game",
        notify: bool = True,
        effects: Sequence[Mapping[str, Any]] = (),
    ) -> AppendResult:
        """Append ``events`` if the stream is at ``expected_version``, in one call.

        Raises :class:`ConcurrencyError` (nothing written) if it is not. A repeated
        ``command_id`` returns the first result with ``duplicate=True`` and appends
        nothing; with another ``request_hash`` it raises :class:`IdempotencyConflict`.
        ``notify=False`` leaves the wake-up hint to a :class:`events.notify.Notifier`.
        ``effects`` are the read-model writes of this append (the game index, the players'
        projection, notifications and their webhook outbox: see ``sql/007_append_effects.sql``),
        applied by the append function in the same transaction, only if the append happened.
        """
        payload = [
            {
                "type": e.type,
                "schema_version": e.schema_version,
                "data": e.data,
                "metadata": e.metadata,
                "canonical": event_body(e.type, e.schema_version, e.data, e.metadata),
            }
            for e in events
        ]
        params: list[Any] = [
            stream_id, kind, expected_version, command_id, request_hash, Jsonb(payload),
            snapshot.fingerprint if snapshot else None, snapshot.state if snapshot else None, notify,
            Jsonb(list(effects)) if effects else None,
        ]
        # one round trip and one commit for the log and its read models
        with self.db.connection() as conn:
            row = conn.execute("SELECT * FROM fd_append(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)", params).fetchone()
        assert row is not None
        status, version, head, first, last = row
        if status == "stale":
            raise ConcurrencyError(expected_version, max(version, 0))
        if status == "conflict":
            raise IdempotencyConflict(command_id or "")
        return AppendResult(version, bytes(head), first, last, duplicate=status == "duplicate")

    def head(self, stream_id: uuid.UUID) -> tuple[int, bytes] | None:
        """(version, head hash) of a stream, or ``None`` if it does not exist."""
        with self.db.connection() as conn:
            row = conn.execute("SELECT version, head FROM streams WHERE stream_id = %s", (stream_id,)).fetchone()
        return None if row is None else (row[0], bytes(row[1]))

    def read(self, stream_id: uuid.UUID, after: int = 0, limit: int | None = None,
             upto: int | None = None) -> list[RecordedEvent]:
        """Events of one stream with ``after < version <= upto``, in order."""
        sql = f"SELECT {_COLUMNS} FROM events WHERE stream_id = %s AND version > %s"
        params: list[Any] = [stream_id, after]
        if upto is not None:
            sql += " AND version <= %s"
            params.append(upto)
        sql += " ORDER BY version"
        if limit is not None:
            sql += " LIMIT %s"
            params.append(limit)
        with self.db.connection() as conn:
            return [_recorded(r) for r in conn.execute(sql, params)]

    def page(self, stream_id: uuid.UUID, after: int, limit: int) -> tuple[int, bytes, list[RecordedEvent]] | None:
        """(version, head, up to ``limit`` events after ``after``) in one query; ``None`` if
        there is no stream. What a reader that waits for news asks on every wake-up."""
        with self.db.connection() as conn:
            rows = conn.execute(
                "SELECT s.version, s.head, " + ", ".join(f"e.{c.strip()}" for c in _COLUMNS.split(",")) +
                # the stream id given twice, not only joined on: on a Citus cluster the planner
                # then routes the statement to the stream's one shard
                " FROM streams s LEFT JOIN LATERAL (SELECT * FROM events e WHERE e.stream_id = %s"
                "  AND e.version > %s AND e.version <= s.version ORDER BY e.version LIMIT %s) e ON true"
                " WHERE s.stream_id = %s ORDER BY e.version", (stream_id, after, limit, stream_id)).fetchall()
        if not rows:
            return None
        return rows[0][0], bytes(rows[0][1]), [_recorded(r[2:]) for r in rows if r[2] is not None]

    def load(self, stream_id: uuid.UUID, fingerprint: str | None = None, since: int | None = None,
             max_gap: int = 64) -> Loaded | None:
        """Head, the snapshot if it was made by ``fingerprint``'s code, and the newer events.

        One round trip whatever the stream's length: the stream row, the snapshot row,
        and only the events after the snapshot (none when it is at the head).

        ``since``: the caller already holds the stream folded up to that version (a cache).
        Then only the events after ``since`` come back, with no snapshot, unless a snapshot
        would spare folding more than ``max_gap`` of them. ``Loaded.snapshot is None``
        tells the caller to fold ``events`` onto its own copy.
        """
        with self.db.connection() as conn:
            if since is None:
                rows = conn.execute(_LOAD_SQL, (fingerprint, stream_id)).fetchall()
            else:
                rows = conn.execute(_LOAD_SINCE_SQL, (fingerprint, since, max_gap, since, stream_id)).fetchall()
        if not rows:
            return None
        version, head, snap_version, snap_fp, snap_state, kind = rows[0][:6]
        snap = Snapshot(snap_version, snap_fp, bytes(snap_state)) if snap_state is not None else None
        events = [_recorded(r[6:]) for r in rows if r[6] is not None]
        return Loaded(version, bytes(head), snap, events, kind)

    def verify(self, stream_id: uuid.UUID) -> int | None:
        """The first version whose stored hash does not match its content, or ``None``."""
        prev = GENESIS
        expected_version = 0
        for ev in self.read(stream_id):
            expected_version += 1
            body = event_body(ev.type, ev.schema_version, ev.data, ev.metadata)
            if ev.version != expected_version or ev.prev_hash != prev or chain_hash(prev, ev.version, body) != ev.hash:
                return ev.version
            prev = ev.hash
        info = self.head(stream_id)
        if info is not None and (info[0] != expected_version or info[1] != prev):
            return expected_version + 1 if info[0] > expected_version else max(info[0], 1)
        return None

    def feed(self, after: FeedCursor = FeedCursor(), limit: int = 1000) -> tuple[list[RecordedEvent], FeedCursor]:
        """Events of every stream after ``after``, in commit-safe order (see module doc)."""
        with self.db.connection() as conn:
            rows = conn.execute(
                f"SELECT {_COLUMNS}, tx_id::text FROM events"
                " WHERE tx_id < pg_snapshot_xmin(pg_current_snapshot())"
                " AND (tx_id, stream_id, version) > (%s::text::xid8, %s::uuid, %s)"
                " ORDER BY tx_id, stream_id, version LIMIT %s",
                (str(after.tx_id), after.stream_id, after.version, limit),
            ).fetchall()
        if not rows:
            return [], after
        last = rows[-1]
        return [_recorded(r) for r in rows], FeedCursor(int(last[9]), str(last[0]), last[1])


def apply_effect(db: Database, stream_id: uuid.UUID, effect: dict[str, Any]) -> None:
    """Apply one effect outside an append, as the owner: rebuilding a read model from the log
    (the service's own role may not; its effects ride on its appends)."""
    with db.connection() as conn:
        conn.execute("SELECT fd_apply(%s, %s)", (stream_id, Jsonb(effect)))
