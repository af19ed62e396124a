"""The host side of the embedded server: who it runs as, its directories, its pid file,
its locks (see events/embedded.py)."""
from __future__ import annotations

import fcntl
import grp
import os
import pwd
import shutil
import stat
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path

from events.pg_binaries import EmbeddedPostgresError

SERVER_USER = "facedown-pg"
ROOT_BASE = Path("/var/lib/facedown")
CLEAN_ENV_KEYS = ("PATH", "TZ", "TMPDIR", "LD_LIBRARY_PATH", "DYLD_LIBRARY_PATH")


# ----------------------------------------------------------------------- users, paths


@dataclass(frozen=True)
class RunAs:
    """Who the server runs as; ``uid is None`` means "the current user" (no switching)."""

    uid: int | None = None
    gid: int | None = None
    name: str = ""

    def kwargs(self) -> dict:
        if self.uid is None:
            return {}
        return {"user": self.uid, "group": self.gid, "extra_groups": []}


def is_root() -> bool:
    return os.geteuid() == 0


def _invoking_user() -> str:
    try:
        return pwd.getpwuid(os.getuid()).pw_name
    except KeyError:
        return str(os.getuid())


_SERVER_USER_LOCK = threading.Lock()


def server_user() -> RunAs:
    """As root: the dedicated unprivileged account (created if missing), else nobody."""
    if not is_root():
        return RunAs()
    with _SERVER_USER_LOCK:
        for attempt in range(2):
            try:
                pw = pwd.getpwnam(SERVER_USER)
                return RunAs(pw.pw_uid, pw.pw_gid, pw.pw_name)
            except KeyError:
                if attempt:
                    break
            shells = ("/usr/sbin/nologin", "/sbin/nologin")
            nologin = next((s for s in shells if os.path.exists(s)), "/bin/false")
            home = ["--home-dir", "/nonexistent", "--shell", nologin]
            for cmd in (
                ["useradd", "--system", "--user-group", "--no-create-home", *home, SERVER_USER],
                ["adduser", "-S", "-D", "-H", "-h", "/nonexistent", "-s", nologin, SERVER_USER],
            ):
                if shutil.which(cmd[0]):
                    r = subprocess.run(cmd, check=False, capture_output=True, text=True)
                    # a concurrent useradd may have won: re-check by name either way
                    if r.returncode == 0 or _has_user(SERVER_USER):
                        break
        pw = pwd.getpwnam("nobody")
        return RunAs(pw.pw_uid, pw.pw_gid, pw.pw_name)


def _has_user(name: str) -> bool:
    try:
        pwd.getpwnam(name)
        return True
    except KeyError:
        return False


def default_data_dir() -> Path:
    env = os.environ.get("FACEDOWN_PGDATA")
    if env:
        return Path(env).expanduser()
    if is_root():
        return ROOT_BASE / _invoking_user() / "pg"
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".local" / "share"
    return base / "facedown" / "pg"


def can_traverse(path: Path, run_as: RunAs) -> bool:
    """Whether ``run_as`` may search every directory from / down to ``path`` (mode bits)."""
    if run_as.uid is None:
        return True
    gids = {run_as.gid} | {g.gr_gid for g in grp.getgrall() if run_as.name in g.gr_mem}
    p = Path(path)
    for d in [*reversed(p.parents), p]:
        try:
            st = d.stat()
        except FileNotFoundError:
            return True  # created below by us
        if st.st_uid == run_as.uid:
            ok = st.st_mode & stat.S_IXUSR
        elif st.st_gid in gids:
            ok = st.st_mode & stat.S_IXGRP
        else:
            ok = st.st_mode & stat.S_IXOTH
        if not ok:
            return False
    return True


def mkdirs(path: Path, mode: int) -> None:
    """Create missing directories (never touching the mode of existing ones)."""
    missing = []
    p = path
    while not p.exists():
        missing.append(p)
        p = p.parent
    for d in reversed(missing):
        try:
            d.mkdir(mode=mode)
        except FileExistsError:
            pass


def clean_env() -> dict[str, str]:
    env = {k: os.environ[k] for k in CLEAN_ENV_KEYS if k in os.environ}
    env.setdefault("PATH", "/usr/local/bin:/usr/bin:/bin")
    env["LC_ALL"] = "C"
    env["LANG"] = "C"
    return env


# ------------------------------------------------------------------- postmaster.pid


@dataclass(frozen=True)
class PidInfo:
    pid: int
    data_dir: str
    port: int
    socket_dir: str
    listen: str
    status: str


def read_pidfile(data_dir: Path) -> PidInfo | None:
    try:
        lines = (data_dir / "postmaster.pid").read_text().split("\n")
    except (FileNotFoundError, NotADirectoryError):
        return None
    except PermissionError as e:
        raise EmbeddedPostgresError(f"cannot read {data_dir}/postmaster.pid: {e}") from e
    try:
        return PidInfo(
            pid=int(lines[0]),
            data_dir=lines[1],
            port=int(lines[3]) if len(lines) > 3 and lines[3].strip() else 0,
            socket_dir=lines[4].strip() if len(lines) > 4 else "",
            listen=lines[5].strip() if len(lines) > 5 else "",
            status=lines[7].strip() if len(lines) > 7 else "starting",
        )
    except (ValueError, IndexError):
        return PidInfo(0, "", 0, "", "", "garbled")  # being written, or damaged


def is_postmaster_of(pid: int, data_dir: Path) -> bool:
    """Whether ``pid`` is a live (non-zombie) postgres serving ``data_dir``."""
    if pid <= 0:
        return False
    proc = Path("/proc") / str(pid)
    if Path("/proc/self").exists():
        try:
            statline = (proc / "stat").read_text()
            if statline[statline.rindex(")") + 2 :].startswith(("Z", "X")):
                return False
            comm = (proc / "comm").read_text().strip()
        except (FileNotFoundError, ProcessLookupError):
            return False
        if not comm.startswith(("postgres", "postmaster")):
            return False
        want = os.path.realpath(data_dir)
        try:
            if os.path.realpath(os.readlink(proc / "cwd")) == want:
                return True
        except OSError:
            pass
        try:
            argv = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            return False
        return any(os.path.realpath(os.fsdecode(a)) == want for a in argv if a.startswith(b"/"))
    # no /proc (macOS, BSD): signal 0 plus the command name
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    argv = ["ps", "-o", "comm=", "-p", str(pid)]
    out = subprocess.run(argv, check=False, capture_output=True, text=True)
    return "postgres" in out.stdout or "postmaster" in out.stdout


# ------------------------------------------------------------------------ the server


class Flock:
    """An fcntl.flock on a file (blocking exclusive by default)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.fd: int | None = None

    def acquire(self, how: int = fcntl.LOCK_EX) -> bool:
        if self.fd is None:
            self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(self.fd, how)
            return True
        except BlockingIOError:
            return False

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)  # closing drops the flock
            self.fd = None

    def __enter__(self) -> Flock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()



def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        s = Path(f"/proc/{pid}/stat").read_text()
        return not s[s.rindex(")") + 2 :].startswith(("Z", "X"))
    except OSError:
        return True
