"""The transparency log's storage (sql/040): the server's log key, the chain hashes that are a
game's tree leaves, the server-wide log of finished games and the witnesses' cosignatures.

A finished game's leaf is written by the append that finishes it (:func:`finished_effect`,
an effect of ``fd_append``); the rest is read here, or written through the functions of 040.
"""
from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from events.db import Database


@dataclass(frozen=True, slots=True)
class LogEntry:
    """A leaf of the server-wide log: its index, the game and its final checkpoint."""

    index: int
    game_id: uuid.UUID
    note: str


def log_key(db: Database, name: str, public: bytes, private: bytes, now: datetime) -> tuple[str, bytes, bytes]:
    """The server's log key: the one kept, or this one if none is yet (the first caller's is
    kept, so processes starting at once agree). (name, public key, private key) as stored."""
    with db.connection() as conn:
        row = conn.execute("SELECT name, public_key, private_key FROM fd_log_key(%s, %s, %s, %s)",
                           (name, public, private, now)).fetchone()
    assert row is not None
    return str(row[0]), bytes(row[1]), bytes(row[2])


def chain_hashes(db: Database, stream_id: uuid.UUID, after: int, upto: int) -> list[bytes]:
    """The chain hashes of a stream's events with ``after < version <= upto``, in order."""
    with db.connection() as conn:
        rows = conn.execute("SELECT hash FROM events WHERE stream_id = %s AND version > %s AND version <= %s"
                            " ORDER BY version", (stream_id, after, upto)).fetchall()
    return [bytes(r[0]) for r in rows]


def finished_effect(game_id: uuid.UUID, note: str) -> dict[str, Any]:
    """The append's effect that makes a finished game's final checkpoint a leaf of the log."""
    return {"op": "log_finished", "row": {"game_id": str(game_id), "note": note}}


def leaf_hashes(db: Database, after: int) -> list[bytes]:
    """The leaf hashes of the server-wide log from index ``after`` on, in order. Leaves are
    numbered in commit order with no gap (sql/040), so what is visible is a prefix."""
    with db.connection() as conn:
        rows = conn.execute("SELECT leaf_hash FROM log_entries WHERE idx >= %s ORDER BY idx", (after,)).fetchall()
    return [bytes(r[0]) for r in rows]


def entry_of(db: Database, game_id: uuid.UUID) -> LogEntry | None:
    """A finished game's leaf, or ``None`` if the game is not in the log."""
    with db.connection() as conn:
        row = conn.execute("SELECT idx, game_id, note FROM log_entries WHERE game_id = %s", (game_id,)).fetchone()
    return None if row is None else LogEntry(row[0], row[1], row[2])


def cosign(db: Database, witness: str, size: int, line: str, signed_at: int, now: datetime) -> bool:
    """Keep a witness's cosignature of the log at ``size`` (unless it kept one of a larger tree)."""
    with db.connection() as conn:
        row = conn.execute("SELECT fd_log_cosign(%s, %s, %s, %s, %s)", (witness, size, line, signed_at, now)).fetchone()
    return bool(row and row[0])


def cosignatures(db: Database, size: int) -> list[str]:
    """The kept cosignature lines of the log at ``size``, by witness."""
    with db.connection() as conn:
        rows = conn.execute("SELECT line FROM log_cosignatures WHERE size = %s ORDER BY witness", (size,)).fetchall()
    return [str(r[0]) for r in rows]


def unlogged_finished(db: Database) -> list[uuid.UUID]:
    """Finished games that are not in the log (they finished before it existed), oldest first."""
    with db.connection() as conn:
        rows = conn.execute("SELECT g.stream_id FROM game_index g WHERE g.status = 'finished' AND NOT EXISTS"
                            " (SELECT 1 FROM log_entries e WHERE e.game_id = g.stream_id)"
                            " ORDER BY g.updated_at, g.stream_id").fetchall()
    return [r[0] for r in rows]


def log_finished(db: Database, game_id: uuid.UUID, note: str) -> int:
    """Add a finished game's leaf outside its append, as the owner (``db``: the owner's pool; the
    service's own role may not): a game that finished before the log existed. Its index."""
    with db.connection() as conn:
        row = conn.execute("SELECT fd_log_finished(%s, %s)", (game_id, note)).fetchone()
    assert row is not None
    return int(row[0])
