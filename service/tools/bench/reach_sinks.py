"""Where ``bench notify`` sends: an SMTP server (aiosmtpd) and a Web Push endpoint (a plain
HTTP server answering 201 as a push service does) on loopback ports, each noting when it
accepted what, and for whom. Neither reads what it is sent: the tests' own SMTP server and
push service check the messages (tests/support); here only the moment of acceptance counts."""
from __future__ import annotations

import base64
import os
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


class Accepted:
    """Moments of acceptance (``time.monotonic()``) per recipient: an address or a push id."""

    def __init__(self) -> None:
        self.at: dict[str, list[float]] = {}
        self._lock = threading.Lock()

    def note(self, who: str) -> None:
        with self._lock:
            self.at.setdefault(who, []).append(time.monotonic())

    def count(self) -> int:
        with self._lock:
            return sum(len(v) for v in self.at.values())


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def smtp_sink() -> Iterator[tuple[str, Accepted]]:
    """(smtp:// URL, what it accepted by recipient)."""
    from aiosmtpd.controller import Controller

    accepted = Accepted()

    class Handler:
        async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
            for rcpt in envelope.rcpt_tos:
                accepted.note(rcpt)
            return "250 OK"

    port = _free_port()
    controller = Controller(Handler(), hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield f"smtp://127.0.0.1:{port}", accepted
    finally:
        controller.stop()


@contextmanager
def push_sink() -> Iterator[tuple[str, Accepted]]:
    """(the endpoints' origin, what it accepted by subscription id: ``{origin}/push/<id>``)."""
    accepted = Accepted()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802
            self.rfile.read(int(self.headers.get("Content-Length", "0") or 0))
            accepted.note(self.path.rsplit("/", 1)[-1])
            self.send_response(201)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    class Server(ThreadingHTTPServer):
        request_queue_size = 256  # the senders connect 8 at a time, and bursts queue (the default 5 refused some)
        daemon_threads = True

    server = Server(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}", accepted
    finally:
        server.shutdown()
        server.server_close()


def browser_keys() -> tuple[str, bytes]:
    """A subscription's keys as a browser makes them: (p256dh base64url, 16-octet auth)."""
    key = ec.generate_private_key(ec.SECP256R1()).public_key()
    raw = key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode(), os.urandom(16)
