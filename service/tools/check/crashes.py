"""kill -9: of one gunicorn worker (the master starts another), then of the master itself (its
workers die with it; a new ``facedown serve`` is started on the same port). Seats play through
both; the SDK retries a command whose connection broke with the same Idempotency-Key. Every
command the server acknowledged must be in the log afterwards, once."""
from __future__ import annotations

import os
import random
import signal
import threading
import time
from collections.abc import Callable
from typing import Any

import requests

from service.tools.bench.http import Server, worker_pids
from service.tools.check.harness import Row, Settings, Statuses, check_log, first, run_threads, scratch, server
from service.tools.check.seat_players import Behaviour, SeatPlayer, seat_players

#: long games (the rules' default options), two seats each, one of each ruleset
RULESETS = ("pedro", "least-score", "corte", "cuatro-cartas")
BEHAVIOUR = Behaviour(blind=0.05)


def run(settings: Settings) -> list[Row]:
    """One server, seats playing throughout: a worker killed, then the master."""
    say = settings.progress
    phase = settings.pick(5.0, 1.5)  # seconds of play before each kill, and after the last
    statuses = Statuses()
    with scratch(settings.admin_url) as url:
        srv = server(url)
        srv.__enter__()
        try:
            seats: list[SeatPlayer] = []
            tables = []
            for i, ruleset in enumerate(RULESETS):
                gid, players = seat_players(srv.url, statuses, ruleset, 2, {}, f"kill-{i}")
                tables.append((ruleset, gid, players))
                seats += players
            stop = threading.Event()
            until = time.monotonic() + 3 * phase + 60
            rng = random.Random(11)
            jobs = [lambda p=p, g=gid, r=ruleset, s=rng.randrange(10**9): p.play(g, r, BEHAVIOUR, random.Random(s),
                                                                                until, stop)
                    for ruleset, gid, players in tables for p in players]
            done: list[BaseException] = []
            runner = threading.Thread(target=lambda: done.extend(run_threads(jobs)), daemon=True)
            runner.start()
            marks, kills = [], []
            for kill in (_kill_worker, _kill_master):
                time.sleep(phase)
                marks.append([len(p.record.acks) for p in seats])  # acknowledged before this kill
                srv, figures = kill(srv, say)
                kills.append(figures)
            time.sleep(phase)
            stop.set()
            runner.join()
            alive = requests.get(srv.url + "/readyz", timeout=5).status_code
        finally:
            srv.__exit__()
        sent = {k for p in seats for k in p.record.sent}
        # the worker's row: what was acknowledged up to the master's kill; the master's: everything
        upto = [[a for p, n in zip(seats, marks[1]) for a in p.record.acks[:n]],
                [a for p in seats for a in p.record.acks]]
        logs = [check_log(url, upto[0]), check_log(url, upto[1], sent)]
    errors = [f"{type(e).__name__}: {e}" for e in done]  # a seat's thread that broke
    rows = []
    for what, log, mark, figures in zip(("a worker", "the master"), logs, marks, kills):
        before = sum(mark)
        figures = {"clients": len(seats), "acknowledged before the kill": before,
                   "acknowledged in all" if what == "the master" else "acknowledged up to the master's kill":
                   log.acknowledged, "found in the log": log.found, "lost": len(log.lost),
                   "duplicated": len(log.duplicated), "gaps": len(log.gaps),
                   **({"applied, answer never received": log.unacknowledged_in_log,
                       "gave up (no answer)": sum(p.record.unanswered for p in seats)} if what == "the master" else {}),
                   **figures,
                   "readyz at the end": alive, "5xx other than 503": statuses.errors(),
                   "503 (retried)": statuses.counts[503]}
        ok = (not log.lost and not log.duplicated and not log.gaps and not errors and alive == 200
              and statuses.errors() == 0 and 0 < before < log.acknowledged)
        say(f"kill -9 of {what}: {log.acknowledged} acknowledged, {log.found} found, {len(log.lost)} lost")
        rows.append(Row("kill -9", f"kill -9 of {what}", figures, ok,
                        first(log.lost + log.duplicated + log.gaps + errors + statuses.server_errors)))
    return rows


def _kill_worker(srv: Server, say: Callable[[str], None]) -> tuple[Server, dict[str, Any]]:
    assert srv.proc is not None
    before = worker_pids(srv.proc)
    victim = before[0]
    os.kill(victim, signal.SIGKILL)
    t0 = time.monotonic()
    while time.monotonic() - t0 < 30:
        now = worker_pids(srv.proc)
        if victim not in now and len(now) == len(before):
            break
        time.sleep(0.05)
    back = time.monotonic() - t0
    say(f"kill -9: worker {victim} killed, a new one after {back:.2f} s")
    return srv, {"replaced after s": round(back, 2)}


def _kill_master(srv: Server, say: Callable[[str], None]) -> tuple[Server, dict[str, Any]]:
    assert srv.proc is not None
    workers = worker_pids(srv.proc)
    srv.proc.send_signal(signal.SIGKILL)
    srv.proc.wait(10)
    t0 = time.monotonic()
    while time.monotonic() - t0 < 10 and any(os.path.exists(f"/proc/{w}") for w in workers):
        time.sleep(0.05)
    orphans = sum(1 for w in workers if os.path.exists(f"/proc/{w}"))
    again = server(srv.database_url, port=srv.port)
    again.__enter__()
    back = time.monotonic() - t0
    say(f"kill -9: master {srv.proc.pid} killed, {orphans} orphaned workers, serving again after {back:.2f} s")
    return again, {"orphaned workers": orphans, "serving again after s": round(back, 2)}
