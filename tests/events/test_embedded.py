"""The embedded PostgreSQL, against a real server (no mocks).

As root, pytest's tmp_path lives in a 0700 root-only directory the unprivileged server user
cannot reach (and the module must not loosen it), so these tests use a fresh directory in
/tmp that the module itself creates.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from events.embedded import (
    EmbeddedPostgres,
    create_database,
    database_url,
    drop_database,
)

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX only")
REPO = Path(__file__).resolve().parents[2]


def _fresh_dir() -> Path:
    return Path("/tmp") / f"facedown-test-{uuid.uuid4().hex[:10]}" / "pg"


def _cleanup(d: Path) -> None:
    EmbeddedPostgres(d).stop(force=True)
    shutil.rmtree(d.parent, ignore_errors=True)


@pytest.fixture
def data_dir() -> Iterator[Path]:
    """A data dir that does not exist yet (a cold start)."""
    d = _fresh_dir()
    yield d
    _cleanup(d)


@pytest.fixture(scope="module")
def _shared_cluster() -> Iterator[Path]:
    d = _fresh_dir()
    yield d
    _cleanup(d)


@pytest.fixture
def cluster(_shared_cluster: Path) -> Iterator[Path]:
    """A data dir shared by this module's tests (initdb once), stopped after each test."""
    yield _shared_cluster
    EmbeddedPostgres(_shared_cluster).stop(force=True)


def _postmaster_pid(d: Path) -> int:
    return int((d / "postmaster.pid").read_text().split("\n")[0])


def _ancestor_modes(p: Path) -> dict[str, tuple[int, int, int]]:
    out = {}
    for a in p.parents:
        if a.exists():
            st = a.stat()
            out[str(a)] = (st.st_mode, st.st_uid, st.st_gid)
    return out


def _tcp_listen_inodes() -> set[str]:
    inodes = set()
    for f in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(f).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            cols = line.split()
            if cols[3] == "0A":  # LISTEN
                inodes.add(cols[9])
    return inodes


def test_a_cold_start_answers_select_1_and_stops_cleanly(data_dir):
    before = _ancestor_modes(data_dir)  # the existing ones: no chmod/chown of any of them
    pg = EmbeddedPostgres(data_dir)
    t0 = time.perf_counter()
    dsn = pg.start()
    cold = time.perf_counter() - t0
    assert {k: v for k, v in _ancestor_modes(data_dir).items() if k in before} == before
    assert pg.running() and pg.dsn == dsn and pg.data_dir == data_dir
    with psycopg.connect(dsn) as conn:
        row = conn.execute(
            "select 1, current_database(), current_setting('is_superuser'),"
            " current_setting('listen_addresses'), current_setting('port')::int"
        ).fetchone()
    assert row[:3] == (1, "facedown", "on")
    assert row[3] == "" and row[4] != 5432  # Unix socket only, no TCP
    assert pg.start() == dsn  # idempotent
    pg.stop()
    assert not pg.running()
    assert not (data_dir / "postmaster.pid").exists()
    pg.stop()  # stopping a stopped server is fine
    print(f"cold start {cold:.3f}s")
    assert cold < 15


def test_a_restart_reuses_the_data(cluster):
    pg = EmbeddedPostgres(cluster)
    with psycopg.connect(pg.start(), autocommit=True) as conn:
        conn.execute("create table kept (x int)")
        conn.execute("insert into kept values (42)")
    pg.stop()
    assert not pg.running()
    t0 = time.perf_counter()
    dsn = EmbeddedPostgres(cluster).start()
    restart = time.perf_counter() - t0
    with psycopg.connect(dsn) as conn:
        assert conn.execute("select x from kept").fetchall() == [(42,)]
    print(f"restart {restart:.3f}s")
    assert restart < 5


def test_start_recovers_after_kill_9_of_the_postmaster(cluster):
    pg = EmbeddedPostgres(cluster)
    pg.start()
    pid = _postmaster_pid(cluster)
    os.kill(pid, signal.SIGKILL)
    deadline = time.time() + 5
    while Path(f"/proc/{pid}").exists() and time.time() < deadline:
        time.sleep(0.01)
    assert (cluster / "postmaster.pid").exists()  # stale
    assert not pg.running()
    dsn = EmbeddedPostgres(cluster).start()
    with psycopg.connect(dsn) as conn:
        assert conn.execute("select 1").fetchone() == (1,)
    assert _postmaster_pid(cluster) != pid


