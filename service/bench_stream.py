"""Load generation for ``facedown bench stream``: many waiters, few commands.

One gunicorn worker (gthread, enough threads for every connection) holds W long-polls
(``/events?after=v&wait=30``) and W Server-Sent Events streams spread over N games,
while a driver posts commands through the API (each one of the awaited seat's
``legal_actions``, chosen by the greedy bot). Every waiter records when each event
reached it; the delay is measured from the command's commit, bracketed by

* the time the POST returned (after the commit: a *lower* bound of the delay), and
* the event's ``at`` metadata (stamped before the append: an *upper* bound).

The waiters live in a few client processes running asyncio over raw sockets (2,000
connections cost the client side little CPU); the SSE clients speak HTTP/1.0 so that
the stream needs no chunked decoding.
"""
from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import random
import resource
import subprocess
import sys
import time
from bisect import bisect_left
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

import requests

from service.bench_http import Seat, Server, wait_ready

OPTIONS = {"target_score": 10**9}  # Corte played on and on: the games never end


# ------------------------------------------------------------------ the server

@dataclass
class StreamServer(Server):
    """gunicorn with one worker and ``threads`` threads, as ``facedown serve`` runs it, but
    with ``worker_connections`` raised (gthread refuses connections past it; default 1,000)."""

    connections: int = 1000
    env: dict[str, str] = field(default_factory=dict)

    def __enter__(self) -> StreamServer:
        extra = {"worker_connections": self.connections, "backlog": 4096, "keepalive": 75}
        code = ("import json, sys\n"
                "from service.serve import _Gunicorn, gunicorn_options\n"
                "o = gunicorn_options('127.0.0.1', int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]))\n"
                "o.update(json.loads(sys.argv[4]))\n"
                "_Gunicorn(o, sys.argv[5]).run()\n")
        env = {**os.environ, "FACEDOWN_LOG_LEVEL": "warning", "FACEDOWN_RATE_LIMIT_PER_SECOND": "0", **self.env}
        cmd = [sys.executable, "-c", code, str(self.port), str(self.workers), str(self.threads), json.dumps(extra),
               self.database_url]
        self.proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        wait_ready(self.proc, self.url)
        return self

    def worker_pid(self) -> int:
        assert self.proc is not None
        with open(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children") as f:
            kids = [int(x) for x in f.read().split()]
        if len(kids) != 1:
            raise RuntimeError(f"expected one gunicorn worker, found {kids}")
        return kids[0]


def proc_status(pid: int) -> dict[str, int]:
    """VmRSS (kB), Threads, and CPU seconds (utime+stime, in clock ticks) of a process."""
    out: dict[str, int] = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "Threads"):
                out[key] = int(value.split()[0])
    with open(f"/proc/{pid}/stat") as f:
        parts = f.read().rsplit(")", 1)[1].split()
    out["cpu_ticks"] = int(parts[11]) + int(parts[12])
    return out


# ------------------------------------------------------------------ the waiters (client processes)

@dataclass
class Waiter:
    index: int
    kind: str  # "poll" or "sse"
    game: str
    token: str | None
    after: int


def _request(path: str, token: str | None, version: str, extra: str = "") -> bytes:
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    keep = "" if version == "1.0" else "Connection: keep-alive\r\n"
    return f"GET {path} HTTP/{version}\r\nHost: bench\r\n{auth}{keep}{extra}\r\n".encode()


