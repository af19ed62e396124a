"""The tests' own databases: made from a migrated template, dropped after the run, in a process
of their own when asked (the drops outlive the run)."""
from __future__ import annotations

import os
import time

import psycopg

from events.testing import DatabaseFactory


def _existing(admin: str, prefix: str) -> set[str]:
    with psycopg.connect(admin, autocommit=True) as conn:
        return {r[0] for r in conn.execute("SELECT datname FROM pg_database WHERE datname LIKE %s", (prefix + "%",))}


def test_a_background_drop_removes_every_database_and_the_template(db_factory: object) -> None:
    factory = DatabaseFactory(db_factory.admin)  # type: ignore[attr-defined]
    factory.new(), factory.new()
    assert len(_existing(factory.admin, factory.prefix)) == 3
    factory.drop_all(background=True)
    deadline = time.monotonic() + 60
    while _existing(factory.admin, factory.prefix) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _existing(factory.admin, factory.prefix) == set()


def test_a_new_run_sweeps_away_the_databases_of_a_run_whose_process_is_gone(db_factory: object) -> None:
    admin = db_factory.admin  # type: ignore[attr-defined]
    gone = next(pid for pid in range(4_000_000, 4_100_000) if not os.path.exists(f"/proc/{pid}"))
    name = f"fdtest_{gone}_abcdef_0"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')  # type: ignore[arg-type]
    factory = DatabaseFactory(admin)
    try:
        deadline = time.monotonic() + 60
        while _existing(admin, name) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _existing(admin, name) == set()
        assert _existing(admin, factory.template) == {factory.template}  # a living run's are kept
    finally:
        factory.drop_all()
