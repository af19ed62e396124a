"""Resource exhaustion: many waits whose client vanishes (long-polls and streams, held by one
process that is then killed), and clients that stall in their headers or their body. The
server must let go of the abandoned ones within seconds, cut the stalled ones off within its
timeouts, and keep answering ``/healthz`` all along."""
from __future__ import annotations

import selectors
import socket
import threading
import time
from typing import Any

import requests

from service.tools.bench.http import Server
from service.tools.bench.stream import probe_healthz, release
from service.tools.check.harness import SERVER_ENV, Row, Settings

HEADER_TIMEOUT = float(SERVER_ENV["FACEDOWN_HEADER_TIMEOUT_SECONDS"])
BODY_TIMEOUT = float(SERVER_ENV["FACEDOWN_BODY_TIMEOUT_SECONDS"])


def run(settings: Settings) -> list[Row]:
    say = settings.progress
    with settings.served() as (_, srv):
        assert srv.proc is not None
        token, game, version = _game(srv.url)
        rows = []
        count = settings.pick(2000, 100)
        figures: dict[str, Any] = {}
        for kind, path in (("long-polls", f"/v1/games/{game}/events?after={version + 10**6}&wait=30"),
                           ("streams", f"/v1/games/{game}/events/stream?after={version}")):
            say(f"exhaustion: {count} abandoned {kind}")
            r = release(srv.port, path, token, count)
            figures |= {f"{kind} abandoned": count, f"{kind} held": r["held_by_server"],
                        f"{kind} released after s": r["released_seconds"], f"{kind} left": r["left_after"]}
        ok = all(figures[f"{k} held"] >= 0.98 * count and figures[f"{k} left"] <= 0
                 and figures[f"{k} released after s"] < 10 for k in ("long-polls", "streams"))
        rows.append(Row("resource exhaustion", "abandoned waits", figures, ok))
        stalled = settings.pick(500, 30)
        say(f"exhaustion: {stalled} clients stalled in their headers")
        rows.append(_stalled(srv, "stalled headers", HEADER_TIMEOUT, stalled,
                             b"GET /v1/rulesets HTTP/1.1\r\nHost: check\r\nX-Slow: "))
        say(f"exhaustion: {stalled} clients stalled in their body")
        rows.append(_stalled(srv, "stalled bodies", BODY_TIMEOUT, stalled,
                             b"POST /v1/players HTTP/1.1\r\nHost: check\r\nContent-Type: application/json\r\n"
                             b"Content-Length: 100\r\n\r\n{\"name\": "))
    return rows


def _game(base: str) -> tuple[str, str, int]:
    tokens = [requests.post(base + "/v1/players", json={"name": f"w{i}"}, timeout=10).json()["token"]
              for i in range(2)]
    game = requests.post(base + "/v1/games", json={"ruleset": "pedro", "seats": 2},
                         headers={"Authorization": f"Bearer {tokens[0]}"}, timeout=10).json()["id"]
    requests.post(f"{base}/v1/games/{game}/join", headers={"Authorization": f"Bearer {tokens[1]}"},
                  timeout=10).raise_for_status()
    return tokens[0], game, int(requests.get(f"{base}/v1/games/{game}", timeout=10).json()["version"])


def _stalled(srv: Server, test: str, timeout: float, count: int, start: bytes) -> Row:
    """``count`` clients send ``start`` and then nothing: when is each cut off, with what answer."""
    probed: list[float] = []
    stop = threading.Event()
    prober = threading.Thread(target=probe_healthz, args=(srv.url, stop, probed), daemon=True)
    prober.start()
    opened = time.monotonic()
    socks = []
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", srv.port), timeout=10)
        s.sendall(start)
        s.setblocking(False)
        socks.append(s)
    cut, answers = _until_closed(socks, timeout + 30)
    stop.set()
    prober.join()
    after = [t - opened for t in cut.values()]
    figures = {"clients": count, "timeout s": timeout, "cut off": len(cut),
               "slowest cut-off s": round(max(after), 2) if after else None,
               "answers": dict(sorted(answers.items())),
               "healthz answers while stalled": len(probed),
               "healthz max ms": round(max(probed), 1) if probed else None}
    ok = (len(cut) == count and max(after) < timeout + 3 and bool(probed) and max(probed) < 1000
          and set(answers) <= {"408", "400", "none"})
    return Row("resource exhaustion", test, figures, ok)


def _until_closed(socks: list[socket.socket], limit: float) -> tuple[dict[int, float], dict[str, int]]:
    """When the server closed each socket, and the status each got before (``none``: closed silently)."""
    sel = selectors.DefaultSelector()
    got: dict[int, bytes] = {}
    for s in socks:
        sel.register(s, selectors.EVENT_READ)
        got[s.fileno()] = b""
    closed: dict[int, float] = {}
    answers: dict[str, int] = {}
    deadline = time.monotonic() + limit
    while len(closed) < len(socks) and time.monotonic() < deadline:
        for key, _ in sel.select(timeout=0.5):
            s = key.fileobj
            assert isinstance(s, socket.socket)
            try:
                chunk = s.recv(65536)
            except (ConnectionResetError, BlockingIOError):
                chunk = b""
            if chunk:
                got[s.fileno()] += chunk
                continue
            status = got[s.fileno()][9:12].decode() if got[s.fileno()].startswith(b"HTTP/") else "none"
            answers[status] = answers.get(status, 0) + 1
            closed[s.fileno()] = time.monotonic()
            sel.unregister(s)
            s.close()
    for s in socks:
        if s.fileno() >= 0:
            s.close()
    return closed, answers
