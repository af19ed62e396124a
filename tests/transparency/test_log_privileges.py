"""Least privilege for the transparency log (sql/040): the service's login reads the log and the
cosignatures but not the log key's table, writes no table directly, cannot put a leaf in the log
by itself (only the append that finishes a game does), and gets its key through fd_log_key."""
from __future__ import annotations

from datetime import datetime, timezone

import psycopg
import pytest

from events import tlog
from events.db import Database
from events.roles import service_url
from tests.support.privileges import app_conn, direct_writes, refused, refusing_url  # noqa: F401 (fixtures)

TABLES = {"log_keys": "name", "log_entries": "note", "log_head": "size", "log_cosignatures": "line"}


@pytest.mark.parametrize("statement", direct_writes(TABLES))
def test_no_table_of_the_log_can_be_written_directly(app_conn: psycopg.Connection[object], statement: str) -> None:
    refused(app_conn, statement)


def test_the_key_is_read_only_through_its_function_and_the_log_only_grows_by_appends(refusing_url: str) -> None:
    db = Database(service_url(refusing_url), max_size=1)
    try:
        now = datetime(2026, 1, 1, tzinfo=timezone.utc)
        kept = tlog.log_key(db, "a.example/log", b"\x01" * 32, b"\x02" * 32, now)
        assert tlog.log_key(db, "b.example/log", b"\x03" * 32, b"\x04" * 32, now) == kept  # the first is kept
        with db.connection() as conn:
            refused(conn, "SELECT private_key FROM log_keys")
        with db.connection() as conn:
            refused(conn, "SELECT fd_log_finished(gen_random_uuid(), 'a note')")
        with db.connection() as conn:
            assert conn.execute("SELECT count(*) FROM log_entries").fetchone() == (0,)
            assert conn.execute("SELECT size FROM log_head").fetchone() == (0,)
    finally:
        db.close()
