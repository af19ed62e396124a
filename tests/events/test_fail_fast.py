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


def test_however_long_the_database_is_away_the_pool_tries_again_at_least_every_second() -> None:
    """The pool's back-off (1, 2, 4, 8... s between attempts) is capped by its
    ``reconnect_timeout``, ours: so its next attempt, and with it the service's return, is never
    more than about a second after the database's. Over five seconds of an outage the attempts
    (counted by a listener that hangs up on each, as a database that is going away does) never
    leave a gap longer than that, while requests keep coming; the old pool's grew to 4 s here,
    and to 8 s and more after longer outages."""
    import socket

    from events.db import RECONNECT_SECONDS

    assert RECONNECT_SECONDS <= 1.0
    attempts: list[float] = []
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.2)
    stop = threading.Event()

    def hang_up() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except TimeoutError:
                continue
            attempts.append(time.monotonic())
            conn.close()

    listener = threading.Thread(target=hang_up, daemon=True)
    listener.start()
    db = Database(f"host=127.0.0.1 port={server.getsockname()[1]} user=nobody dbname=none", service_role=False)
    try:
        assert db.pool.reconnect_timeout == RECONNECT_SECONDS
        t0 = time.monotonic()
        while time.monotonic() - t0 < 5.0:
            _failing_after(db)
            time.sleep(0.1)
        gaps = [b - a for a, b in zip(attempts, attempts[1:])]
        assert attempts and attempts[0] - t0 < 0.5 and time.monotonic() - attempts[-1] < 1.6
        assert max(gaps) < 1.6, [round(g, 2) for g in gaps]
    finally:
        stop.set()
        listener.join(5)
        db.close()
        server.close()
