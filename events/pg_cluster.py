"""A data directory's cluster on disk, for the embedded server (see events/embedded.py): the
server binaries its user can run, and ``initdb``.

As root the server runs as an unprivileged user that cannot reach binaries installed under
/root: they are copied where it can, never chmod'ed in place. ``initdb`` builds a new cluster
beside its data directory (in it if it exists, empty) and renames it into place, so a
half-made cluster is never taken for a real one.
"""
from __future__ import annotations

import hashlib
import os
import secrets
import shutil
import subprocess
from pathlib import Path

from events.pg_binaries import EmbeddedPostgresError, find_bindir, is_complete, pg_major
from events.pg_host import ROOT_BASE, RunAs, can_traverse, clean_env, mkdirs

SUPERUSER = "postgres"
DATABASE = "facedown"
PASSWORD_FILE = "facedown.password"
# trust on the private socket (its directory is 0700); a password on TCP (the fallback)
_INITDB_AUTH = ("--locale=C", "--auth-local=trust", "--auth-host=scram-sha-256")


def run(run_as: RunAs, argv: list[str], **kw) -> subprocess.CompletedProcess:
    """Run a server binary as ``run_as`` in a clean environment from ``/``; never raises on failure."""
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


def server_bindir(data_dir: Path, run_as: RunAs) -> Path:
    """The binaries of ``data_dir``'s PostgreSQL version (any for a new one) that ``run_as`` can run."""
    want = None
    try:
        want = int((data_dir / "PG_VERSION").read_text().strip())
    except (FileNotFoundError, ValueError):
        pass
    d = find_bindir(want)
    if run_as.uid is not None and not can_traverse(d / "postgres", run_as):
        d = _copy_bindir(d, run_as)
    return d


def _copy_bindir(bindir: Path, run_as: RunAs) -> Path:
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


def initdb(data_dir: Path, run_as: RunAs) -> None:
    """Create the cluster of ``data_dir`` (absent or empty), its superuser password kept in
    ``PASSWORD_FILE`` for the TCP fallback."""
    d = data_dir
    if d.exists() and any(d.iterdir()):
        raise EmbeddedPostgresError(
            f"{d} is not empty and holds no PostgreSQL cluster (no PG_VERSION); "
            f"remove it or choose another data dir"
        )
    bindir = server_bindir(data_dir, run_as)
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
        r = run(run_as, [*argv, *_INITDB_AUTH, f"--pwfile={pwfile}"])
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
