"""Zero set-up PostgreSQL: ``DATABASE_URL`` if set, else a private, real server.

facedown needs a PostgreSQL event log.  When ``DATABASE_URL`` is not set, this module
creates (first run) or reuses (later runs) a private cluster and returns a libpq URL for
it.  See docs/embedded-postgres.md for the user-facing description.

Server binaries: the system's ``initdb``/``pg_ctl``/``postgres`` (``$FACEDOWN_PG_BINDIR``,
``PATH``, ``pg_config --bindir``, ``/usr/lib/postgresql/*/bin``, ...) if present, else the
binaries shipped inside the ``pgserver`` wheel.  Only the wheel's files are used, never
its Python API (which, as root, chmods every parent directory up to ``/``).

Data directory (first match): the ``data_dir`` argument, ``$FACEDOWN_PGDATA``, then
  - normal user: ``$XDG_DATA_HOME/facedown/pg`` or ``~/.local/share/facedown/pg``;
  - root: ``/var/lib/facedown/<user>/pg``, owned by the unprivileged system user
    ``facedown-pg`` (created with useradd if missing; ``nobody`` as a fallback).  The
    server process runs as that user; no existing directory's mode is ever changed.

Network: a Unix socket in the data directory itself (mode 0700, so only its owner and
root can connect; ``trust`` authentication there), no TCP.  If the socket path would be
too long for ``sockaddr_un`` (or ``FACEDOWN_PG_TCP=1``), the server listens on a free
loopback port instead, with a random password (scram-sha-256).  Port 5432 is never used.

Concurrency and lifetime: ``start()`` runs under an exclusive ``fcntl.flock`` on
``<data_dir>.lock`` so that concurrent starters create/launch the server once.  Every
process using the server holds a shared flock on ``<data_dir>.users``; ``stop()`` (also
run at interpreter exit by the process that called ``start()``) shuts the server down
with ``pg_ctl stop -m fast`` only when no other process still holds that lock.  A server
whose owner was killed with ``kill -9`` keeps running and is reused; a ``postmaster.pid``
whose process is gone (or is not a postgres of this data directory) is removed.

psycopg may be imported inside ``events/`` only.
"""

from __future__ import annotations

import atexit
import fcntl
import os
import pwd
import re
import threading
import time
from pathlib import Path

import psycopg
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from events.pg_binaries import EmbeddedPostgresError, find_bindir
from events.pg_cluster import DATABASE, initdb, run, server_bindir
from events.pg_host import (
    ROOT_BASE, Flock, RunAs, can_traverse, default_data_dir, is_postmaster_of, is_root, mkdirs, read_pidfile,
    server_user,
)
from events.pg_postmaster import dsn_for, launch, live_server

__all__ = [
    "EmbeddedPostgres",
    "EmbeddedPostgresError",
    "create_database",
    "database_url",
    "drop_database",
    "find_bindir",
]

_LIVE: set[EmbeddedPostgres] = set()


def _stop_all_at_exit() -> None:
    for pg in list(_LIVE):
        if pg._owner_pid == os.getpid():
            try:
                pg.stop()
            except Exception:  # noqa: BLE001 - best effort at interpreter exit
                pass


atexit.register(_stop_all_at_exit)


