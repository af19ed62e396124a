"""The ``players`` projection (of ``PlayerRegistered`` events): what authentication reads."""
from __future__ import annotations

import uuid
from dataclasses import dataclass

from events.db import Database


@dataclass(frozen=True, slots=True)
class PlayerRow:
    id: uuid.UUID
    name: str


def insert(db: Database, player_id: uuid.UUID, name: str, token_sha256: str) -> None:
    with db.connection() as conn:
        conn.execute(
            "INSERT INTO players (player_id, name, token_sha256) VALUES (%s, %s, %s)"
            " ON CONFLICT (player_id) DO NOTHING",
            (player_id, name, token_sha256),
        )


def insert_projection(player_id: uuid.UUID, name: str, token_sha256: str) -> tuple[str, list[object]]:
    """The row as a projection for :meth:`EventStore.append`: written in the registration's
    own statement and commit, so that a crash cannot leave a registered player who cannot log in."""
    return ("INSERT INTO players (player_id, name, token_sha256)"
            " SELECT %s, %s, %s FROM appended WHERE appended.status = 'appended' ON CONFLICT (player_id) DO NOTHING",
            [player_id, name, token_sha256])


def clear(db: Database) -> None:
    with db.connection() as conn:
        conn.execute("DELETE FROM players")


def stream_ids(db: Database) -> list[uuid.UUID]:
    """Every player's stream (its PlayerRegistered event), for a rebuild."""
    with db.connection() as conn:
        return [r[0] for r in conn.execute("SELECT stream_id FROM streams WHERE kind = 'player' ORDER BY stream_id")]


def by_token_hash(db: Database, token_sha256: str) -> PlayerRow | None:
    with db.connection() as conn:
        row = conn.execute("SELECT player_id, name FROM players WHERE token_sha256 = %s",
                           (token_sha256,)).fetchone()
    return None if row is None else PlayerRow(row[0], row[1])


def all_rows(db: Database) -> list[tuple[uuid.UUID, str, str]]:
    with db.connection() as conn:
        return [(r[0], r[1], r[2]) for r in
                conn.execute("SELECT player_id, name, token_sha256 FROM players ORDER BY player_id")]
