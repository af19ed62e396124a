"""``facedown serve`` itself, in a subprocess, as users run it: gunicorn and its workers."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import requests

from events.ports import free_port


@dataclass
class Served:
    url: str
    port: int
    proc: subprocess.Popen[bytes]
    log: Any

    def workers(self) -> list[int]:
        with open(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children") as f:
            return [int(x) for x in f.read().split()]

    def client_connections(self) -> int:
        """Client connections the workers hold open: their sockets on the served port. Not all
        their descriptors: a worker's database pool grows under a burst of clients and keeps
        its connections, which says nothing about whether the clients were let go."""
        inodes = _sockets_on_port(self.port)
        total = 0
        for pid in self.workers():
            try:
                fds = os.listdir(f"/proc/{pid}/fd")
            except FileNotFoundError:
                continue
            for fd in fds:
                try:
                    target = os.readlink(f"/proc/{pid}/fd/{fd}")
                except OSError:  # closed meanwhile
                    continue
                total += target.startswith("socket:[") and target[8:-1] in inodes
        return total

    def player(self, name: str = "p") -> dict[str, str]:
        r = requests.post(self.url + "/v1/players", json={"name": name}, timeout=10)
        r.raise_for_status()
        return r.json()  # type: ignore[no-any-return]


@contextmanager
def served(database_url: str, workers: int = 2, **env: str) -> Iterator[Served]:
    port = free_port()
    log = open(os.devnull, "wb")
    errors = tempfile.TemporaryFile()  # a file, not a pipe: a full pipe would block the server
    environ = {**os.environ, "DATABASE_URL": database_url, "FACEDOWN_LOG_LEVEL": "warning",
               "FACEDOWN_RATE_LIMIT_PER_SECOND": "0", **env}
    proc = subprocess.Popen([sys.executable, "-c", "from service.entrypoints.cli import main; main()", "serve", "--port", str(port),
                             "--workers", str(workers)], env=environ, stdout=log, stderr=errors)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                errors.seek(0)
                raise RuntimeError("facedown serve exited: " + errors.read().decode(errors="replace")[-3000:])
            try:
                if requests.get(url + "/readyz", timeout=2).status_code == 200:
                    break
            except requests.RequestException:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("facedown serve did not get ready")
            time.sleep(0.2)
        yield Served(url, port, proc, log)
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)
        log.close()
        errors.close()


def _sockets_on_port(port: int) -> set[str]:
    """Inodes of the TCP sockets whose local port is ``port``, other than the listening one."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as f:
                rows = f.read().splitlines()[1:]
        except FileNotFoundError:
            continue
        for row in rows:
            cols = row.split()
            if int(cols[1].rsplit(":", 1)[1], 16) == port and cols[3] != "0A":  # 0A: LISTEN
                inodes.add(cols[9])
    return inodes


def raw(port: int, data: bytes) -> socket.socket:
    """A client connection that has sent ``data`` (and then says nothing more)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(data)
    return s


def get(path: str, token: str | None = None) -> bytes:
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    return f"GET {path} HTTP/1.1\r\nHost: t\r\n{auth}\r\n".encode()
