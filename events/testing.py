"""Databases for tests: which server to use, and a fresh migrated database per test.

Choice (the issue's order): ``TEST_DATABASE_URL`` if set (the value ``embedded`` forces
the private server), else a server on 127.0.0.1:5432 if one answers (trust auth),
else the private embedded server. Each test gets its own database, cloned from a
template that was migrated once per run.
"""
from __future__ import annotations

import os
import subprocess
import sys
import uuid
from typing import Any

import psycopg
from psycopg import conninfo

from events import migrations

LOCAL_URL = "postgresql://postgres@127.0.0.1:5432/postgres"


def _answers(url: str) -> bool:
    try:
        with psycopg.connect(url, connect_timeout=2) as conn:
            conn.execute("SELECT 1")
        return True
    except psycopg.Error:
        return False


def admin_url() -> tuple[str, Any]:
    """(admin URL, embedded server or None) according to the choice above."""
    chosen = os.environ.get("TEST_DATABASE_URL", "")
    if chosen and chosen != "embedded":
        return chosen, None
    if not chosen and _answers(LOCAL_URL):
        return LOCAL_URL, None
    from events.embedded import EmbeddedPostgres

    server = EmbeddedPostgres(None if not os.environ.get("FACEDOWN_TEST_PGDATA")
                              else __import__("pathlib").Path(os.environ["FACEDOWN_TEST_PGDATA"]))
    return server.start(), server


def with_database(url: str, name: str) -> str:
    return conninfo.make_conninfo(url, dbname=name)


class DatabaseFactory:
    """Creates a migrated template once, then one fresh database per test."""

    def __init__(self, admin: str) -> None:
        self.admin = admin
        _sweep_leftovers(admin)
        self.prefix = f"fdtest_{os.getpid()}_{uuid.uuid4().hex[:6]}"
        self.template = f"{self.prefix}_tpl"
        self.created: list[str] = []
        self._sql(f'CREATE DATABASE "{self.template}"')
        migrations.upgrade(with_database(admin, self.template))

    def _sql(self, statement: str) -> None:
        _execute(self.admin, statement)

    def new(self) -> str:
        """The URL of a fresh migrated database (a copy of the template)."""
        return self._create(self.template)

    def empty(self) -> str:
        """The URL of a new database with no tables at all (not facedown's), dropped with the rest."""
        return self._create("template0")

    def _create(self, template: str) -> str:
        name = f"{self.prefix}_{len(self.created)}"
        # WAL_LOG, not FILE_COPY: FILE_COPY starts with a checkpoint of the whole server, which
        # on a server shared with other work took 0.1-2.6 s per test; WAL_LOG ~0.03 s
        self._sql(f'CREATE DATABASE "{name}" TEMPLATE "{template}" STRATEGY WAL_LOG')
        self.created.append(name)
        return with_database(self.admin, name)

    def drop_all(self, background: bool = False) -> None:
        """Drop every database made. On PostgreSQL 15 each DROP DATABASE waits for a checkpoint
        (a test run's 230 took 28 s one at a time): they go several at once, and with
        ``background`` in a process of their own that outlives the test run."""
        names = [self.template, *self.created]
        if background:
            _drop_in_background(self.admin, names)
        else:
            drop(self.admin, names)


def _execute(admin: str, statement: str) -> None:
    """One statement on its own autocommit connection (CREATE and DROP DATABASE need one)."""
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(statement)  # type: ignore[arg-type]


def _sweep_leftovers(admin: str) -> None:
    """Drop, in the background, the databases of earlier test runs on this machine whose process
    is gone (a run that was killed, or whose background drop was): on a server of this machine
    only, where a process id says whose a database is."""
    if conninfo.conninfo_to_dict(admin).get("host", "localhost") not in ("localhost", "127.0.0.1", "::1", ""):
        return
    with psycopg.connect(admin, autocommit=True) as conn:
        names = [r[0] for r in conn.execute("SELECT datname FROM pg_database WHERE datname ~ '^fdtest_[0-9]+_'")]
    dead = [n for n in names if not os.path.exists(f"/proc/{n.split('_')[1]}")]
    if dead:
        _drop_in_background(admin, dead)


def _drop_in_background(admin: str, names: list[str]) -> None:
    subprocess.Popen([sys.executable, "-m", "events.testing", admin, *names], start_new_session=True,
                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def drop(admin: str, names: list[str]) -> None:
    """Drop these databases, eight at a time."""
    from concurrent.futures import ThreadPoolExecutor

    def one(name: str) -> None:
        try:
            _execute(admin, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        except psycopg.Error:
            pass

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(one, names))


if __name__ == "__main__":  # the background drop: python -m events.testing ADMIN_URL NAME...
    drop(sys.argv[1], sys.argv[2:])
