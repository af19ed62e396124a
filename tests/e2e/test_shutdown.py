"""``facedown serve`` stops cleanly with streams open, stops its embedded PostgreSQL on the way
out, and after a ``kill -9`` of its master a restart binds the port at once."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

import pytest
import requests

from events.ports import free_port

pytestmark = pytest.mark.e2e


LOGS: list[object] = []


def _log_tail() -> str:
    log = LOGS[-1]
    log.seek(0)  # type: ignore[attr-defined]
    return log.read().decode(errors="replace")[-3000:]  # type: ignore[attr-defined]


def _start(port: int, env: dict[str, str]) -> tuple[subprocess.Popen[bytes], str]:
    log = tempfile.TemporaryFile()
    LOGS.append(log)
    proc = subprocess.Popen([sys.executable, "-c", "from service.entrypoints.cli import main; main()", "serve", "--port",
                             str(port), "--workers", "2"], env=env, stdout=log, stderr=log)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        assert proc.poll() is None, "facedown serve exited"
        try:
            if requests.get(url + "/readyz", timeout=2).status_code == 200:
                return proc, url
        except requests.RequestException:
            pass
        time.sleep(0.1)
    raise AssertionError("facedown serve did not get ready")


def _postmaster(data: Path) -> int | None:
    pidfile = data / "postmaster.pid"
    if not pidfile.exists():
        return None
    pid = int(pidfile.read_text().split()[0])
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    return pid


def test_a_stop_with_streams_open_is_quick_and_stops_the_embedded_database() -> None:
    data = Path("/tmp") / f"facedown-stop-{uuid.uuid4().hex[:10]}" / "pg"
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update(FACEDOWN_PGDATA=str(data), FACEDOWN_LOG_LEVEL="warning")
    try:
        proc, url = _start(free_port(), env)
        assert _postmaster(data) is not None
        token = requests.post(url + "/v1/players", json={"name": "s"}, timeout=10).json()["token"]
        streams = []
        for _ in range(20):
            r = requests.get(url + "/v1/me/stream", headers={"Authorization": f"Bearer {token}"}, stream=True,
                             timeout=60)
            assert r.status_code == 200
            streams.append(r)
            threading.Thread(target=lambda r=r: [None for _ in r.iter_content(64)], daemon=True).start()
        t0 = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)
        took = time.monotonic() - t0
        assert took < 8, f"stopped after {took:.1f} s"
        assert _postmaster(data) is None, "the embedded PostgreSQL was left running: " + _log_tail()
        for r in streams:
            r.close()
    finally:
        from events.embedded import EmbeddedPostgres

        EmbeddedPostgres(data).stop(force=True)
        shutil.rmtree(data.parent, ignore_errors=True)


def test_after_kill_9_of_the_master_a_restart_binds_at_once(database_url: str) -> None:
    env = {**os.environ, "DATABASE_URL": database_url, "FACEDOWN_LOG_LEVEL": "warning"}
    port = free_port()
    proc, url = _start(port, env)
    workers = Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)
    deadline = time.monotonic() + 5  # the workers die with their master
    while time.monotonic() < deadline and any(Path(f"/proc/{w}").exists() for w in workers):
        time.sleep(0.05)
    assert not any(Path(f"/proc/{w}").exists() for w in workers), "orphaned workers hold the port"
    t0 = time.monotonic()
    again, _ = _start(port, env)
    try:
        assert time.monotonic() - t0 < 30
    finally:
        again.send_signal(signal.SIGTERM)
        again.wait(30)