async def _headers(reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
    raw = await reader.readuntil(b"\r\n\r\n")
    lines = raw.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        if ":" in line:
            k, _, v = line.partition(":")
            headers[k.strip().lower()] = v.strip()
    return status, headers


class Client:
    """One client process's waiters, their records and errors."""

    def __init__(self, host: str, port: int, waiters: list[Waiter], stream_seconds: int) -> None:
        self.host, self.port = host, port
        self.waiters = waiters
        self.stream_seconds = stream_seconds
        self.records: list[tuple[int, str, int, float]] = []  # waiter, game, version, received (epoch s)
        self.errors: list[str] = []
        self.opened = 0
        self.stopping = False

    async def _connect(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        return await asyncio.open_connection(self.host, self.port, limit=1 << 20)

    async def poll(self, w: Waiter, gate: asyncio.Semaphore) -> None:
        after, first = w.after, True
        async with gate:
            reader, writer = await self._connect()
        while not self.stopping:
            try:
                writer.write(_request(f"/v1/games/{w.game}/events?after={after}&wait=30", w.token, "1.1"))
                await writer.drain()
                if first:
                    self.opened += 1
                    first = False
                status, headers = await _headers(reader)
                body = await reader.readexactly(int(headers.get("content-length", "0")))
                now = time.time()
                if status != 200:
                    self.errors.append(f"poll {status}: {body[:200]!r}")
                    await asyncio.sleep(1)
                    continue
                page = json.loads(body)
                for e in page["events"]:
                    self.records.append((w.index, w.game, e["version"], now))
                after = page["next_after"]
                if headers.get("connection", "").lower() == "close":
                    writer.close()
                    reader, writer = await self._connect()
            except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError) as exc:
                if self.stopping:
                    return
                self.errors.append(f"poll connection: {exc!r}")
                await asyncio.sleep(0.5)
                reader, writer = await self._connect()

    async def sse(self, w: Waiter, gate: asyncio.Semaphore) -> None:
        last, first = w.after, True
        while not self.stopping:
            try:
                async with gate:
                    reader, writer = await self._connect()
                path = f"/v1/games/{w.game}/events/stream?max_seconds={self.stream_seconds}"
                writer.write(_request(path, w.token, "1.0", f"Last-Event-ID: {last}\r\n"))
                await writer.drain()
                status, _ = await _headers(reader)
                if status != 200:
                    body = await reader.read(300)
                    self.errors.append(f"sse {status}: {body!r}")
                    await asyncio.sleep(1)
                    continue
                msg: dict[str, str] = {}
                while True:
                    line = await reader.readline()
                    if not line:
                        break  # the stream ended: reconnect with Last-Event-ID
                    text = line.decode().rstrip("\n")
                    if text.startswith(":"):
                        if first:
                            self.opened += 1
                            first = False
                        continue
                    if text:
                        k, _, v = text.partition(":")
                        msg[k] = v[1:] if v.startswith(" ") else v
                        continue
                    if "id" in msg and "data" in msg:
                        last = int(msg["id"])
                        self.records.append((w.index, w.game, last, time.time()))
                    msg = {}
                writer.close()
            except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError) as exc:
                if self.stopping:
                    return
                self.errors.append(f"sse connection: {exc!r}")
                await asyncio.sleep(0.5)

    async def run(self, control: Any, stop: Any) -> None:
        gate = asyncio.Semaphore(64)  # connect a few at a time: the listen backlog is finite
        tasks = [asyncio.create_task(self.poll(w, gate) if w.kind == "poll" else self.sse(w, gate))
                 for w in self.waiters]
        reported = False
        while not stop.is_set():
            if not reported and self.opened >= len(self.waiters):
                control.put(("open", len(self.waiters)))
                reported = True
            await asyncio.sleep(0.05)
        self.stopping = True
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def client_main(host: str, port: int, waiters: list[Waiter], stream_seconds: int, control: Any, stop: Any,
                results: Any) -> None:
    c = Client(host, port, waiters, stream_seconds)
    asyncio.run(c.run(control, stop))
    usage = resource.getrusage(resource.RUSAGE_SELF)
    results.put({"records": [(r[0], r[1], r[2], r[3]) for r in c.records], "errors": c.errors,
                 "cpu_seconds": usage.ru_utime + usage.ru_stime})


# ------------------------------------------------------------------ the driver

@dataclass
class Command:
    game: str
    first: int
    last: int
    sent: float
    returned: float
    at: float | None


@dataclass
class Game:
    id: str
    seats: list[Seat]
    version: int
    view: dict[str, Any] | None = None


def _setup_game(base: str, i: int) -> Game:
    seats = [Seat(base, f"stream-{i}-{s}") for s in range(4)]
    r = seats[0].post("/v1/games", {"ruleset": "corte", "seats": 4, "options": OPTIONS})
    r.raise_for_status()
    gid = r.json()["id"]
    for p in seats[1:]:
        p.post(f"/v1/games/{gid}/join", {}).raise_for_status()
    version = seats[0].get(f"/v1/games/{gid}").json()["version"]
    return Game(gid, seats, version)


