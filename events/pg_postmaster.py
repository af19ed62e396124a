"""A data directory's running server, for the embedded server (see events/embedded.py):
launch the postmaster, find the live one, its log and its URL.

A ``postmaster.pid`` or socket lock left by a server that is gone (killed with ``kill -9``,
or its pid reused) is removed so that the next postmaster can start.
"""
from __future__ import annotations

import os
import time
from pathlib import Path
from urllib.parse import quote

from events.pg_binaries import EmbeddedPostgresError
from events.pg_cluster import DATABASE, PASSWORD_FILE, SUPERUSER, run, server_bindir
from events.pg_host import PidInfo, RunAs, is_postmaster_of, pid_alive, read_pidfile
from events.ports import free_port

SOCKET_PORT = 55432  # only names the socket file (.s.PGSQL.55432); never 5432
LOG_FILE = "facedown-server.log"
START_TIMEOUT = 30.0
_SUN_PATH_MAX = 100  # sockaddr_un.sun_path is 104 (BSD) / 108 (Linux) bytes incl. NUL


def live_server(data_dir: Path) -> PidInfo | None:
    """The running server of this data dir (waiting out starting/stopping), or None.

    A stale postmaster.pid (process gone, or a different process now has that pid) is
    removed so that the postmaster will start."""
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        info = read_pidfile(data_dir)
        if info is None:
            return None
        if info.status == "garbled":
            if time.monotonic() > deadline:
                raise EmbeddedPostgresError(f"unreadable {data_dir}/postmaster.pid")
        elif not is_postmaster_of(info.pid, data_dir):
            # re-read: the postmaster may have just exited and removed the file itself
            again = read_pidfile(data_dir)
            if again == info:
                try:
                    (data_dir / "postmaster.pid").unlink()
                except FileNotFoundError:
                    pass
                return None
            continue
        elif info.status == "ready":
            return info
        elif time.monotonic() > deadline:
            raise EmbeddedPostgresError(
                f"server of {data_dir} (pid {info.pid}) stuck in state {info.status!r}"
            )
        time.sleep(0.01)


def use_tcp(data_dir: Path) -> bool:
    """Loopback TCP instead of the socket: ``FACEDOWN_PG_TCP``, or a socket path too long."""
    if os.environ.get("FACEDOWN_PG_TCP", "") not in ("", "0"):
        return True
    return (
        len(os.fsencode(str(data_dir))) + len(f"/.s.PGSQL.{SOCKET_PORT}") > _SUN_PATH_MAX
    )


def launch(data_dir: Path, run_as: RunAs) -> PidInfo:
    """Start the postmaster of ``data_dir`` and wait until it is ready, retrying while a dead
    server's leftovers are in the way."""
    bindir = server_bindir(data_dir, run_as)
    d = data_dir
    if use_tcp(data_dir):
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
        _remove_stale_socket_locks(data_dir)
        r = run(run_as, ["/bin/sh", "-c", script, "sh", *argv], env={"LOGFILE": str(log)})
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
                    f"postgres did not become ready:\n{log_tail(data_dir)}"
                )
            time.sleep(0.005)
        log = log_tail(data_dir)
        retriable = "still in use" in log or "already exists" in log or "lock file" in log
        if not retriable or time.monotonic() > deadline:
            raise EmbeddedPostgresError(f"postgres failed to start:\n{log}")
        other = live_server(data_dir)  # removes a stale pid file; maybe someone else's server
        if other is not None:
            return other
        time.sleep(min(0.05 * attempt, 0.5))


def _remove_stale_socket_locks(data_dir: Path) -> None:
    """Remove ``.s.PGSQL.<port>.lock`` files (and sockets) of a dead postmaster.

    postgres itself treats a lock whose pid still exists as live, and the pid of a
    postmaster killed with -9 can linger as a zombie (or be reused) for a while."""
    for lock in data_dir.glob(".s.PGSQL.*.lock"):
        try:
            pid = int(lock.read_text().split("\n", 1)[0])
        except (OSError, ValueError):
            continue
        if not is_postmaster_of(pid, data_dir):
            lock.unlink(missing_ok=True)
            Path(str(lock)[: -len(".lock")]).unlink(missing_ok=True)


def log_tail(data_dir: Path, n: int = 20) -> str:
    """The last ``n`` lines of the server's log, for error messages."""
    try:
        return "\n".join(
            (data_dir / LOG_FILE).read_text(errors="replace").splitlines()[-n:]
        )
    except OSError as e:
        return f"(no log: {e})"


def dsn_for(data_dir: Path, info: PidInfo) -> str:
    """The libpq URL of the ready server ``info``: its Unix socket, or TCP with the password."""
    if not info.socket_dir:  # TCP fallback
        password = (data_dir / PASSWORD_FILE).read_text().strip()
        return f"postgresql://{SUPERUSER}:{quote(password, safe='')}@{info.listen}:{info.port}/{DATABASE}"
    host = info.socket_dir or str(data_dir)
    return f"postgresql://{SUPERUSER}@/{DATABASE}?host={quote(host, safe='/')}&port={info.port}"
