"""A PostgreSQL restart under load: a private server in a new temporary directory (never the
shared one), stopped while probes ask for data and seats play, then started again. While it
is away every request must get 503 with ``Retry-After`` (never a 500, never a hang); after
it, the service must recover by itself within 2 s, and no acknowledged command may be missing."""
from __future__ import annotations

import random
import shutil
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import requests

from service.tools.check.harness import Row, Settings, Statuses, check_log, first, run_threads, server
from service.tools.check.seat_players import Behaviour, seat_players

PROBES = 4
RECOVERY_SECONDS = 2.0  # every probe answered 200 for good this soon after the database is back


@dataclass
class _Probe:
    """Answers to ``GET /v1/me/games`` (a read that needs the database), one after another."""

    answers: list[tuple[float, int, bool, float]] = field(default_factory=list)  # (at, status, Retry-After, ms)
    failures: list[str] = field(default_factory=list)


def _probe(url: str, token: str, out: _Probe, stop: threading.Event) -> None:
    with requests.Session() as s:
        s.headers["Authorization"] = f"Bearer {token}"
        while not stop.is_set():
            t0 = time.monotonic()
            try:
                r = s.get(url + "/v1/me/games", timeout=10)
                out.answers.append((t0, r.status_code, "Retry-After" in r.headers, (time.monotonic() - t0) * 1000))
            except requests.RequestException as exc:
                out.failures.append(f"{type(exc).__name__}: {str(exc)[:150]}")
            time.sleep(0.05)


class PrivatePostgres:
    """A private PostgreSQL in a new directory under /tmp (as root the server runs as a user of
    its own, who must be able to reach it), started in the background while other sections run."""

    def __init__(self) -> None:
        from events.embedded import EmbeddedPostgres

        self.data = Path(tempfile.gettempdir()) / f"facedown-check-{uuid.uuid4().hex[:10]}" / "pg"
        self.pg = EmbeddedPostgres(self.data)
        self._url: str | None = None
        self._error: BaseException | None = None
        self._starting = threading.Thread(target=self._start, daemon=True)
        self._starting.start()

    def _start(self) -> None:
        try:
            self._url = self.pg.start()
        except BaseException as exc:  # noqa: BLE001 - raised again by url()
            self._error = exc

    def url(self) -> str:
        self._starting.join()
        if self._error is not None:
            raise self._error
        assert self._url is not None
        return self._url

    def close(self) -> None:
        self._starting.join()
        self.pg.stop(force=True)
        shutil.rmtree(self.data.parent, ignore_errors=True)


def run(settings: Settings) -> list[Row]:
    say = settings.progress
    down = settings.pick(5.0, 2.0)
    private = settings.private if isinstance(settings.private, PrivatePostgres) else PrivatePostgres()
    pg = private.pg
    statuses = Statuses()
    try:
        url = private.url()
        say("database restart: a private PostgreSQL in " + str(private.data.parent))
        with server(url) as srv:
            probes = [_Probe() for _ in range(PROBES)]
            stop = threading.Event()
            tokens = [srv_player(srv.url, i) for i in range(PROBES)]
            games = [seat_players(srv.url, statuses, r, 2, {}, f"outage-{r}") for r in ("corte", "pedro")]
            rng = random.Random(5)
            until = time.monotonic() + 4 * down + 60
            jobs = [lambda p=p, g=g, r=r: p.play(g, r, Behaviour(), random.Random(rng.randrange(10**9)), until, stop)
                    for (g, players), r in zip(games, ("corte", "pedro")) for p in players]
            jobs += [lambda o=o, t=t: _probe(srv.url, t, o, stop) for o, t in zip(probes, tokens)]
            done: list[BaseException] = []
            runner = threading.Thread(target=lambda: done.extend(run_threads(jobs)), daemon=True)
            runner.start()
            time.sleep(down)
            stopping = time.monotonic()
            pg.stop(force=True)  # pg_ctl stop -m fast: sessions end at once, then the server
            stopped = time.monotonic()
            say(f"database restart: PostgreSQL stopped; {down:.0f} s away")
            time.sleep(down)
            pg.start()
            started = time.monotonic()
            say("database restart: PostgreSQL started again")
            time.sleep(down)
            stop.set()
            runner.join()
            seats = [p for _, players in games for p in players]
            log = check_log(url, [a for p in seats for a in p.record.acks])
            healthz = requests.get(srv.url + "/healthz", timeout=5).status_code
    finally:
        private.close()
    answers = sorted(a for p in probes for a in p.answers)
    during = [a for a in answers if stopping <= a[0] < started]
    unavailable = [a for a in answers if a[1] == 503]
    first_503 = min((a[0] + a[3] / 1000 for a in unavailable), default=None)
    after = [a for a in answers if a[0] >= started]
    # recovered when every probe's answers are 200 from then on
    each = [_recovered(p, started) for p in probes]
    recovered_at = None if None in each else max(t for t in each if t is not None)
    failures = [f for p in probes for f in p.failures] + [f"{type(e).__name__}: {e}" for e in done]
    # a 5xx other than 503, to a probe or to a seat
    other_5xx = (sum(1 for a in answers if a[1] >= 500 and a[1] != 503)
                 + statuses.errors())
    figures = {
        "down s": round(started - stopped, 1), "stop took s": round(stopped - stopping, 2),
        "probe answers": len(answers), "sent while down": len(during), "503": len(unavailable),
        "503 without Retry-After": sum(1 for a in unavailable if not a[2]),
        "first 503 after s": None if first_503 is None else round(first_503 - stopping, 2),
        "slowest 503 ms": round(max((a[3] for a in unavailable), default=0.0), 1),
        "seats' 503 (retried)": statuses.counts[503], "other 5xx": other_5xx, "not answered": len(failures),
        "recovered after s": None if recovered_at is None else round(recovered_at - started, 2),
        "seats' acknowledged": log.acknowledged, "lost": len(log.lost), "duplicated": len(log.duplicated),
        "gaps": len(log.gaps), "healthz at the end": healthz,
    }
    ok = (bool(unavailable) and all(a[2] for a in unavailable) and not other_5xx and not failures
          and recovered_at is not None and recovered_at - started < RECOVERY_SECONDS and after
          and not log.lost and not log.duplicated and not log.gaps
          and max(a[3] for a in unavailable) < 2500 and healthz == 200)
    say(f"database restart: {len(unavailable)} 503s, recovered after {figures['recovered after s']} s")
    return [Row("database restart", "PostgreSQL stopped and started under load", figures, bool(ok),
                first(failures + log.lost + log.duplicated + log.gaps))]


def _recovered(probe: _Probe, started: float) -> float | None:
    """When this probe's answers became 200 for good after the restart (the first one's arrival)."""
    at = None
    for t, status, _, ms in probe.answers:
        if t < started:
            continue
        if status == 200 and at is None:
            at = t + ms / 1000
        elif status != 200:
            at = None
    return at


def srv_player(base: str, i: int) -> str:
    r = requests.post(base + "/v1/players", json={"name": f"probe-{i}"}, timeout=10)
    r.raise_for_status()
    return str(r.json()["token"])