def setup_games(base: str, n: int) -> list[Game]:
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(8) as pool:
        return list(pool.map(lambda i: _setup_game(base, i), range(n)))


def _epoch(at: str | None) -> float | None:
    if not at:
        return None
    return datetime.fromisoformat(at.replace("Z", "+00:00")).timestamp()


def drive(games: list[Game], seconds: float, rate: float, rng: random.Random, errors: list[str]) -> list[Command]:
    """Post ~``rate`` commands per second for ``seconds``, round-robin over the games."""
    from domain import bots

    policy = bots.policy("corte", "greedy")
    out: list[Command] = []
    start = time.monotonic()
    i = 0
    while time.monotonic() - start < seconds:
        due = start + i / rate
        pause = due - time.monotonic()
        if pause > 0:
            time.sleep(pause)
        g = games[i % len(games)]
        i += 1
        try:
            view = g.view
            if view is None or not view["awaiting"]:
                view = g.seats[0].get(f"/v1/games/{g.id}/view").json()
            seat = view["awaiting"][0]
            if view["seat"] != seat:
                view = g.seats[seat].get(f"/v1/games/{g.id}/view").json()
            actions = view["legal_actions"]
            action = policy(view["table"], actions, rng, True) or actions[rng.randrange(len(actions))]
            sent = time.time()
            r = g.seats[view["seat"]].post(f"/v1/games/{g.id}/commands", action)
            returned = time.time()
            if r.status_code != 200:
                errors.append(f"command {r.status_code}: {r.text[:200]}")
                g.view = None
                continue
            body = r.json()
            ats = [t for t in (_epoch(e.get("at")) for e in body["events"]) if t is not None]
            out.append(Command(g.id, g.version + 1, body["version"], sent, returned, min(ats) if ats else None))
            g.version = body["version"]
            g.view = body["view"]
        except (requests.RequestException, KeyError, IndexError, ValueError) as exc:
            errors.append(f"command: {exc!r}")
            g.view = None
    return out


def delays(commands: list[Command], records: list[tuple[int, str, int, float]], waiters: list[Waiter]
           ) -> dict[str, Any]:
    """Per transport: the delay of each (waiter, command) pair, from the POST's return and from ``at``."""
    by_game: dict[str, list[Command]] = {}
    for c in commands:
        by_game.setdefault(c.game, []).append(c)
    lasts = {g: [c.last for c in cs] for g, cs in by_game.items()}
    first_seen: dict[tuple[int, int], float] = {}
    for w, g, version, t in records:
        cs = by_game.get(g)
        if not cs:
            continue
        k = bisect_left(lasts[g], version)
        if k < len(cs) and cs[k].first <= version <= cs[k].last:
            key = (w, id(cs[k]))
            if key not in first_seen or t < first_seen[key]:
                first_seen[key] = t
    kinds = {w.index: w.kind for w in waiters}
    out: dict[str, Any] = {}
    for kind in ("poll", "sse"):
        from_return: list[float] = []
        from_at: list[float] = []
        expected = unseen = 0
        for w in waiters:
            if w.kind != kind:
                continue
            for c in by_game.get(w.game, []):
                expected += 1
                t = first_seen.get((w.index, id(c)))
                if t is None:
                    unseen += 1
                    continue
                from_return.append((t - c.returned) * 1000)
                if c.at is not None:
                    from_at.append((t - c.at) * 1000)
        out[kind] = {"deliveries": len(from_return), "expected": expected, "unseen": unseen,
                     "from_post_return": _stats(from_return), "from_event_at": _stats(from_at)}
    assert set(kinds.values()) <= {"poll", "sse"}
    return out


def _stats(values: list[float]) -> dict[str, float | None]:
    from events.bench import percentile

    if not values:
        return {"p50_ms": None, "p99_ms": None, "max_ms": None}
    ordered = sorted(values)
    return {"p50_ms": round(percentile(ordered, 50), 2), "p99_ms": round(percentile(ordered, 99), 2),
            "max_ms": round(ordered[-1], 2)}


