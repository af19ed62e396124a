"""The game index projection and the per-game secrets (SQL lives only in ``events/``)."""
from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from psycopg.types.json import Jsonb

from events.db import Database


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


_COLS = "stream_id, ruleset, name, status, seats, awaiting, updated_at, version, deadline_kind, deadline_since"


def _row(r: Sequence[Any]) -> IndexRow:
    return IndexRow(r[0], r[1], r[2], r[3], r[4], list(r[5]), r[6], r[7], r[8], r[9])


def put_secret(db: Database, stream_id: uuid.UUID, secret: bytes) -> bytes:
    """Store a game's secret unless it has one (a retried creation), and return the stored one."""
    with db.connection() as conn:
        conn.execute("INSERT INTO game_secrets (stream_id, secret) VALUES (%s, %s) ON CONFLICT DO NOTHING",
                     (stream_id, secret))
        row = conn.execute("SELECT secret FROM game_secrets WHERE stream_id = %s", (stream_id,)).fetchone()
    return bytes(row[0])


def get_secret(db: Database, stream_id: uuid.UUID) -> bytes | None:
    with db.connection() as conn:
        row = conn.execute("SELECT secret FROM game_secrets WHERE stream_id = %s", (stream_id,)).fetchone()
    return None if row is None else bytes(row[0])


_UPSERT = (
    " ON CONFLICT (stream_id) DO UPDATE SET ruleset = EXCLUDED.ruleset, name = EXCLUDED.name,"
    " status = EXCLUDED.status, seats = EXCLUDED.seats, awaiting = EXCLUDED.awaiting,"
    " updated_at = EXCLUDED.updated_at, version = EXCLUDED.version,"
    " deadline_kind = EXCLUDED.deadline_kind, deadline_since = EXCLUDED.deadline_since"
    " WHERE game_index.version < EXCLUDED.version"
)
_INSERT = f"INSERT INTO game_index ({_COLS}) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)" + _UPSERT
_SEAT_PLAYERS = "INSERT INTO game_players (player_id, stream_id) SELECT unnest(%s::uuid[]), %s"


def _params(row: IndexRow) -> list[Any]:
    return [row.id, row.ruleset, row.name, row.status, Jsonb(row.seats), row.awaiting, row.updated_at,
            row.version, row.deadline_kind, row.deadline_since]


def _players(row: IndexRow) -> list[uuid.UUID]:
    return [uuid.UUID(s["player_id"]) for s in row.seats if s.get("player_id")]


def upsert(db: Database, row: IndexRow) -> None:
    """Write the row unless a newer version is already there (concurrent writers)."""
    with db.connection() as conn:
        conn.execute(_INSERT, _params(row))
        conn.execute(_SEAT_PLAYERS + " ON CONFLICT DO NOTHING", (_players(row), row.id))


def upsert_projection(row: IndexRow) -> list[tuple[str, list[Any]]]:
    """The whole row and its seated players, as projections for :meth:`EventStore.append`
    (same statement, same commit): for appends that open a game or seat a player."""
    return [(f"INSERT INTO game_index ({_COLS})"
             " SELECT %s, %s, %s, %s, %s, %s, %s, %s, %s, %s FROM appended WHERE appended.status = 'appended'"
             + _UPSERT, _params(row)),
            (_SEAT_PLAYERS + " FROM appended WHERE appended.status = 'appended' ON CONFLICT DO NOTHING",
             [_players(row), row.id])]


def progress_projection(stream_id: uuid.UUID, status: str, awaiting: list[int], updated_at: datetime, version: int,
                        deadline_kind: str | None, deadline_since: datetime | None) -> list[tuple[str, list[Any]]]:
    """Only what a command changes, as a projection for :meth:`EventStore.append`: the
    game's seats and name are written by :func:`upsert_projection` when they change."""
    return [("UPDATE game_index SET status = %s, awaiting = %s, updated_at = %s, version = %s,"
             " deadline_kind = %s, deadline_since = %s"
             " FROM appended WHERE appended.status = 'appended'"
             " AND game_index.stream_id = %s AND game_index.version < %s",
             [status, awaiting, updated_at, version, deadline_kind, deadline_since, stream_id, version])]


def due(db: Database, now: datetime, turn_seconds: float, window_seconds: float, limit: int) -> list[uuid.UUID]:
    """Active games whose current wait began more than its timeout before ``now``, oldest first."""
    with db.connection() as conn:
        return [r[0] for r in conn.execute(
            "SELECT stream_id FROM game_index WHERE status = 'active' AND deadline_since IS NOT NULL"
            " AND deadline_since <= %(now)s - least(%(turn)s, %(window)s) * interval '1 second'"
            " AND deadline_since <= %(now)s - CASE deadline_kind WHEN 'final_window' THEN %(window)s"
            "  ELSE %(turn)s END * interval '1 second'"
            " ORDER BY deadline_since LIMIT %(limit)s",
            {"now": now, "turn": turn_seconds, "window": window_seconds, "limit": limit})]


def listing(db: Database, status: str | None, limit: int) -> list[IndexRow]:
    sql = f"SELECT {_COLS} FROM game_index"
    params: list[Any] = []
    if status:
        sql += " WHERE status = %s"
        params.append(status)
    sql += " ORDER BY updated_at DESC, stream_id LIMIT %s"
    params.append(limit)
    with db.connection() as conn:
        return [_row(r) for r in conn.execute(sql, params)]


def of_player(db: Database, player_id: uuid.UUID, limit: int) -> list[IndexRow]:
    with db.connection() as conn:
        return [_row(r) for r in conn.execute(
            f"SELECT {', '.join('g.' + c.strip() for c in _COLS.split(','))} FROM game_players p"
            " JOIN game_index g ON g.stream_id = p.stream_id WHERE p.player_id = %s"
            " ORDER BY g.updated_at DESC, g.stream_id LIMIT %s", (player_id, limit))]


def all_rows(db: Database) -> list[IndexRow]:
    with db.connection() as conn:
        return [_row(r) for r in conn.execute(f"SELECT {_COLS} FROM game_index ORDER BY stream_id")]


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
