"""What ``facedown serve`` answers to requests broken below the API, over a raw socket.

gunicorn refuses a request it cannot parse before Flask sees it, with its own small HTML
page: those cases are listed in docs/problems-from-the-server.md, and this test keeps
that list true. Everything gunicorn passes on is answered by the app, as problem+json."""
from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

from service.tools.bench.http import Server

HOST = b"Host: test\r\n"
# name -> (raw request, status, who answers: "gunicorn" (text/html) or "app" (problem+json))
CASES: dict[str, tuple[bytes, int, str]] = {
    "malformed request line": (b"GARBAGE\r\n\r\n", 400, "gunicorn"),
    "HTTP/0.9 request": (b"GET /\r\n", 400, "gunicorn"),
    "unsupported HTTP version": (b"GET / HTTP/3.0\r\n" + HOST + b"\r\n", 400, "gunicorn"),
    "HTTP/2 preface": (b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 400, "gunicorn"),
    "bad method characters": (b"G(T / HTTP/1.1\r\n" + HOST + b"\r\n", 400, "gunicorn"),
    "NUL in the path": (b"GET /v1/\x00games HTTP/1.1\r\n" + HOST + b"\r\n", 400, "gunicorn"),
    "non-ASCII byte in the path": (b"GET /v1/g\xe9mes HTTP/1.1\r\n" + HOST + b"\r\n", 400, "gunicorn"),
    "bare LF line ends": (b"GET /healthz HTTP/1.1\nHost: test\n\n", 400, "gunicorn"),
    "request line over 4094 bytes": (b"GET /" + b"a" * 5000 + b" HTTP/1.1\r\n" + HOST + b"\r\n", 414, "gunicorn"),
    "more than 100 headers": (b"GET /healthz HTTP/1.1\r\n" + HOST
                              + b"".join(b"X-H%d: v\r\n" % i for i in range(120)) + b"\r\n", 431, "gunicorn"),
    "a header over 8190 bytes": (b"GET /healthz HTTP/1.1\r\n" + HOST + b"X-Big: " + b"v" * 9000 + b"\r\n\r\n",
                                 431, "gunicorn"),
    "invalid header name": (b"GET /healthz HTTP/1.1\r\n" + HOST + b"Bad Header: v\r\n\r\n", 400, "gunicorn"),
    "header line without a colon": (b"GET /healthz HTTP/1.1\r\n" + HOST + b"NoColon\r\n\r\n", 400, "gunicorn"),
    "space before the colon": (b"GET /healthz HTTP/1.1\r\nHost : test\r\n\r\n", 400, "gunicorn"),
    "obsolete line folding": (b"GET /healthz HTTP/1.1\r\n" + HOST + b"X-A: a\r\n b\r\n\r\n", 400, "gunicorn"),
    "Content-Length not a number": (b"POST /v1/players HTTP/1.1\r\n" + HOST + b"Content-Length: abc\r\n\r\n",
                                    400, "gunicorn"),
    "two Content-Lengths": (b"POST /v1/players HTTP/1.1\r\n" + HOST + b"Content-Length: 2\r\nContent-Length: 3"
                            b"\r\n\r\n{}", 400, "gunicorn"),
    "Transfer-Encoding with Content-Length": (b"POST /v1/players HTTP/1.1\r\n" + HOST + b"Transfer-Encoding: "
                                              b"chunked\r\nContent-Length: 4\r\n\r\n0\r\n\r\n", 400, "gunicorn"),
    "unknown Transfer-Encoding": (b"POST /v1/players HTTP/1.1\r\n" + HOST + b"Transfer-Encoding: gzip\r\n\r\n",
                                  400, "gunicorn"),
    # gunicorn passes these on: the app answers
    "a malformed chunk in the body": (b"POST /v1/players HTTP/1.1\r\n" + HOST + b"Transfer-Encoding: chunked\r\n"
                                      b"Content-Type: application/json\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n", 400, "app"),
    "a bad percent-escape in the path": (b"GET /v1/games/%zz HTTP/1.1\r\n" + HOST + b"\r\n", 404, "app"),
    "CONNECT": (b"CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n", 404, "app"),
    "a body over 64 KiB": (b"POST /v1/players HTTP/1.1\r\n" + HOST + b"Content-Type: application/json\r\n"
                           b"Content-Length: 100000\r\n\r\n" + b" " * 100_000, 413, "app"),
}


@pytest.fixture(scope="module")
def server(db_factory: object) -> Iterator[Server]:
    with Server(db_factory.new(), workers=1, threads=4) as running:  # type: ignore[attr-defined]
        yield running


def _send(port: int, raw: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(raw)
        sock.shutdown(socket.SHUT_WR)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    return data


@pytest.mark.parametrize("name", list(CASES))
def test_a_request_broken_below_the_api_gets_the_documented_answer(server: Server, name: str) -> None:
    raw, status, who = CASES[name]
    head, _, body = _send(server.port, raw).partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    assert lines[0].split(" ")[1] == str(status), (name, lines[0])
    content_type = next(line.split(":", 1)[1].strip() for line in lines if line.lower().startswith("content-type"))
    if who == "gunicorn":
        assert content_type == "text/html" and b"<html>" in body, (name, content_type)
    else:
        assert content_type == "application/problem+json" and b'"status": %d' % status in body, (name, body[:200])
