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
import hashlib
import os
import pwd
import re
import secrets
import shutil
import subprocess
import threading
import time
from pathlib import Path
from urllib.parse import quote

import psycopg
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from events.pg_binaries import EmbeddedPostgresError, find_bindir, is_complete, pg_major
from events.pg_host import (
    ROOT_BASE, Flock, PidInfo, RunAs, can_traverse, clean_env, default_data_dir, is_postmaster_of, is_root,
    mkdirs, pid_alive, read_pidfile, server_user,
)
from events.ports import free_port

__all__ = [
    "EmbeddedPostgres",
    "EmbeddedPostgresError",
    "create_database",
    "database_url",
    "drop_database",
    "find_bindir",
]

SUPERUSER = "postgres"
DATABASE = "facedown"
SOCKET_PORT = 55432  # only names the socket file (.s.PGSQL.55432); never 5432
PASSWORD_FILE = "facedown.password"
LOG_FILE = "facedown-server.log"
START_TIMEOUT = 30.0
_SUN_PATH_MAX = 100  # sockaddr_un.sun_path is 104 (BSD) / 108 (Linux) bytes incl. NUL
# trust on the private socket (its directory is 0700); a password on TCP (the fallback)
_INITDB_AUTH = ("--locale=C", "--auth-local=trust", "--auth-host=scram-sha-256")



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
    """A private PostgreSQL cluster in ``data_dir`` (see the module docstring)."""

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
                info = self._live_server()
                if info is None:
                    if not (self.data_dir / "PG_VERSION").exists():
                        self._initdb(run_as)
                    info = self._launch(run_as)
                dsn = self._dsn_for(info)
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
                    pg_ctl = str(self._bindir(run_as) / "pg_ctl")
                    argv = [pg_ctl, "stop", "-D", str(self.data_dir), "-m", "fast", "-w", "-s"]
                    r = self._run(run_as, [*argv, "-t", "60"])
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

    def _bindir(self, run_as: RunAs) -> Path:
        want = None
        try:
            want = int((self.data_dir / "PG_VERSION").read_text().strip())
        except (FileNotFoundError, ValueError):
            pass
        d = find_bindir(want)
        if run_as.uid is not None and not can_traverse(d / "postgres", run_as):
            d = self._copy_bindir(d, run_as)
        return d

    def _copy_bindir(self, bindir: Path, run_as: RunAs) -> Path:
        """As root, wheel binaries under /root are unreachable for the server user: copy the
        installation (bin, lib, share, plus the wheel's ``pgserver.libs`` that the binaries'
        RPATH ``$ORIGIN/../../../pgserver.libs`` points to) into a root-owned, world-readable
        directory under /var/lib/facedown instead of chmod'ing anything."""
        install = bindir.parent  # .../site-packages/pgserver/pginstall
        libs = install.parent.parent / f"{install.parent.name}.libs"
        st = (bindir / "postgres").stat()
        key = hashlib.sha256(f"{install}|{st.st_size}|{st.st_mtime_ns}".encode()).hexdigest()[:12]
        dst = ROOT_BASE / "pginstall" / f"{pg_major(bindir)}-{key}"
        rel_bin = Path(install.parent.name) / install.name / "bin"
        if not is_complete(dst / rel_bin):
            mkdirs(dst.parent, 0o755)
            tmp = dst.with_name(dst.name + f".tmp{os.getpid()}")
            shutil.rmtree(tmp, ignore_errors=True)
            tmp.mkdir(mode=0o755)
            (tmp / install.parent.name).mkdir(mode=0o755)
            shutil.copytree(
                install,
                tmp / install.parent.name / install.name,
                symlinks=True,
                ignore=shutil.ignore_patterns("include"),
            )
            if libs.is_dir():
                shutil.copytree(libs, tmp / libs.name, symlinks=True)
            for root, dirs, files in os.walk(tmp):
                os.chmod(root, 0o755)
                for f in files:
                    fp = os.path.join(root, f)
                    if not os.path.islink(fp):
                        os.chmod(fp, (os.stat(fp).st_mode & 0o7777) | 0o444)
            try:
                os.rename(tmp, dst)
            except OSError:  # a concurrent copier won
                shutil.rmtree(tmp, ignore_errors=True)
        if not can_traverse(dst / rel_bin / "postgres", run_as):
            raise EmbeddedPostgresError(
                f"server user {run_as.name!r} cannot execute {dst / rel_bin}"
            )
        return dst / rel_bin

    def _run(self, run_as: RunAs, argv: list[str], **kw) -> subprocess.CompletedProcess:
        env = clean_env() | kw.pop("env", {})
        return subprocess.run(
            argv,
            check=False,
            capture_output=True,
            text=True,
            env=env,
            cwd="/",
            **run_as.kwargs(),
            **kw,
        )

    def _live_server(self) -> PidInfo | None:
        """The running server of this data dir (waiting out starting/stopping), or None.

        A stale postmaster.pid (process gone, or a different process now has that pid) is
        removed so that the postmaster will start."""
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            info = read_pidfile(self.data_dir)
            if info is None:
                return None
            if info.status == "garbled":
                if time.monotonic() > deadline:
                    raise EmbeddedPostgresError(f"unreadable {self.data_dir}/postmaster.pid")
            elif not is_postmaster_of(info.pid, self.data_dir):
                # re-read: the postmaster may have just exited and removed the file itself
                again = read_pidfile(self.data_dir)
                if again == info:
                    try:
                        (self.data_dir / "postmaster.pid").unlink()
                    except FileNotFoundError:
                        pass
                    return None
                continue
            elif info.status == "ready":
                return info
            elif time.monotonic() > deadline:
                raise EmbeddedPostgresError(
                    f"server of {self.data_dir} (pid {info.pid}) stuck in state {info.status!r}"
                )
            time.sleep(0.01)

    def _use_tcp(self) -> bool:
        if os.environ.get("FACEDOWN_PG_TCP", "") not in ("", "0"):
            return True
        return (
            len(os.fsencode(str(self.data_dir))) + len(f"/.s.PGSQL.{SOCKET_PORT}") > _SUN_PATH_MAX
        )

    def _initdb(self, run_as: RunAs) -> None:
        d = self.data_dir
        if d.exists() and any(d.iterdir()):
            raise EmbeddedPostgresError(
                f"{d} is not empty and holds no PostgreSQL cluster (no PG_VERSION); "
                f"remove it or choose another data dir"
            )
        bindir = self._bindir(run_as)
        in_place = d.exists()
        target = d if in_place else d.with_name(f".{d.name}.initdb-{os.getpid()}")
        if not in_place:  # leftovers of initdb runs killed half-way (we hold the lock)
            for old in d.parent.glob(f".{d.name}.initdb-*"):
                shutil.rmtree(old, ignore_errors=True)
        target.mkdir(mode=0o700, exist_ok=in_place)
        if run_as.uid is not None:
            os.chown(target, run_as.uid, run_as.gid)  # the data dir itself, never a parent
        os.chmod(target, 0o700)
        password = secrets.token_urlsafe(24)
        # initdb must read the password from a file the server user may open (a pipe of
        # ours on /dev/stdin is not): a 0600 file of its own next to the data dir
        pwfile = d.with_name(f".{d.name}.pw-{os.getpid()}")
        fd = os.open(pwfile, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            with os.fdopen(fd, "w") as f:
                f.write(password + "\n")
            if run_as.uid is not None:
                os.chown(pwfile, run_as.uid, run_as.gid)
            argv = [str(bindir / "initdb"), "-D", str(target), "-U", SUPERUSER, "-E", "UTF8"]
            r = self._run(run_as, [*argv, *_INITDB_AUTH, f"--pwfile={pwfile}"])
        finally:
            pwfile.unlink(missing_ok=True)
        if r.returncode != 0:
            if not in_place:
                shutil.rmtree(target, ignore_errors=True)
            raise EmbeddedPostgresError(f"initdb failed:\n{r.stdout}\n{r.stderr}")
        pw = target / PASSWORD_FILE
        fd = os.open(pw, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(password)
        if run_as.uid is not None:
            os.chown(pw, run_as.uid, run_as.gid)
        if not in_place:
            os.rename(target, d)

    def _launch(self, run_as: RunAs) -> PidInfo:
        bindir = self._bindir(run_as)
        d = self.data_dir
        if self._use_tcp():
            port = free_port()
            settings = {
                "listen_addresses": "127.0.0.1",
                "port": port,
                "unix_socket_directories": "",
            }
        else:
            settings = {
                "listen_addresses": "",  # no TCP at all
                "port": SOCKET_PORT,
                "unix_socket_directories": d,
                "unix_socket_permissions": "0700",
            }
        net = [arg for k, v in settings.items() for arg in ("-c", f"{k}={v}")]
        argv = [str(bindir / "postgres"), "-D", str(d), *net]
        # double fork through sh so that the postmaster is re-parented to init (no zombie
        # child of ours, and it survives our exit until someone stops it)
        script = 'umask 077; "$@" </dev/null >>"$LOGFILE" 2>&1 & echo $!'
        log = d / LOG_FILE
        try:
            if log.stat().st_size > 1 << 20:
                os.replace(log, log.with_name(LOG_FILE + ".old"))
        except OSError:
            pass
        deadline = time.monotonic() + START_TIMEOUT
        attempt = 0
        while True:
            attempt += 1
            self._remove_stale_socket_locks()
            r = self._run(run_as, ["/bin/sh", "-c", script, "sh", *argv], env={"LOGFILE": str(log)})
            if r.returncode != 0 or not r.stdout.strip().isdigit():
                raise EmbeddedPostgresError(f"cannot launch postgres: {r.stderr.strip()}")
            pid = int(r.stdout.strip())
            while True:
                info = read_pidfile(d)
                if info and info.pid == pid and info.status == "ready":
                    return info
                if not pid_alive(pid):
                    break  # it died: retry (e.g. stale shared memory still attached) or fail
                if time.monotonic() > deadline:
                    raise EmbeddedPostgresError(
                        f"postgres did not become ready:\n{self._log_tail()}"
                    )
                time.sleep(0.005)
            log = self._log_tail()
            retriable = "still in use" in log or "already exists" in log or "lock file" in log
            if not retriable or time.monotonic() > deadline:
                raise EmbeddedPostgresError(f"postgres failed to start:\n{log}")
            other = self._live_server()  # removes a stale pid file; maybe someone else's server
            if other is not None:
                return other
            time.sleep(min(0.05 * attempt, 0.5))

    def _remove_stale_socket_locks(self) -> None:
        """Remove ``.s.PGSQL.<port>.lock`` files (and sockets) of a dead postmaster.

        postgres itself treats a lock whose pid still exists as live, and the pid of a
        postmaster killed with -9 can linger as a zombie (or be reused) for a while."""
        for lock in self.data_dir.glob(".s.PGSQL.*.lock"):
            try:
                pid = int(lock.read_text().split("\n", 1)[0])
            except (OSError, ValueError):
                continue
            if not is_postmaster_of(pid, self.data_dir):
                lock.unlink(missing_ok=True)
                Path(str(lock)[: -len(".lock")]).unlink(missing_ok=True)

    def _log_tail(self, n: int = 20) -> str:
        try:
            return "\n".join(
                (self.data_dir / LOG_FILE).read_text(errors="replace").splitlines()[-n:]
            )
        except OSError as e:
            return f"(no log: {e})"

    def _dsn_for(self, info: PidInfo) -> str:
        if not info.socket_dir:  # TCP fallback
            password = (self.data_dir / PASSWORD_FILE).read_text().strip()
            return f"postgresql://{SUPERUSER}:{quote(password, safe='')}@{info.listen}:{info.port}/{DATABASE}"
        host = info.socket_dir or str(self.data_dir)
        return f"postgresql://{SUPERUSER}@/{DATABASE}?host={quote(host, safe='/')}&port={info.port}"

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
