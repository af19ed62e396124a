"""The benchmarks' SQL (the only place they speak it): the plain-INSERT floor, the HTTP stack
floor's table, and scratch databases. The workloads that drive them are in ``service/bench/``."""
from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from psycopg.types.json import Jsonb

from events.db import Database

PAYLOAD = {"seat": 2, "slot": "B", "window_id": 17, "card": None, "text": "x" * 200}
FLOOR_TABLE = "CREATE TABLE IF NOT EXISTS bench_floor (id bigserial PRIMARY KEY, stream_id uuid, data jsonb)"


def floor_setup(db: Database) -> None:
    """The plain-INSERT floor's table (made as the owner: the service role may not create tables)."""
    with db.connection() as conn:
        conn.execute("RESET ROLE")
        conn.execute(FLOOR_TABLE)
        # the benchmark's scratch table, written by the same login as the appends beside it
        conn.execute("GRANT SELECT, INSERT ON bench_floor TO PUBLIC")
        conn.execute("GRANT USAGE ON SEQUENCE bench_floor_id_seq TO PUBLIC")


def floor_insert(db: Database, stream_id: uuid.UUID) -> None:
    """The floor: one single-row INSERT per transaction, from psycopg, with the append's payload."""
    with db.connection() as conn:
        conn.execute("INSERT INTO bench_floor (stream_id, data) VALUES (%s, %s)", (stream_id, Jsonb(PAYLOAD)))


def scratch_database(url: str) -> tuple[str, Callable[[], None]]:
    """A new empty database next to ``url`` for a benchmark, and a function that drops it."""
    from psycopg import conninfo

    from events.db import connect

    name = f"facedown_bench_{uuid.uuid4().hex[:8]}"
    with connect(url) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')  # type: ignore[arg-type]
    scratch = conninfo.make_conninfo(url, dbname=name)

    def drop() -> None:
        with connect(url) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')  # type: ignore[arg-type]

    return scratch, drop


# The HTTP stack's floor (service/bench/floor.py): one plain statement per request.
STACK_FLOOR_TABLE = ("CREATE TABLE IF NOT EXISTS bench_stack_floor"
                     " (id bigserial PRIMARY KEY, stream_id uuid NOT NULL, data jsonb NOT NULL)")


def stack_floor_setup(db: Database) -> None:
    with db.connection() as conn:
        conn.execute("RESET ROLE")
        conn.execute(STACK_FLOOR_TABLE)
        conn.execute("GRANT SELECT, INSERT ON bench_stack_floor TO PUBLIC")
        conn.execute("GRANT USAGE ON SEQUENCE bench_stack_floor_id_seq TO PUBLIC")


def stack_floor_insert(db: Database, stream_id: uuid.UUID, data: Any) -> int:
    """One single-row INSERT in its own transaction (as an append is one), returning its id."""
    with db.connection() as conn:
        row = conn.execute("INSERT INTO bench_stack_floor (stream_id, data) VALUES (%s, %s) RETURNING id",
                           (stream_id, Jsonb(data))).fetchone()
    assert row is not None
    return int(row[0])


def stack_floor_select(db: Database, row_id: int) -> Any:
    """One single-row read by primary key (as a view's load is one query)."""
    with db.connection() as conn:
        row = conn.execute("SELECT data FROM bench_stack_floor WHERE id = %s", (row_id,)).fetchone()
    return None if row is None else row[0]


def backend_pids(conn: Any) -> list[int]:
    """The server processes serving ``conn``'s database, but ``conn``'s own (for the CPU meter)."""
    rows = conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
                        " AND pid <> pg_backend_pid()").fetchall()
    return [int(r[0]) for r in rows]
