"""A loopback HTTP server that records webhook deliveries and answers as a test tells it."""
from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.service.helpers import QUICK_POLL


@dataclass
class Received:
    headers: dict[str, str]
    body: bytes
    at: float

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Receiver:
    url: str
    received: list[Received] = field(default_factory=list)
    # the status to answer the n-th request (0-based) with; 200 by default
    answer: Callable[[int], int] = lambda n: 200
    delay: Callable[[int], float] = lambda n: 0.0

    def wait_for(self, count: int, timeout: float) -> list[Received]:
        deadline = time.monotonic() + timeout
        while len(self.received) < count and time.monotonic() < deadline:
            time.sleep(0.02)
        return list(self.received)


@contextmanager
def receiver() -> Iterator[Receiver]:
    box: list[Receiver] = []
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - the stdlib's name
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            r = box[0]
            with lock:
                n = len(r.received)
                r.received.append(Received({k.lower(): v for k, v in self.headers.items()}, body, time.monotonic()))
            time.sleep(r.delay(n))
            self.send_response(r.answer(n))
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    box.append(Receiver(f"http://127.0.0.1:{server.server_port}/hook"))
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": QUICK_POLL}, daemon=True)
    thread.start()
    try:
        yield box[0]
    finally:
        server.shutdown()
        server.server_close()
