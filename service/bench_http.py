"""Load generation over real HTTP for ``facedown bench api`` and ``bench stream``.

A client is a process (so that client-side Python does not share the server's GIL)
that plays whole games through the public API only: each seat registers its own
player and token, reads its own ``/view`` and posts one of its ``legal_actions``
chosen by a bot that sees that view alone.
"""
from __future__ import annotations

import os
import random
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from typing import Any

import orjson
import requests

from domain import bots


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_ready(proc: subprocess.Popen[bytes], url: str, seconds: float = 60) -> None:
    """Wait until the server child answers ``/readyz`` with 200 (or fail with its stderr)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("the server exited: " + (proc.stderr.read() if proc.stderr else b"").decode()[-2000:])
        try:
            if requests.get(url + "/readyz", timeout=1).status_code == 200:
                return
        except requests.RequestException:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"the server did not become ready within {seconds:.0f} s")


@dataclass
class Server:
    """``facedown serve`` (gunicorn) in a child process, on a loopback port."""

    database_url: str
    workers: int = 2
    threads: int = 32
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> Server:
        # a bench seat sends up to ~100 requests/s, more than the per-caller limit meant for
        # players: the benchmark server runs without it (everything else as `facedown serve`)
        env = {**os.environ, "DATABASE_URL": self.database_url, "FACEDOWN_LOG_LEVEL": "warning",
               "FACEDOWN_RATE_LIMIT_PER_SECOND": "0"}
        cmd = [sys.executable, "-c", "from service.cli import main; main()", "serve", "--port", str(self.port),
               "--workers", str(self.workers), "--threads", str(self.threads)]
        self.proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        wait_ready(self.proc, self.url)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()


@dataclass
class ClientResult:
    games: int = 0
    commands: int = 0
    # time.monotonic() (one clock for every process on the machine) of the client's first
    # request and last response: the run is timed from the first to the last, without the
    # client processes' start-up
    started: float = 0.0
    ended: float = 0.0
    errors: list[str] = field(default_factory=list)
    command_ms: list[float] = field(default_factory=list)
    view_ms: list[float] = field(default_factory=list)
    command_at: list[float] = field(default_factory=list)  # time.monotonic() of each command's answer
    # bytes of the answers' bodies: the stack floor answers with bodies of the same sizes
    command_bytes: int = 0
    view_bytes: int = 0
    cpu_seconds: float = 0.0  # the client process's own CPU over its run


def steady_rate(results: list[ClientResult]) -> tuple[float, float]:
    """(commands/s, seconds) over the window in which every client was playing: from the last
    client's first request to the first client's last answer. Outside it fewer clients play
    (the slowest games end alone), which is not the load of C clients."""
    start, end = max(r.started for r in results), min(r.ended for r in results)
    if end <= start:
        return 0.0, 0.0
    done = sum(1 for r in results for at in r.command_at if start <= at <= end)
    return done / (end - start), end - start


class Seat:
    """One seat's player: its own token and keep-alive session."""

    def __init__(self, base: str, name: str) -> None:
        self.base = base
        self.http = requests.Session()
        r = self.http.post(base + "/v1/players", json={"name": name}, timeout=30)
        r.raise_for_status()
        self.http.headers["Authorization"] = "Bearer " + r.json()["token"]

    def get(self, path: str) -> requests.Response:
        return self.http.get(self.base + path, timeout=60)

    def post(self, path: str, body: Any) -> requests.Response:
        return self.http.post(self.base + path, json=body, timeout=60)


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

    def request(self, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any, bytes]:
        """(status, parsed JSON or None, raw body); reconnects once if the server closed an idle connection."""
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}", "Accept: application/json"]
        data = b""
        if body is not None:
            data = orjson.dumps(body)
            lines.append("Content-Type: application/json")
        if token is not None:
            lines.append("Authorization: Bearer " + token)
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
        return status, parsed, raw

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
            self.sock = None


class Player:
    """One seat's player, as a real one: its own registration, token and keep-alive connection
    (so that the seats of a game reach the server's workers independently)."""

    def __init__(self, base: str, name: str) -> None:
        self.conn = Conn(base)
        status, body, raw = self.conn.request("POST", "/v1/players", {"name": name})
        if status != 201:
            raise RuntimeError(f"register: {status} {raw[:200]!r}")
        self.token = body["token"]

    def get(self, path: str) -> tuple[int, Any, bytes]:
        return self.conn.request("GET", path, token=self.token)

    def post(self, path: str, body: Any) -> tuple[int, Any, bytes]:
        return self.conn.request("POST", path, body, token=self.token)

    def close(self) -> None:
        self.conn.close()


def play_one_game(base: str, ruleset: str, seats: int, options: dict[str, Any], bot: str, rng: random.Random,
                  out: ClientResult, max_commands: int = 5000) -> None:
    """Create a game, fill its seats, and play it to the end; latencies go into ``out``."""
    policy = bots.policy(ruleset, bot)
    players = [Player(base, f"bench-{i}") for i in range(seats)]
    try:
        _play(players, ruleset, seats, options, policy, rng, out, max_commands)
    finally:
        for p in players:
            p.close()