def test_a_server_whose_owner_was_killed_is_reused(cluster):
    """kill -9 of the Python process that started it: the live server is reused."""
    code = textwrap.dedent(f"""
        import os, sys
        sys.path.insert(0, {str(REPO)!r})
        from events.embedded import EmbeddedPostgres
        EmbeddedPostgres({str(cluster)!r}).start()
        os.kill(os.getpid(), 9)
    """)
    r = subprocess.run([sys.executable, "-c", code], check=False)
    assert r.returncode == -9
    pid = _postmaster_pid(cluster)
    pg = EmbeddedPostgres(cluster)
    assert pg.running()
    with psycopg.connect(pg.start()) as conn:
        assert conn.execute("select 1").fetchone() == (1,)
    assert _postmaster_pid(cluster) == pid


def test_concurrent_starts_share_one_server_and_the_last_user_stops_it(data_dir):
    code = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(REPO)!r})
        import psycopg
        from events.embedded import EmbeddedPostgres
        pg = EmbeddedPostgres({str(data_dir)!r})
        dsn = pg.start()
        psycopg.connect(dsn).execute("select 1")
        print(dsn)
        sys.stdout.flush()
        sys.stdin.read()  # keep using it until told to go
    """)
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(3)
    ]
    dsns = {p.stdout.readline().strip() for p in procs}
    assert len(dsns) == 1 and "" not in dsns
    procs[0].stdin.close()
    procs[0].wait(timeout=30)
    pg = EmbeddedPostgres(data_dir)
    assert pg.running()  # the others still use it: the first one's exit did not stop it
    for p in procs[1:]:
        p.stdin.close()
        p.wait(timeout=30)
    assert not pg.running()  # the last one out stopped it
    assert all(p.returncode == 0 for p in procs)


def test_database_url_prefers_DATABASE_URL_and_create_database_isolates(cluster, monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "postgresql://example/x")
    assert database_url() == ("postgresql://example/x", None)
    monkeypatch.delenv("DATABASE_URL")
    monkeypatch.setenv("FACEDOWN_PGDATA", str(cluster))
    url, pg = database_url()
    assert pg is not None and pg.data_dir == cluster
    dsn = create_database(url, "iso_test_1")
    with psycopg.connect(dsn) as conn:
        assert conn.execute("select current_database()").fetchone() == ("iso_test_1",)
        assert conn.execute(
            "select count(*) from pg_tables where schemaname='public'"
        ).fetchone() == (0,)
    drop_database(url, "iso_test_1")
    pg.stop()


@pytest.mark.skipif(os.geteuid() != 0, reason="root only")
def test_as_root_the_server_is_unprivileged_and_no_parent_mode_changes(cluster):
    data_dir = cluster
    data_dir.parent.mkdir(exist_ok=True)
    before = _ancestor_modes(data_dir)
    pg = EmbeddedPostgres(data_dir)
    pg.start()
    pid = _postmaster_pid(data_dir)
    uids = [
        ln for ln in Path(f"/proc/{pid}/status").read_text().splitlines() if ln.startswith("Uid:")
    ]
    assert uids and all(int(u) != 0 for u in uids[0].split()[1:])
    assert data_dir.stat().st_uid != 0
    assert _ancestor_modes(data_dir) == before
    pg.stop()
    assert _ancestor_modes(data_dir) == before


@pytest.mark.skipif(os.geteuid() != 0, reason="root only")
def test_as_root_an_unreachable_data_dir_is_refused_not_chmodded(tmp_path):
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    before = _ancestor_modes(private / "pg")
    with pytest.raises(RuntimeError, match="cannot reach"):
        EmbeddedPostgres(private / "pg").start()
    assert _ancestor_modes(private / "pg") == before


@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="needs /proc")
def test_it_listens_on_no_tcp_port(cluster):
    pg = EmbeddedPostgres(cluster)
    pg.start()
    pid = _postmaster_pid(cluster)
    fds = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            link = os.readlink(fd)
        except OSError:
            continue
        if link.startswith("socket:["):
            fds.add(link[8:-1])
    assert fds, "expected the postmaster to hold its Unix socket"
    assert not fds & _tcp_listen_inodes()
    assert (cluster / ".s.PGSQL.55432").is_socket()
    pg.stop()
