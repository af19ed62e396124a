"""The game index projection and the per-game secrets (SQL lives only in ``events/``).

The index has one row per game (what lists and the deadline sweep read) and
``game_players`` one row per seated or invited player (what a player's own list reads).
Both are written only as effects of an append (:func:`index_effect`,
:func:`progress_effect`, applied by ``fd_apply``), or by a rebuild from the log (:func:`upsert`).
"""
from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from events.db import Database
from events.store import apply_effect


@dataclass(frozen=True, slots=True)
class IndexRow:
    id: uuid.UUID
    ruleset: str
    name: str
    status: str
    seats: list[dict[str, Any]]
    awaiting: list[int]
    updated_at: datetime
    version: int
    # the current wait: "turn" or "final_window", and since when (None: nobody is waited on)
    deadline_kind: str | None = None
    deadline_since: datetime | None = None
    visibility: str = "public"
    creator: uuid.UUID | None = None
    free_seats: int = 0
    round: int | None = None
    scores: list[int] | None = None
    winners: list[int] | None = None
    may_act: list[int] = field(default_factory=list)
    deadline_due: datetime | None = None  # when the server next has something to do
    deadline: dict[str, Any] | None = None  # as summaries show it
    time_control: dict[str, Any] | None = None
    rematch_of: uuid.UUID | None = None
    next_game: uuid.UUID | None = None


COLUMNS = ("stream_id", "ruleset", "name", "status", "seats", "awaiting", "updated_at", "version", "deadline_kind",
           "deadline_since", "visibility", "creator", "free_seats", "round", "scores", "winners", "may_act",
           "deadline_due", "deadline", "time_control", "rematch_of", "next_game")
_COLS = ", ".join(COLUMNS)
# what a command may change (seats, visibility and the links change only with service events)
_PROGRESS = ("status", "awaiting", "updated_at", "version", "deadline_kind", "deadline_since", "round", "scores",
             "winners", "may_act", "deadline_due", "deadline")


def row_of(r: Sequence[Any]) -> IndexRow:
    """An index row from the columns of :data:`COLUMNS`, in order."""
    return IndexRow(r[0], r[1], r[2], r[3], r[4], list(r[5]), r[6], r[7], r[8], r[9], r[10], r[11], r[12], r[13],
                    None if r[14] is None else list(r[14]), None if r[15] is None else list(r[15]), list(r[16]),
                    r[17], r[18], r[19], r[20], r[21])


def put_secret(db: Database, stream_id: uuid.UUID, secret: bytes) -> bytes:
    """Store a game's secret unless it has one (a retried creation), and return the stored one."""
    with db.connection() as conn:
        row = conn.execute("SELECT fd_put_secret(%s, %s)", (stream_id, secret)).fetchone()
    return bytes(row[0])


def get_secret(db: Database, stream_id: uuid.UUID) -> bytes | None:
    with db.connection() as conn:
        row = conn.execute("SELECT fd_get_secret(%s)", (stream_id,)).fetchone()
    return None if row is None or row[0] is None else bytes(row[0])


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def _uuid(value: uuid.UUID | None) -> str | None:
    return None if value is None else str(value)


def _progress(row: IndexRow) -> dict[str, Any]:
    return {"status": row.status, "awaiting": row.awaiting, "updated_at": _iso(row.updated_at),
            "version": row.version, "deadline_kind": row.deadline_kind, "deadline_since": _iso(row.deadline_since),
            "round": row.round, "scores": row.scores, "winners": row.winners, "may_act": row.may_act,
            "deadline_due": _iso(row.deadline_due), "deadline": row.deadline}


def index_effect(row: IndexRow) -> dict[str, Any]:
    """The whole row and who sits (or is invited) where, as an effect of
    :meth:`EventStore.append` (same transaction): for appends that open a game or change
    its seats, visibility or links (sql/013's ``game_index``)."""
    return {"op": "game_index", "row": {
        **_progress(row), "ruleset": row.ruleset, "name": row.name, "seats": row.seats,
        "visibility": row.visibility, "creator": _uuid(row.creator), "free_seats": row.free_seats,
        "time_control": row.time_control, "rematch_of": _uuid(row.rematch_of), "next_game": _uuid(row.next_game)}}


def progress_effect(row: IndexRow) -> dict[str, Any]:
    """Only what a command changes, as an effect of :meth:`EventStore.append`: the seats
    are written by :func:`index_effect` when they change."""
    return {"op": "game_progress", "row": _progress(row)}


def upsert(db: Database, row: IndexRow) -> None:
    """Write the row unless a newer version is already there (a rebuild, as the owner)."""
    apply_effect(db, row.id, index_effect(row))


def due(db: Database, now: datetime, limit: int) -> list[uuid.UUID]:
    """Games in which the server has something to do by ``now``, the longest due first
    (an index scan of ``game_index_due``)."""
    with db.connection() as conn:
        return [r[0] for r in conn.execute(
            "SELECT stream_id FROM game_index WHERE deadline_due <= %s ORDER BY deadline_due LIMIT %s",
            (now, limit))]


