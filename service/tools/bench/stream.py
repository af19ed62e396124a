"""Load generation for ``facedown bench stream``: many idle waiters, few commands.

``facedown serve`` with its default settings (gevent workers) holds W long-polls
(``/events?after=v&wait=30``) and W Server-Sent Events streams spread over N games,
while a driver posts commands through the API (each one of the awaited seat's
``legal_actions``, chosen by the greedy bot) and a prober times ``/healthz``. Then a
client opens A more long-polls and vanishes: how soon are they released? Every waiter
records when each event reached it; the delay is measured from the command's commit,
bracketed by

* the time the POST returned (after the commit: a *lower* bound of the delay), and
* the event's ``at`` metadata (stamped before the append: an *upper* bound).

The waiters live in a few client processes (:mod:`service.tools.bench.stream_clients`).
"""
from __future__ import annotations

import multiprocessing
import os
import random
import threading
import time
from bisect import bisect_left
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

import requests

from domain import bots
from service.tools.bench import procfs
from service.tools.bench.http import Seat, Server, worker_pids
from service.tools.bench.stream_clients import Waiter, client_main

OPTIONS = {"target_score": 100_000}  # Corte played on and on: no run reaches the largest target


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
    with ThreadPoolExecutor(8) as pool:
        return list(pool.map(lambda i: _setup_game(base, i), range(n)))


def _epoch(at: str | None) -> float | None:
    if not at:
        return None
    return datetime.fromisoformat(at.replace("Z", "+00:00")).timestamp()


def drive(games: list[Game], seconds: float, rate: float, rng: random.Random, errors: list[str]) -> list[Command]:
    """Post ~``rate`` commands per second for ``seconds``, round-robin over the games."""
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
    from service.tools.bench.threads import percentile

    if not values:
        return {"p50_ms": None, "p99_ms": None, "max_ms": None}
    ordered = sorted(values)
    return {"p50_ms": round(percentile(ordered, 50), 2), "p99_ms": round(percentile(ordered, 99), 2),
            "max_ms": round(ordered[-1], 2)}


def probe_healthz(url: str, stop: Any, out: list[float], every: float = 0.05) -> None:
    """Time ``/healthz`` on one keep-alive connection until ``stop`` is set."""
    with requests.Session() as session:
        while not stop.is_set():
            t0 = time.perf_counter()
            try:
                session.get(url + "/healthz", timeout=10).raise_for_status()
                out.append((time.perf_counter() - t0) * 1000)
            except requests.RequestException:
                out.append(float("inf"))
            time.sleep(every)


def abandon(host: str, port: int, path: str, token: str, count: int, ports: Any) -> None:
    """Open ``count`` long-polls, send their local ports on ``ports``, then vanish without a
    word (the process exits)."""
    import resource
    import socket

    resource.setrlimit(resource.RLIMIT_NOFILE, (resource.getrlimit(resource.RLIMIT_NOFILE)[1],) * 2)
    request = f"GET {path} HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer {token}\r\n\r\n".encode()
    socks = []
    for _ in range(count):
        s = socket.create_connection((host, port))
        s.sendall(request)
        socks.append(s)
    ports.send([s.getsockname()[1] for s in socks])
    time.sleep(3600)  # killed by the benchmark


def release(port: int, path: str, token: str, count: int) -> dict[str, Any]:
    """Seconds from the moment ``count`` abandoned waits' client (``GET path``) vanishes until
    the server holds none of its connections. Only that client's connections are counted (by
    their ports in the kernel's tables): a total taken before would also count other clients'
    connections, which may close meanwhile (a count of -15 "held" was seen so)."""
    ctx = multiprocessing.get_context("spawn")
    ours, theirs = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=abandon, args=("127.0.0.1", port, path, token, count, theirs), daemon=True)
    proc.start()
    while not ours.poll(0.5):
        if not proc.is_alive():
            raise RuntimeError(f"the abandoning client exited ({proc.exitcode}) before it opened its waits")
    peers = frozenset(ours.recv())
    deadline = time.monotonic() + 60
    while procfs.held_connections(port, peers) < count * 0.98 and time.monotonic() < deadline:
        time.sleep(0.05)
    held = procfs.held_connections(port, peers)
    proc.kill()
    proc.join()
    gone = time.monotonic()
    while procfs.held_connections(port, peers) > count * 0.01 and time.monotonic() - gone < 60:
        time.sleep(0.05)
    return {"abandoned": count, "held_by_server": held, "released_seconds": round(time.monotonic() - gone, 2),
            "left_after": procfs.held_connections(port, peers)}


