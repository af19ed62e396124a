"""A fixed corpus of malformed requests, sent byte for byte on a bare socket: bad JSON,
duplicate keys, wrong content types, huge bodies, bad UTF-8, non-ASCII digits in query
integers, invalid tokens, bad paths, broken HTTP framing. Each must be refused with a 4xx
(``application/problem+json`` when it reaches the service; gunicorn refuses malformed HTTP
itself, docs/problems-from-the-server.md), never a 5xx, never accepted."""
from __future__ import annotations

import socket
import uuid
from collections import Counter
from dataclasses import dataclass

import requests

from facedown_client import Client
from service.tools.check.harness import Row


@dataclass(frozen=True)
class Answer:
    status: int | None  # None: the connection closed with no answer
    content_type: str


def _request(method: str, path: str, body: bytes = b"", token: str | None = None,
             content_type: str | None = "application/json", extra: str = "", length: int | None = None) -> bytes:
    head = f"{method} {path} HTTP/1.1\r\nHost: check\r\nConnection: close\r\n"
    if token:
        head += f"Authorization: Bearer {token}\r\n"
    if content_type:
        head += f"Content-Type: {content_type}\r\n"
    if body or length is not None or method == "POST":
        head += f"Content-Length: {len(body) if length is None else length}\r\n"
    return head.encode("latin-1") + extra.encode("latin-1") + b"\r\n" + body


def cases(token: str, game: str) -> list[tuple[str, bytes]]:
    """(name, the request's bytes) for every request of the corpus."""
    g = f"/v1/games/{game}"
    cmd = f"{g}/commands"
    nested = b"[" * 100_000 + b"]" * 100_000
    return [
        ("truncated JSON", _request("POST", "/v1/players", b'{"name": ')),
        ("JSON with a trailing comma", _request("POST", "/v1/players", b'{"name": "a",}')),
        ("duplicate keys", _request("POST", "/v1/players", b'{"name": "a", "name": "b"}')),
        ("duplicate keys in a command", _request("POST", cmd, b'{"type": "Draw", "type": "Pass"}', token)),
        ("NaN", _request("POST", "/v1/players", b'{"name": NaN}')),
        ("an integer of 5,000 digits", _request("POST", cmd, b'{"type": "Draw", "n": ' + b"9" * 5000 + b"}", token)),
        ("JSON nested 100,000 deep", _request("POST", cmd, nested, token)),
        ("a JSON array", _request("POST", "/v1/players", b"[]")),
        ("a JSON string", _request("POST", "/v1/games", b'"corte"', token)),
        ("an empty JSON body", _request("POST", "/v1/players", b"")),
        ("text/plain", _request("POST", "/v1/players", b'{"name": "a"}', content_type="text/plain")),
        ("no Content-Type", _request("POST", "/v1/players", b'{"name": "a"}', content_type=None)),
        ("a form", _request("POST", "/v1/players", b"name=a", content_type="application/x-www-form-urlencoded")),
        ("JSON in latin-1", _request("POST", "/v1/players", '{"name": "é"}'.encode("latin-1"),
                                     content_type="application/json; charset=latin-1")),
        ("bad UTF-8", _request("POST", "/v1/players", b'{"name": "\xff\xfe\xc3"}')),
        ("a lone surrogate", _request("POST", "/v1/players", b'{"name": "\\ud800"}')),
        ("a NUL character", _request("POST", "/v1/players", b'{"name": "a\\u0000b"}')),
        ("a NUL in a command", _request("POST", cmd, b'{"type": "Draw\\u0000"}', token)),
        ("a body of 2 MB", _request("POST", "/v1/players", b'{"name": "' + b"a" * 2_000_000 + b'"}')),
        ("Content-Length of 10^12", _request("POST", "/v1/players", b"{}", length=10**12)),
        ("a negative Content-Length", _request("POST", "/v1/players", b"{}", length=-1)),
        ("Content-Length and chunked", _request("POST", "/v1/players", b'{"name": "a"}',
                                                extra="Transfer-Encoding: chunked\r\n")),
        ("a bad chunk size", b"POST /v1/players HTTP/1.1\r\nHost: check\r\nConnection: close\r\n"
                             b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                             b"zz\r\n{}\r\n0\r\n\r\n"),
        ("Arabic-Indic digits in ?limit, raw",
         _request("GET", "/v1/games?limit=\u0661\u0662".encode().decode("latin-1"), content_type=None)),
        ("Arabic-Indic digits in ?limit, escaped", _request("GET", "/v1/games?limit=%D9%A1%D9%A2", content_type=None)),
        ("fullwidth digits in ?after", _request("GET", f"{g}/events?after=%EF%BC%91", token=token, content_type=None)),
        ("superscript digits in ?wait",
         _request("GET", f"{g}/events?after=0&wait=%C2%B2", token=token, content_type=None)),
        ("a negative ?after", _request("GET", f"{g}/events?after=-1", token=token, content_type=None)),
        ("an ?after of 30 digits", _request("GET", f"{g}/events?after={'9' * 30}", token=token, content_type=None)),
        ("a float ?limit", _request("GET", "/v1/games?limit=1e3", content_type=None)),
        ("Arabic-Indic digits in If-Match", _request("POST", cmd, b'{"type": "Draw"}', token,
                                                     extra='If-Match: "\u0661"\r\n'.encode().decode("latin-1"))),
        ("an unknown token", _request("GET", "/v1/me/games", token="fd_" + "x" * 40, content_type=None)),
        ("a token of 10 KB", _request("GET", "/v1/me/games", token="x" * 10_000, content_type=None)),
        ("a token with non-ASCII bytes", _request("GET", "/v1/me/games", content_type=None,
                                                  extra="Authorization: Bearer \xff\xfe\r\n")),
        ("Basic instead of Bearer", _request("GET", "/v1/me/games", content_type=None,
                                             extra="Authorization: Basic YTpi\r\n")),
        ("a game id that is not a UUID", _request("GET", "/v1/games/not-a-uuid", content_type=None)),
        ("a NUL in the path", _request("GET", "/v1/games/%00", content_type=None)),
        ("a path that climbs", _request("GET", "/v1/../../etc/passwd", content_type=None)),
        ("a path of 9,000 characters", _request("GET", "/v1/games/" + "a" * 9000, content_type=None)),
        ("an unknown game", _request("GET", f"/v1/games/{uuid.uuid4()}/view", token=token, content_type=None)),
        ("GET on the commands", _request("GET", cmd, token=token, content_type=None)),
        ("PATCH a player", _request("PATCH", "/v1/players", b"{}")),
        ("an unknown method", _request("BREW", "/v1/players", content_type=None)),
        ("an invalid header name", _request("GET", "/v1/rulesets", content_type=None, extra="Bad Header: x\r\n")),
        ("a header of 64 KB", _request("GET", "/v1/rulesets", content_type=None, extra=f"X-Big: {'a' * 65536}\r\n")),
        ("not HTTP", b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(range(64)) + b"\r\n\r\n"),
    ]