def of_player(db: Database, player_id: uuid.UUID, limit: int) -> list[IndexRow]:
    """The games a player sits in, the most recently updated first."""
    with db.connection() as conn:
        return [row_of(r) for r in conn.execute(
            f"SELECT {', '.join('g.' + c for c in COLUMNS)} FROM game_players p"
            " JOIN game_index g ON g.stream_id = p.stream_id WHERE p.player_id = %s AND p.role = 'seated'"
            " ORDER BY g.updated_at DESC, g.stream_id LIMIT %s", (player_id, limit))]


def current_of(db: Database, player_id: uuid.UUID) -> list[tuple[uuid.UUID, int]]:
    """(game, seat) of every open or active game a player sits in (a vacation's games)."""
    with db.connection() as conn:
        return [(r[0], r[1]) for r in conn.execute(
            "SELECT g.stream_id, p.seat FROM game_players p JOIN game_index g ON g.stream_id = p.stream_id"
            " WHERE p.player_id = %s AND p.role = 'seated' AND g.status IN ('open', 'active')"
            " ORDER BY g.stream_id", (player_id,))]


def record_of(db: Database, player_id: uuid.UUID) -> dict[str, tuple[int, int]]:
    """ruleset -> (finished games played, games won) of a player."""
    with db.connection() as conn:
        return {r[0]: (r[1], r[2]) for r in conn.execute(
            "SELECT g.ruleset, count(*), count(*) FILTER (WHERE p.seat = ANY(g.winners)) FROM game_players p"
            " JOIN game_index g ON g.stream_id = p.stream_id"
            " WHERE p.player_id = %s AND p.role = 'seated' AND g.status = 'finished'"
            " GROUP BY g.ruleset ORDER BY g.ruleset", (player_id,))}


def visibility_of(db: Database, stream_id: uuid.UUID) -> tuple[str, frozenset[str]] | None:
    """(visibility, the ids of its players) of a game as the read model has it, or None."""
    with db.connection() as conn:
        row = conn.execute("SELECT visibility FROM game_index WHERE stream_id = %s", (stream_id,)).fetchone()
        if row is None:
            return None
        players = conn.execute("SELECT player_id FROM game_players WHERE stream_id = %s", (stream_id,))
        return row[0], frozenset(str(r[0]) for r in players)


def all_rows(db: Database) -> list[IndexRow]:
    with db.connection() as conn:
        return [row_of(r) for r in conn.execute(f"SELECT {_COLS} FROM game_index ORDER BY stream_id")]


def all_members(db: Database) -> list[tuple[uuid.UUID, uuid.UUID, int | None, str]]:
    with db.connection() as conn:
        return [(r[0], r[1], r[2], r[3]) for r in conn.execute(
            "SELECT stream_id, player_id, seat, role FROM game_players ORDER BY stream_id, player_id")]


def game_stream_ids(db: Database) -> list[uuid.UUID]:
    with db.connection() as conn:
        return [r[0] for r in conn.execute("SELECT stream_id FROM streams WHERE kind = 'game' ORDER BY stream_id")]


def clear(db: Database) -> None:
    with db.connection() as conn:
        conn.execute("DELETE FROM game_players")
        conn.execute("DELETE FROM game_index")


def processed(db: Database, stream_id: uuid.UUID, command_id: str) -> tuple[str | None, int, int] | None:
    """(request hash, first version, last version) of an already processed command id."""
    with db.connection() as conn:
        row = conn.execute(
            "SELECT request_hash, first_version, last_version FROM processed_commands"
            " WHERE stream_id = %s AND command_id = %s", (stream_id, command_id)).fetchone()
    return None if row is None else (row[0], row[1], row[2])


def rows(db: Database, ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, IndexRow]:
    """The index rows of these games (those that exist), in one query."""
    with db.connection() as conn:
        return {r[0]: row_of(r) for r in conn.execute(
            f"SELECT {_COLS} FROM game_index WHERE stream_id = ANY(%s)", (list(ids),))}


def awaiting_player(db: Database, player_id: uuid.UUID, limit: int) -> list[IndexRow]:
    """The active games that wait for the player's seat, the nearest deadline first (the
    account stream's inbox): filtered here, so that no other game of the player takes a
    place under ``limit``."""
    with db.connection() as conn:
        return [row_of(r) for r in conn.execute(
            f"SELECT {', '.join('g.' + c for c in COLUMNS)} FROM game_players p"
            " JOIN game_index g ON g.stream_id = p.stream_id"
            " WHERE p.player_id = %s AND p.role = 'seated' AND g.status = 'active' AND p.seat = ANY(g.awaiting)"
            " ORDER BY g.deadline_due NULLS LAST, g.stream_id LIMIT %s", (player_id, limit))]


def nearly_due(db: Database, now: datetime, left: float, limit: int) -> list[IndexRow]:
    """Games whose next deadline has not passed but is less than ``left`` (a share of the
    wait the game's own time control gives) away: those whose awaited seats get a
    ``deadline_soon``."""
    with db.connection() as conn:
        return [row_of(r) for r in conn.execute(
            f"SELECT {_COLS} FROM game_index WHERE deadline_due > %(now)s AND time_control IS NOT NULL"
            " AND deadline_due <= %(now)s + %(left)s * CASE deadline_kind"
            "  WHEN 'final_window' THEN (time_control->>'final_window_seconds')::float"
            "  ELSE (time_control->>'turn_seconds')::float END * interval '1 second'"
            " ORDER BY deadline_due LIMIT %(limit)s", {"now": now, "left": left, "limit": limit})]
