"""Forward-only SQL migrations from ``sql/NNN_name.sql``, each applied once, in order.

Concurrent starters are serialised by a session advisory lock, so two processes
starting at once apply each file exactly once. On a Citus coordinator the tables and
functions are then distributed (:mod:`events.citus`); on plain PostgreSQL nothing more.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from events import citus
from events.db import connect, translated
from events.roles import retrying_role_races

SQL_DIR = Path(__file__).resolve().parent.parent / "sql"
_LOCK_KEY = 7_301_905_511  # arbitrary, constant: facedown's migration lock
_NAME = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")


def migration_files(sql_dir: Path = SQL_DIR) -> list[Path]:
    return sorted(p for p in sql_dir.iterdir() if _NAME.match(p.name))


def applied(url: str) -> list[str]:
    with connect(url) as conn, translated():
        exists = conn.execute("SELECT to_regclass('schema_migrations') IS NOT NULL").fetchone()
        if not exists or not exists[0]:
            return []
        return [r[0] for r in conn.execute("SELECT name FROM schema_migrations ORDER BY name")]


def pending(url: str, sql_dir: Path = SQL_DIR) -> list[str]:
    done = set(applied(url))
    return [p.name for p in migration_files(sql_dir) if p.name not in done]


def upgrade(url: str, sql_dir: Path = SQL_DIR) -> list[str]:
    """Apply every pending migration; return the names applied by this call."""
    done_now: list[str] = []
    with connect(url) as conn, translated():
        conn.execute("SELECT pg_advisory_lock(%s)", (_LOCK_KEY,))
        try:
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())"
            )
            have = {r[0] for r in conn.execute("SELECT name FROM schema_migrations")}
            on_citus = citus.installed(conn)
            for path in migration_files(sql_dir):
                if path.name in have:
                    continue
                if on_citus:
                    citus.owner_may_log_in(conn)
                # a file that creates or alters the server-wide roles can race another
                # database's migrations (which this database's lock does not hold back)
                retrying_role_races(lambda: _apply(conn, path))
                done_now.append(path.name)
            if on_citus and citus.is_coordinator(conn):
                # new tables and functions take their place on the cluster (idempotent)
                done_now.extend(f"citus: {step}" for step in citus.distribute(url, functions=bool(done_now)))
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (_LOCK_KEY,))
    return done_now


def _apply(conn: Any, path: Path) -> None:
    """One file and its record, in one transaction."""
    with conn.transaction():
        if _owner_role_applies(conn):
            # once 008 has handed the schema to the owner role, every later
            # migration runs as it: new objects are the owner's, never the login's
            conn.execute("SET LOCAL ROLE facedown_owner")
        conn.execute(path.read_text())  # type: ignore[arg-type]
        conn.execute("INSERT INTO schema_migrations (name) VALUES (%s)", (path.name,))


def _owner_role_applies(conn: Any) -> bool:
    row = conn.execute(
        "SELECT t.tableowner = 'facedown_owner' AND current_user <> 'facedown_owner'"
        " AND pg_has_role(current_user, 'facedown_owner', 'MEMBER')"
        " FROM pg_tables t WHERE t.schemaname = 'public' AND t.tablename = 'streams'").fetchone()
    return bool(row and row[0])