def run(database_url: str, waiters: int, games: int, seconds: float, rate: float, clients: int,
        abandoned: int, worker_class: str = "gevent", idle: float = 5.0) -> dict[str, Any]:
    """The whole benchmark against a migrated database; returns the report's figures.

    ``idle``: seconds the waiters are watched while only waiting; the pauses that let the
    workers' connections settle are 2/5 of it, at most 2 s (the smoke test's short form).
    """
    errors: list[str] = []
    settle = min(2.0, idle * 0.4)
    with Server(database_url, worker_class=worker_class) as server:  # `facedown serve`'s defaults
        assert server.proc is not None
        pids = worker_pids(server.proc)
        t0 = time.monotonic()
        built = setup_games(server.url, games)
        setup_seconds = time.monotonic() - t0
        files0 = procfs.steady_files(pids, settle)
        at_rest = procfs.status(pids)
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
        procs = [ctx.Process(target=client_main, args=(host, port, plan[k::clients], int(seconds) + 600, control,
                                                      stop, results), daemon=True) for k in range(clients)]
        for p in procs:
            p.start()
        opened, deadline = 0, time.monotonic() + 300
        while opened < len(plan) and time.monotonic() < deadline:
            try:
                opened += control.get(timeout=1)[1]
            except Exception:  # noqa: BLE001 - queue.Empty: keep waiting until the deadline
                pass
        while procfs.open_files(pids) < files0 + len(plan) * 0.99 and time.monotonic() < deadline:
            time.sleep(0.2)  # every connection is held by a worker
        held = procfs.open_files(pids) - files0
        # idle: the waiters only wait (and their clients are probed for having gone)
        time.sleep(settle)
        idle_probe: list[float] = []
        probing = ctx.Event()
        cpu_idle0, t_idle = procfs.status(pids)["cpu_ticks"], time.monotonic()
        prober = threading.Thread(target=probe_healthz, args=(server.url, probing, idle_probe), daemon=True)
        prober.start()
        time.sleep(idle)
        probing.set()
        prober.join()
        idle_seconds = time.monotonic() - t_idle
        loaded = procfs.status(pids)
        cpu_idle1 = loaded["cpu_ticks"]
        # commands arrive while every waiter waits
        busy_probe: list[float] = []
        probing = ctx.Event()
        prober = threading.Thread(target=probe_healthz, args=(server.url, probing, busy_probe), daemon=True)
        prober.start()
        load_before = os.getloadavg()
        cpu0 = procfs.status(pids)["cpu_ticks"]
        t1 = time.monotonic()
        commands = drive(built, seconds, rate, random.Random(11), errors)
        drive_seconds = time.monotonic() - t1
        cpu1 = procfs.status(pids)["cpu_ticks"]
        probing.set()
        prober.join()
        load_after = os.getloadavg()
        time.sleep(settle)  # stragglers
        stop.set()
        outs = [results.get(timeout=120) for _ in procs]
        for p in procs:
            p.join(timeout=30)
        first = built[0]
        token = first.seats[0].http.headers["Authorization"].split()[1]
        released = (release(server.port, f"/v1/games/{first.id}/events?after={first.version + 10**6}&wait=30",
                            token, abandoned) if abandoned else None)
    records = [r for o in outs for r in o["records"]]
    errors += [e for o in outs for e in o["errors"]]
    tick = os.sysconf("SC_CLK_TCK")
    command_ms = [(c.returned - c.sent) * 1000 for c in commands]
    return {
        "settings": {"waiters_long_poll": waiters, "waiters_sse": waiters, "games": games, "seconds": seconds,
                     "commands_per_second_target": rate, "client_processes": clients,
                     "server": f"facedown serve, default settings (2 {worker_class} workers)",
                     "ruleset": "corte", "long_poll_wait_s": 30, "abandoned_long_polls": abandoned,
                     "idle_seconds": idle,
                     "waiter_seats": "seats 0-3 and a spectator, spread evenly"},
        "setup_seconds": round(setup_seconds, 2),
        "opened": opened, "held_by_server": held,
        "commands": len(commands),
        "commands_per_second": round(len(commands) / drive_seconds, 2) if drive_seconds else None,
        "command_latency": _stats(command_ms),
        "healthz_idle": _stats(idle_probe), "healthz_busy": _stats(busy_probe),
        "wake": delays(commands, records, plan),
        "memory": {"idle_rss_kib": at_rest["VmRSS"], "loaded_rss_kib": loaded["VmRSS"],
                   "per_waiter_kib": round((loaded["VmRSS"] - at_rest["VmRSS"]) / len(plan), 1)},
        "cpu": {"workers_idle_percent_of_one_core": round(100 * (cpu_idle1 - cpu_idle0) / tick / idle_seconds, 1),
                "workers_busy_percent_of_one_core": round(100 * (cpu1 - cpu0) / tick / drive_seconds, 1)
                if drive_seconds else None,
                "client_cpu_seconds": [round(o["cpu_seconds"], 2) for o in outs]},
        "release": released,
        "load_average": {"before": [round(x, 2) for x in load_before], "after": [round(x, 2) for x in load_after]},
        "errors": len(errors), "error_samples": errors[:5],
    }