def exchange(port: int, data: bytes, timeout: float = 15) -> Answer:
    """Send ``data`` and read the answer's status line and Content-Type."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        try:
            s.sendall(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server answered early (a body too large) and closed: read its answer
        got = b""
        try:
            while b"\r\n\r\n" not in got and len(got) < 65536:
                chunk = s.recv(65536)
                if not chunk:
                    break
                got += chunk
        except (ConnectionResetError, socket.timeout):
            pass
    if not got.startswith(b"HTTP/"):
        return Answer(None, "")
    head = got.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
    ctype = next((h.split(":", 1)[1].strip() for h in head[1:] if h.lower().startswith("content-type:")), "")
    return Answer(int(head[0].split()[1]), ctype)


def run(base: str, port: int) -> Row:
    # a player of its own: the fuzzer before it may have revoked its token (DELETE /v1/me/tokens/{id})
    client = Client(base)
    client.register("corpus")
    token = str(client.token)
    game = client.create_game("corte", 2).id
    answers = [(name, exchange(port, data)) for name, data in cases(token, game)]
    by_class = Counter("none" if a.status is None else f"{a.status // 100}xx" for _, a in answers)
    server_errors = [f"{name}: {a.status}" for name, a in answers if a.status is not None and a.status >= 500]
    accepted = [f"{name}: {a.status}" for name, a in answers if a.status is not None and a.status < 400]
    not_problem = [name for name, a in answers
                   if a.status is not None and 400 <= a.status < 500 and a.content_type != "application/problem+json"]
    healthz = requests.get(base + "/healthz", timeout=5).status_code
    figures = {"requests": len(answers), "4xx": by_class["4xx"], "5xx": len(server_errors),
               "accepted": len(accepted), "closed without an answer": by_class["none"],
               "4xx not problem+json (gunicorn's own)": len(not_problem), "healthz after": healthz}
    notes = server_errors + accepted
    if not_problem:
        notes.append("refused by gunicorn before the app: " + ", ".join(not_problem))
    return Row("hostile input", "malformed requests (a fixed corpus)", figures,
               not server_errors and not accepted and healthz == 200, "; ".join(notes))