def run(database_url: str, waiters: int, games: int, seconds: float, rate: float, clients: int,
        recheck: float, pool: int) -> dict[str, Any]:
    """The whole benchmark against a migrated database; returns the report's figures."""
    threads = 2 * waiters + 32
    server = StreamServer(database_url, workers=1, threads=threads, connections=2 * waiters + 256,
                          env={"FACEDOWN_POOL_SIZE": str(pool), "FACEDOWN_RECHECK_SECONDS": str(recheck)})
    errors: list[str] = []
    with server:
        worker = server.worker_pid()
        t0 = time.monotonic()
        built = setup_games(server.url, games)
        setup_seconds = time.monotonic() - t0
        time.sleep(1.0)
        idle = proc_status(worker)
        plan: list[Waiter] = []
        for kind in ("poll", "sse"):
            for i in range(waiters):
                g = built[i % games]
                seat = (i // games) % 5  # seats 0-3, and 4 = a spectator without a token
                token = g.seats[seat].http.headers["Authorization"].split()[1] if seat < 4 else None
                plan.append(Waiter(len(plan), kind, g.id, token, g.version))
        random.Random(3).shuffle(plan)
        ctx = multiprocessing.get_context("spawn")
        control, results, stop = ctx.Queue(), ctx.Queue(), ctx.Event()
        host, port = urlsplit(server.url).hostname or "127.0.0.1", server.port
        procs = [ctx.Process(target=client_main, args=(host, port, plan[k::clients], int(seconds) + 120, control,
                                                      stop, results), daemon=True) for k in range(clients)]
        for p in procs:
            p.start()
        opened = 0
        deadline = time.monotonic() + 120
        while opened < len(plan) and time.monotonic() < deadline:
            try:
                opened += control.get(timeout=1)[1]
            except Exception:  # noqa: BLE001 - queue.Empty: keep waiting until the deadline
                pass
        # every request is in a server thread once the worker has a thread per connection
        # (and its thread count has stopped growing)
        seen, since = 0, time.monotonic()
        while time.monotonic() < deadline:
            now = proc_status(worker)["Threads"]
            if now != seen:
                seen, since = now, time.monotonic()
            elif now >= len(plan) and time.monotonic() - since > 1.5:
                break
            time.sleep(0.2)
        time.sleep(1.0)
        loaded = proc_status(worker)
        load_before = os.getloadavg()
        cpu0 = proc_status(worker)["cpu_ticks"]
        rng = random.Random(11)
        t1 = time.monotonic()
        commands = drive(built, seconds, rate, rng, errors)
        drive_seconds = time.monotonic() - t1
        cpu1 = proc_status(worker)["cpu_ticks"]
        load_after = os.getloadavg()
        time.sleep(2.0)  # stragglers
        stop.set()
        outs = [results.get(timeout=120) for _ in procs]
        for p in procs:
            p.join(timeout=30)
    records = [r for o in outs for r in o["records"]]
    errors += [e for o in outs for e in o["errors"]]
    tick = os.sysconf("SC_CLK_TCK")
    return {
        "settings": {"waiters_long_poll": waiters, "waiters_sse": waiters, "games": games, "seconds": seconds,
                     "commands_per_second_target": rate, "client_processes": clients, "gunicorn_workers": 1,
                     "gunicorn_threads": threads, "worker_connections": 2 * waiters + 256, "pool_size": pool,
                     "recheck_seconds": recheck, "ruleset": "corte", "long_poll_wait_s": 30,
                     "waiter_seats": "seats 0-3 and a spectator, spread evenly"},
        "setup_seconds": round(setup_seconds, 2),
        "commands": len(commands),
        "commands_per_second": round(len(commands) / drive_seconds, 2) if drive_seconds else None,
        "opened": opened,
        "wake": delays(commands, records, plan),
        "memory": {"idle_rss_kib": idle["VmRSS"], "loaded_rss_kib": loaded["VmRSS"],
                   "idle_threads": idle["Threads"], "loaded_threads": loaded["Threads"],
                   "per_waiter_kib": round((loaded["VmRSS"] - idle["VmRSS"]) / len(plan), 1)},
        "cpu": {"server_worker_percent_of_one_core": round(100 * (cpu1 - cpu0) / tick / drive_seconds, 1)
                if drive_seconds else None,
                "client_cpu_seconds": [round(o["cpu_seconds"], 2) for o in outs]},
        "load_average": {"before": [round(x, 2) for x in load_before], "after": [round(x, 2) for x in load_after]},
        "errors": len(errors), "error_samples": errors[:5],
    }
