"""The load generator's wire: one bare keep-alive HTTP/1.1 connection per client, and the
``requests``-like session the SDK's clients use over it in ``bench api``."""
from __future__ import annotations

import socket
from typing import Any

import orjson
import requests


class Conn:
    """One keep-alive HTTP/1.1 connection on a plain socket, for the load generator.

    ``http.client`` parses every response's headers with the ``email`` package and
    ``requests`` scans the environment for proxies on every request: on a 2-core machine
    the load generator shares the CPU with the server, so it should cost as little as a
    real remote client would cost the server's machine (nothing). This client sends one
    request at a time, reads ``Content-Length`` bodies only (the API never chunks a
    non-streaming answer), and parses JSON with orjson. Every request still carries the
    acting seat's own bearer token.
    """

    def __init__(self, base: str, timeout: float = 60) -> None:
        host, _, port = base.removeprefix("http://").partition(":")
        self.host, self.port, self.timeout = host, int(port or 80), timeout
        self.sock: socket.socket | None = None
        self.buf = b""

    def _connect(self) -> socket.socket:
        sock = socket.create_connection((self.host, self.port), timeout=self.timeout)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = b""
        return sock

    def _recv(self, sock: socket.socket) -> None:
        data = sock.recv(262144)
        if not data:
            raise ConnectionResetError("the server closed the connection")
        self.buf += data

    def _response(self, sock: socket.socket) -> tuple[int, bytes, bytes]:
        """(status, header block, body) of the next response on the connection."""
        while (end := self.buf.find(b"\r\n\r\n")) < 0:
            self._recv(sock)
        head, rest = self.buf[:end], self.buf[end + 4:]
        status = int(head[9:12])
        length = 0
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.lower() == b"content-length":
                length = int(value)
        self.buf = rest
        while len(self.buf) < length:
            self._recv(sock)
        body, self.buf = self.buf[:length], self.buf[length:]
        return status, head, body

    def request(self, method: str, path: str, body: Any = None, token: str | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, Any, bytes]:
        """(status, parsed JSON or None, raw body); reconnects once if the server closed an idle connection."""
        status, parsed, raw, _ = self.exchange(method, path, body, token, headers)
        return status, parsed, raw

    def exchange(self, method: str, path: str, body: Any = None, token: str | None = None,
                 headers: dict[str, str] | None = None) -> tuple[int, Any, bytes, bytes]:
        """As :meth:`request`, with the response's header block."""
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}", "Accept: application/json"]
        data = b""
        if body is not None:
            data = orjson.dumps(body)
            lines.append("Content-Type: application/json")
        if token is not None:
            lines.append("Authorization: Bearer " + token)
        for name, value in (headers or {}).items():
            if name.lower() not in ("accept", "content-type", "content-length", "host"):
                lines.append(f"{name}: {value}")
        lines.append(f"Content-Length: {len(data)}")
        wire = ("\r\n".join(lines) + "\r\n\r\n").encode() + data
        for attempt in (0, 1):
            fresh = self.sock is None
            if self.sock is None:
                self.sock = self._connect()
            try:
                self.sock.sendall(wire)
                status, head, raw = self._response(self.sock)
                break
            except (ConnectionResetError, BrokenPipeError):
                # an idle keep-alive connection the server closed before reading the request
                self.close()
                if attempt or fresh:
                    raise
        if b"connection: close" in head.lower():
            self.close()
        parsed = orjson.loads(raw) if raw and b"json" in head.lower() else None
        return status, parsed, raw, head

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
            self.sock = None


class _LeanResponse:
    """What the SDK reads of a ``requests.Response``: status, headers, body, JSON."""

    def __init__(self, status: int, parsed: Any, raw: bytes, head: bytes) -> None:
        self.status_code, self._parsed, self.content = status, parsed, raw
        self.headers = {}
        for line in head.decode("latin-1").split("\r\n")[1:]:
            name, _, value = line.partition(":")
            self.headers[name.strip().title()] = value.strip()

    @property
    def text(self) -> str:
        return self.content.decode(errors="replace")

    def json(self) -> Any:
        return self._parsed


class LeanSession:
    """The transport the SDK's client gets in ``bench api``: ``requests.Session``'s interface
    over one bare keep-alive socket (:class:`Conn`). The load generator shares the machine's
    two cores with the server and its database, so it should cost as little as a remote
    client would (nothing here); the SDK's own logic (keys, retries, models) runs as usual."""

    trust_env = False

    def __init__(self, base: str) -> None:
        self.base = base.rstrip("/")
        self.conn = Conn(self.base)

    def request(self, method: str, url: str, json: Any = None, params: dict[str, Any] | None = None,
                headers: dict[str, str] | None = None, timeout: float | None = None) -> _LeanResponse:
        from urllib.parse import urlencode

        path = url[len(self.base):] if url.startswith(self.base) else url
        if params:
            path += "?" + urlencode(params)
        try:
            status, parsed, raw, head = self.conn.exchange(method, path, json, None, headers)
        except OSError as exc:
            raise requests.ConnectionError(str(exc)) from exc
        return _LeanResponse(status, parsed, raw, head)

    def close(self) -> None:
        self.conn.close()
