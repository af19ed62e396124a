"""A request body is read within a deadline, or the request ends with ``408``.

gunicorn hands the application a socket to read the body from, without a deadline: a client
that sends its headers and half a body, then stalls, would hold the request for as long as
it likes. This WSGI middleware reads the whole body first (bodies are small: the limit is
``max_body_bytes``) with the socket's timeout set to what is left of the deadline, then
passes it on in memory. It works the same under the gevent and the thread workers.
"""
from __future__ import annotations

import io
import json
import socket
import time
from collections.abc import Callable, Iterable
from typing import Any

from service.model.problems import BASE, PROBLEMS

StartResponse = Callable[..., Any]


class _ThenClose(list[bytes]):
    """A response after which the connection ends: the rest of an unread body must never be
    taken for the next request. (gunicorn ignores an application's ``Connection: close``;
    shutting the socket for reading makes it see the end of the connection instead.)"""

    def __init__(self, body: bytes, sock: Any) -> None:
        super().__init__([body])
        self.sock = sock

    def close(self) -> None:
        try:
            self.sock.shutdown(socket.SHUT_RD)
        except OSError:
            pass


def _problem(start_response: StartResponse, slug: str, detail: str, sock: Any) -> list[bytes]:
    status, title = PROBLEMS[slug].status, PROBLEMS[slug].title
    body = json.dumps({"type": BASE + slug, "title": title, "status": status, "detail": detail}).encode()
    reason = {408: "Request Timeout", 413: "Payload Too Large", 400: "Bad Request"}[status]
    start_response(f"{status} {reason}", [("Content-Type", "application/problem+json"),
                                          ("Content-Length", str(len(body))), ("Connection", "close")])
    return _ThenClose(body, sock)


class BodyDeadline:
    """Wraps a WSGI app: bodies are read within ``seconds``, at most ``limit`` bytes."""

    def __init__(self, app: Callable[..., Iterable[bytes]], seconds: float, limit: int) -> None:
        self.app, self.seconds, self.limit = app, seconds, limit

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        sock = environ.get("gunicorn.socket")
        length = environ.get("CONTENT_LENGTH") or ""
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        if sock is None or self.seconds <= 0 or (not chunked and length in ("", "0")):
            return self.app(environ, start_response)
        if length.isdigit() and int(length) > self.limit:
            return _problem(start_response, "payload-too-large", f"the body is over {self.limit} bytes", sock)
        deadline = time.monotonic() + self.seconds
        body, size = io.BytesIO(), 0
        stream = environ["wsgi.input"]
        previous = sock.gettimeout()
        try:
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError
                sock.settimeout(left)
                chunk = stream.read(min(65536, self.limit + 1 - size))
                if not chunk:
                    break
                body.write(chunk)
                size += len(chunk)
                if size > self.limit:
                    return _problem(start_response, "payload-too-large", f"the body is over {self.limit} bytes", sock)
        except (TimeoutError, socket.timeout):
            return _problem(start_response, "request-timeout",
                            f"the request body did not arrive within {self.seconds:g} s", sock)
        except OSError:
            return _problem(start_response, "bad-request", "the connection failed while the body was read", sock)
        except Exception as exc:  # noqa: BLE001 - gunicorn's parser refuses a malformed body (a bad chunk)
            return _problem(start_response, "bad-request", f"the body is malformed: {exc}"[:300], sock)
        finally:
            try:
                sock.settimeout(previous)
            except OSError:
                pass
        environ["wsgi.input"] = io.BytesIO(body.getvalue())
        environ["CONTENT_LENGTH"] = str(size)
        environ.pop("HTTP_TRANSFER_ENCODING", None)
        return self.app(environ, start_response)