class EmbeddedPostgres:
    """A private PostgreSQL cluster in ``data_dir`` (see the module docstring): its lifetime and
    locks here, its files in :mod:`events.pg_cluster`, its server process in
    :mod:`events.pg_postmaster`."""

    def __init__(self, data_dir: Path | str | None = None) -> None:
        self.data_dir = Path(
            os.path.abspath(Path(data_dir).expanduser() if data_dir else default_data_dir())
        )
        self._dsn: str | None = None
        self._users: Flock | None = None
        self._owner_pid: int | None = None
        self._run_as: RunAs | None = None
        self._mutex = threading.Lock()

    # -- public API ---------------------------------------------------------------

    @property
    def dsn(self) -> str | None:
        """The URL returned by the last ``start()`` (None before it)."""
        return self._dsn

    def running(self) -> bool:
        """Whether a server of this data directory is up and accepting connections."""
        info = read_pidfile(self.data_dir)
        return bool(info and info.status == "ready" and is_postmaster_of(info.pid, self.data_dir))

    def start(self) -> str:
        """Create (first run), launch or reuse the server; return its libpq URL. Idempotent."""
        with self._mutex:
            mine = self._users is not None and self._owner_pid == os.getpid()
            if self._dsn and mine and self.running():
                return self._dsn
            run_as = self._run_as = self._who()
            self._prepare_parent(run_as)
            with Flock(self._sidecar(".lock")):
                info = live_server(self.data_dir)
                if info is None:
                    if not (self.data_dir / "PG_VERSION").exists():
                        initdb(self.data_dir, run_as)
                    info = launch(self.data_dir, run_as)
                dsn = dsn_for(self.data_dir, info)
                self._ensure_database(dsn)
                if self._users is None or self._owner_pid != os.getpid():
                    self._users = Flock(self._sidecar(".users"))
                    self._users.acquire(fcntl.LOCK_SH)
            self._dsn = dsn
            self._owner_pid = os.getpid()
            _LIVE.add(self)
            return dsn

    def stop(self, force: bool = False, wait: float = 0.0) -> None:
        """Stop the server (``pg_ctl stop -m fast``) unless another process still uses it.

        ``force=True`` stops it even then.  ``wait``: seconds to let other users finish (a
        server's worker processes that are still dying hold the lock for a moment).  Safe to
        call when it is not running.
        """
        with self._mutex:
            if self._users is not None and self._owner_pid == os.getpid():
                self._users.release()
            self._users = None
            _LIVE.discard(self)
            if not self.data_dir.exists():
                return
            run_as = self._run_as or self._who()
            with Flock(self._sidecar(".lock")):
                users = Flock(self._sidecar(".users"))
                try:
                    deadline = time.monotonic() + wait
                    while not force and not users.acquire(fcntl.LOCK_EX | fcntl.LOCK_NB):
                        if time.monotonic() >= deadline:
                            return  # someone else is still connected through us
                        time.sleep(0.1)
                    info = read_pidfile(self.data_dir)
                    if info is None or not is_postmaster_of(info.pid, self.data_dir):
                        return
                    pg_ctl = str(server_bindir(self.data_dir, run_as) / "pg_ctl")
                    argv = [pg_ctl, "stop", "-D", str(self.data_dir), "-m", "fast", "-w", "-s"]
                    r = run(run_as, [*argv, "-t", "60"])
                    if r.returncode != 0 and self.running():
                        raise EmbeddedPostgresError(f"pg_ctl stop failed: {r.stderr.strip()}")
                finally:
                    users.release()

    def __repr__(self) -> str:
        return f"EmbeddedPostgres({str(self.data_dir)!r})"

    # -- internals ------------------------------------------------------------------

    def _who(self) -> RunAs:
        """Who runs the server: the current user; as root, the non-root owner of an existing
        cluster (e.g. one a user created before), else the dedicated system user."""
        if not is_root():
            return RunAs()
        try:
            st = self.data_dir.stat()
            if st.st_uid != 0 and (self.data_dir / "PG_VERSION").exists():
                try:
                    name = pwd.getpwuid(st.st_uid).pw_name
                except KeyError:
                    name = str(st.st_uid)
                return RunAs(st.st_uid, st.st_gid, name)
        except FileNotFoundError:
            pass
        return server_user()

    def _sidecar(self, suffix: str) -> Path:
        return self.data_dir.with_name(self.data_dir.name + suffix)

    def _prepare_parent(self, run_as: RunAs) -> None:
        parent = self.data_dir.parent
        mkdirs(parent, 0o755 if run_as.uid is not None else 0o700)
        if not can_traverse(self.data_dir, run_as):
            raise EmbeddedPostgresError(
                f"the server user {run_as.name!r} cannot reach {self.data_dir} (a parent "
                f"directory is not searchable by it) and facedown never loosens permissions of "
                f"existing directories: use a data dir under {ROOT_BASE} or /tmp/<new dir>, "
                f"set FACEDOWN_PGDATA, or run as a normal user"
            )

    def _ensure_database(self, dsn: str) -> None:
        admin = make_conninfo(dsn, dbname="postgres")
        with psycopg.connect(admin, autocommit=True, connect_timeout=10) as conn:
            if conn.execute("select 1 from pg_database where datname = %s", (DATABASE,)).fetchone():
                return
            try:
                conn.execute(sql.SQL("create database {}").format(sql.Identifier(DATABASE)))
            except psycopg.errors.DuplicateDatabase:
                pass


# -------------------------------------------------------------------- module helpers

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_$-]{0,62}$")


def create_database(admin_dsn: str, name: str) -> str:
    """Create the empty database ``name`` (from template0) and return a DSN for it."""
    if not _NAME.match(name):
        raise ValueError(f"bad database name {name!r}")
    with psycopg.connect(admin_dsn, autocommit=True) as conn:
        conn.execute(sql.SQL("create database {} template template0").format(sql.Identifier(name)))
    return make_conninfo(admin_dsn, dbname=name)


def drop_database(admin_dsn: str, name: str) -> None:
    """Drop ``name`` (terminating its connections); no error if it does not exist."""
    if conninfo_to_dict(admin_dsn).get("dbname") == name:
        admin_dsn = make_conninfo(admin_dsn, dbname="postgres")
    with psycopg.connect(admin_dsn, autocommit=True) as conn:
        conn.execute(
            sql.SQL("drop database if exists {} with (force)").format(sql.Identifier(name))
        )


_DEFAULT: EmbeddedPostgres | None = None
_DEFAULT_LOCK = threading.Lock()


def database_url() -> tuple[str, EmbeddedPostgres | None]:
    """``(DATABASE_URL, None)`` if that is set, else ``(url, server)`` of the private server.

    The private server is one per process (started on first call, reused afterwards)."""
    url = os.environ.get("DATABASE_URL", "").strip()
    if url:
        return url, None
    global _DEFAULT
    with _DEFAULT_LOCK:
        if _DEFAULT is None or _DEFAULT.data_dir != EmbeddedPostgres().data_dir:
            _DEFAULT = EmbeddedPostgres()
        pg = _DEFAULT
    return pg.start(), pg
