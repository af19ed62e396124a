"""A live ``facedown serve`` (gunicorn, in a child process) on its own fresh database."""
from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from events.ports import free_port
from service.tools.bench.http import server_log, wait_ready


@dataclass
class Served:
    url: str
    database_url: str


def facedown_serve(database_url: str, **env: str) -> Iterator[Served]:
    """``facedown serve`` until the fixture ends (one worker; settings by environment)."""
    port = free_port()
    cmd = [sys.executable, "-c", "from service.entrypoints.cli import main; main()", "serve", "--port", str(port),
           "--workers", "1", "--threads", "16"]
    log = server_log()  # a file: a pipe nobody reads would fill up and block the server
    proc = subprocess.Popen(cmd, env={**os.environ, "DATABASE_URL": database_url, "FACEDOWN_LOG_LEVEL": "warning",
                                      **env}, stdout=subprocess.DEVNULL, stderr=log)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_ready(proc, url, log)
        yield Served(url, database_url)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="module")
def served(db_factory: object) -> Iterator[Served]:
    yield from facedown_serve(db_factory.new())  # type: ignore[attr-defined]
