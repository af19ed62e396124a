"""Advisory locks that let one process at a time do a job every process may do: the deadline
sweep (for one transaction) and the webhook delivery (for as long as a session lives)."""
from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from events.db import Database, connect, translated

SWEEP = 0x66646C6E  # "fdln": one deadline sweep at a time across workers and machines
DELIVERY = 0x66647768  # "fdwh": one delivering process at a time


@contextlib.contextmanager
def sweep_lock(db: Database) -> Iterator[bool]:
    """Whether this process holds the sweep's lock, held (with its connection's transaction)
    until the block ends: ``False`` while another process sweeps."""
    with db.connection() as conn, conn.transaction():
        row = conn.execute("SELECT pg_try_advisory_xact_lock(%s)", (SWEEP,)).fetchone()
        yield bool(row and row[0])


class SessionLock:
    """A session-level advisory lock on a connection of its own: held until :meth:`release`,
    or until the session ends (a worker killed, the database restarted), when another process
    may take it."""

    def __init__(self, url: str, key: int = DELIVERY) -> None:
        self.url, self.key = url, key
        self._conn: Any = None

    @property
    def held(self) -> bool:
        return self._conn is not None

    def acquire(self) -> bool:
        """Take the lock if no other session holds it; ``True`` if this one does now."""
        if self._conn is None:
            conn = connect(self.url)
            with translated():
                row = conn.execute("SELECT pg_try_advisory_lock(%s)", (self.key,)).fetchone()
            if not (row and row[0]):
                conn.close()
                return False
            self._conn = conn
        return True

    def check(self) -> None:
        """Raise ``StoreError`` if the lock's session is gone (then :meth:`release` and try again)."""
        if self._conn is not None:
            with translated():
                self._conn.execute("SELECT 1")

    def release(self) -> None:
        if self._conn is not None:
            try:
                self._conn.close()
            except Exception:  # noqa: BLE001 - it is being dropped anyway
                pass
            self._conn = None
