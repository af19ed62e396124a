"""While the database is away, a request waits for a connection only briefly (its 503 comes
at once); a pool that is only busy still gives a request its whole wait."""
from __future__ import annotations

import threading
import time

import pytest

from events.db import Database
from events.errors import StoreUnavailable
from events.ports import free_port


def _failing_after(db: Database) -> float:
    t0 = time.monotonic()
    with pytest.raises(StoreUnavailable):
        with db.connection() as conn:
            conn.execute("SELECT 1")
    return time.monotonic() - t0


def test_once_a_connection_has_failed_the_next_requests_wait_only_the_short_time() -> None:
    db = Database(f"host=127.0.0.1 port={free_port()} user=nobody dbname=none", timeout=1.5,
                  outage_timeout=0.2, service_role=False)
    try:
        _failing_after(db)  # nothing listens there: the pool's attempts are refused
        later = [_failing_after(db) for _ in range(3)]
        assert max(later) < 1.0, later  # 0.2 s each, not the 1.5 s of a busy pool
    finally:
        db.close()


def test_a_busy_pool_is_no_outage_and_a_request_waits_its_whole_time(database_url: str) -> None:
    db = Database(database_url, max_size=1, timeout=0.6, outage_timeout=0.05)
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with db.connection() as conn:
            conn.execute("SELECT 1")
            held.set()
            release.wait(10)

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert held.wait(10)
        waits = [_failing_after(db) for _ in range(2)]
        assert min(waits) >= 0.5, waits  # both waited for the busy connection, not 0.05 s
    finally:
        release.set()
        holder.join(10)
    with db.connection() as conn:
        assert conn.execute("SELECT 1").fetchone() == (1,)
    db.close()
