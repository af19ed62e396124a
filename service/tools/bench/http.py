"""Load generation over real HTTP for ``facedown bench api`` and ``bench stream``.

A client is a process (so that client-side Python does not share the server's GIL)
that plays whole games through the public API only, with the SDK (``facedown_client``)
as a third party would: each seat registers its own player and token, reads its own
``/view`` and posts one of its ``legal_actions`` chosen by a bot that sees that view
alone. The stack floor (``floor``) keeps a bare socket client of its own.
"""
from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

import requests

from domain import bots
from events.ports import free_port
from facedown_client import Client, FacedownError, play_turns

from service.tools.bench.wire import LeanSession


def server_log() -> Any:
    """Where a server child writes its log: a file, never a pipe (a pipe nobody reads fills up,
    and then every write to it blocks the server)."""
    return tempfile.TemporaryFile()


def log_tail(log: Any, size: int = 2000) -> str:
    log.flush()
    log.seek(0)
    return log.read().decode(errors="replace")[-size:]


def wait_ready(proc: subprocess.Popen[bytes], url: str, log: Any, seconds: float = 60) -> None:
    """Wait until the server child answers ``/readyz`` with 200 (or fail with its log)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("the server exited: " + log_tail(log))
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
    worker_class: str = "gevent"  # `facedown serve`'s default
    env: dict[str, str] = field(default_factory=dict)
    # SIGTERM: gunicorn's graceful stop (idle keep-alive connections get their timeout);
    # SIGINT: its quick stop, for a server whose figures are all taken
    stop_signal: int = signal.SIGTERM

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> Server:
        # a bench seat sends up to ~100 requests/s, more than the per-caller limit meant for
        # players: the benchmark server runs without it (everything else as `facedown serve`)
        env = {**os.environ, "DATABASE_URL": self.database_url, "FACEDOWN_LOG_LEVEL": "warning",
               "FACEDOWN_RATE_LIMIT_PER_SECOND": "0", **self.env}
        cmd = [sys.executable, "-c", "from service.entrypoints.cli import main; main()", "serve", "--port", str(self.port),
               "--workers", str(self.workers), "--threads", str(self.threads), "--worker-class", self.worker_class]
        self.log = server_log()
        self.proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=self.log)
        wait_ready(self.proc, self.url, self.log)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc is not None:
            self.proc.send_signal(self.stop_signal)
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
    # bytes of each answer's body: the stack floor answers with bodies of the same mean sizes
    command_sizes: list[int] = field(default_factory=list)
    view_sizes: list[int] = field(default_factory=list)
    # the SDK's other requests while playing: its proofs of the checkpoints it is shown
    # (a consistency proof after each command), registrations, joins, the log key
    other_requests: int = 0
    cpu_seconds: float = 0.0  # the client process's own CPU over its run


#: set in each client process of a run (:func:`start_together`): every client starts its clock
#: once all have started, so the window in which all play is never empty (a client process
#: spawned late on a loaded machine once began after the others had ended)
_START: Any = None


def share_start(barrier: Any) -> None:
    """A client pool's initializer: the barrier its client processes start behind."""
    global _START
    _START = barrier


def start_together() -> None:
    """Wait until every client process of the run is ready, when the run set a barrier."""
    if _START is not None:
        _START.wait()


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


class TimedClient(Client):
    """One seat's player, as a real one: its own registration, token and keep-alive connection
    (so that the seats of a game reach the server's workers independently), through the SDK;
    the latency and the answer's size of each view and each command go into ``out``."""

    def __init__(self, base: str, out: ClientResult) -> None:
        super().__init__(base, retries=0, timeout=120, session=LeanSession(base))  # type: ignore[arg-type]
        self.out = out
        self._size = 0
        self.on_response = self._sized

    def _sized(self, r: requests.Response) -> None:
        self._size = len(r.content)

    def request(self, method: str, path: str, body: Any = None, **kw: Any) -> Any:
        t0 = time.perf_counter()
        answer = super().request(method, path, body, **kw)
        ms = (time.perf_counter() - t0) * 1000
        if path.endswith("/view"):
            self.out.view_ms.append(ms)
            self.out.view_sizes.append(self._size)
        elif path.split("?")[0].endswith("/commands"):  # the SDK adds ?proof_from=M
            self.out.command_ms.append(ms)
            self.out.command_at.append(time.monotonic())
            self.out.command_sizes.append(self._size)
            self.out.commands += 1
        else:
            self.out.other_requests += 1
        return answer


def play_one_game(base: str, ruleset: str, seats: int, options: dict[str, Any], bot: str, rng: random.Random,
                  out: ClientResult, max_commands: int = 5000, minimal: bool = True) -> None:
    """Create a game, fill its seats, and play it to the end with the SDK's turn driver
    (``facedown_client.play_turns``: only the awaited seat acts; ``minimal``: each command's
    answer is a patch to the view held); latencies go into ``out``."""
    players = [TimedClient(base, out) for _ in range(seats)]
    try:
        for i, p in enumerate(players):
            p.register(f"bench-{i}")
        gid = players[0].create_game(ruleset, seats, options).id
        for p in players[1:]:
            p.join(gid)
        play_turns(players, gid, bots.policy(ruleset, bot), rng, max_commands, minimal=minimal)
        out.games += 1
    except (FacedownError, RuntimeError) as exc:
        out.errors.append(str(exc)[:300])
    finally:
        for p in players:
            p.http.close()


def client(args: tuple[str, str, int, dict[str, Any], str, int, int, bool]) -> ClientResult:
    """One client process: play ``games`` games one after another."""
    base, ruleset, seats, options, bot, games, seed, minimal = args
    rng = random.Random(seed)
    start_together()
    out = ClientResult(started=time.monotonic())
    cpu = time.process_time()
    for _ in range(games):
        try:
            play_one_game(base, ruleset, seats, options, bot, rng, out, minimal=minimal)
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


def worker_pids(proc: subprocess.Popen[bytes]) -> list[int]:
    """The gunicorn workers of a server child (the master's children)."""
    with open(f"/proc/{proc.pid}/task/{proc.pid}/children") as f:
        return [int(x) for x in f.read().split()]