def _play(players: list[Player], ruleset: str, seats: int, options: dict[str, Any], policy: Any,
          rng: random.Random, out: ClientResult, max_commands: int) -> None:
    status, body, raw = players[0].post("/v1/games", {"ruleset": ruleset, "seats": seats, "options": options})
    if status != 201:
        out.errors.append(f"create: {status} {raw[:200]!r}")
        return
    gid = body["id"]
    for p in players[1:]:
        status, body, raw = p.post(f"/v1/games/{gid}/join", {})
        if status != 200:
            out.errors.append(f"join: {status} {raw[:200]!r}")
            return
    t0 = time.perf_counter()
    status, view, raw = players[0].get(f"/v1/games/{gid}/view")
    out.view_ms.append((time.perf_counter() - t0) * 1000)
    out.view_bytes += len(raw)
    if status != 200:
        out.errors.append(f"view: {status} {raw[:200]!r}")
        return
    for _ in range(max_commands):
        if view["status"] == "finished":
            out.games += 1
            return
        if not view["awaiting"]:
            out.errors.append(f"game {gid}: active but nobody is awaited")
            return
        seat = view["awaiting"][0]
        if view.get("seat") != seat:
            t0 = time.perf_counter()
            status, view, raw = players[seat].get(f"/v1/games/{gid}/view")
            out.view_ms.append((time.perf_counter() - t0) * 1000)
            out.view_bytes += len(raw)
            if status != 200:
                out.errors.append(f"view: {status} {raw[:200]!r}")
                return
        actions = view["legal_actions"]
        if not actions:
            out.errors.append(f"game {gid}: awaited seat {seat} has no legal action")
            return
        action = policy(view["table"], actions, rng, True) or actions[rng.randrange(len(actions))]
        t0 = time.perf_counter()
        status, body, raw = players[seat].post(f"/v1/games/{gid}/commands", action)
        out.command_ms.append((time.perf_counter() - t0) * 1000)
        out.command_at.append(time.monotonic())
        out.command_bytes += len(raw)
        if status != 200:
            out.errors.append(f"command {action}: {status} {raw[:200]!r}")
            return
        out.commands += 1
        view = body["view"]
    out.errors.append(f"game {gid}: not finished after {max_commands} commands")


def client(args: tuple[str, str, int, dict[str, Any], str, int, int]) -> ClientResult:
    """One client process: play ``games`` games one after another."""
    base, ruleset, seats, options, bot, games, seed = args
    rng = random.Random(seed)
    out = ClientResult(started=time.monotonic())
    cpu = time.process_time()
    for _ in range(games):
        try:
            play_one_game(base, ruleset, seats, options, bot, rng, out)
        except (OSError, ValueError) as exc:
            out.errors.append(f"http: {type(exc).__name__}: {exc}")
    out.ended = time.monotonic()
    out.cpu_seconds = time.process_time() - cpu
    return out


class LocalSeat:
    """A seat driven through the app in-process (Flask test client): to build long games fast."""

    def __init__(self, client: Any, name: str) -> None:
        self.client = client
        r = client.post("/v1/players", json={"name": name})
        self.token = r.get_json()["token"]
        self.headers = {"Authorization": "Bearer " + self.token}

    def get(self, path: str) -> Any:
        return self.client.get(path, headers=self.headers).get_json()

    def post(self, path: str, body: Any) -> tuple[int, Any]:
        r = self.client.post(path, json=body, headers=self.headers)
        return r.status_code, r.get_json()


def build_long_game(client: Any, ruleset: str, options: dict[str, Any], seats: int, events: int,
                    rng: random.Random) -> tuple[str, list[str]]:
    """A game played in-process by greedy bots until it holds at least ``events`` events."""
    policy = bots.policy(ruleset, "greedy")
    players = [LocalSeat(client, f"long-{i}") for i in range(seats)]
    status, body = players[0].post("/v1/games", {"ruleset": ruleset, "seats": seats, "options": options})
    if status != 201:
        raise RuntimeError(f"create: {status} {body}")
    gid = body["id"]
    for p in players[1:]:
        p.post(f"/v1/games/{gid}/join", {})
    view = players[0].get(f"/v1/games/{gid}/view")
    while view["version"] < events:
        if view["status"] != "active":
            raise RuntimeError(f"game ended at {view['version']} events; choose options for a longer game")
        seat = view["awaiting"][0]
        if view["seat"] != seat:
            view = players[seat].get(f"/v1/games/{gid}/view")
        actions = view["legal_actions"]
        action = policy(view["table"], actions, rng, True) or actions[rng.randrange(len(actions))]
        status, body = players[seat].post(f"/v1/games/{gid}/commands", action)
        if status != 200:
            raise RuntimeError(f"command: {status} {body}")
        view = body["view"]
    return gid, [p.token for p in players]


def measure_game(base: str, ruleset: str, gid: str, tokens: list[str], commands: int, views: int,
                 rng: random.Random, out: ClientResult) -> None:
    """Latency of ``views`` view loads and of the next ``commands`` commands, over HTTP."""
    policy = bots.policy(ruleset, "greedy")
    sessions = []
    for token in tokens:
        s = requests.Session()
        s.headers["Authorization"] = "Bearer " + token
        sessions.append(s)
    view = sessions[0].get(f"{base}/v1/games/{gid}/view", timeout=60).json()
    for _ in range(views):
        t0 = time.perf_counter()
        r = sessions[0].get(f"{base}/v1/games/{gid}/view", timeout=60)
        out.view_ms.append((time.perf_counter() - t0) * 1000)
        if r.status_code != 200:
            out.errors.append(f"view {r.status_code}")
    for _ in range(commands):
        seat = view["awaiting"][0]
        if view["seat"] != seat:
            view = sessions[seat].get(f"{base}/v1/games/{gid}/view", timeout=60).json()
        actions = view["legal_actions"]
        action = policy(view["table"], actions, rng, True) or actions[rng.randrange(len(actions))]
        t0 = time.perf_counter()
        r = sessions[seat].post(f"{base}/v1/games/{gid}/commands", json=action, timeout=60)
        out.command_ms.append((time.perf_counter() - t0) * 1000)
        if r.status_code != 200:
            out.errors.append(f"command {r.status_code} {r.text[:200]}")
            return
        out.commands += 1
        view = r.json()["view"]
