"""What every section of the reliability check shares: its rows, its progress line on stderr,
scratch databases, the server child, every status a client saw, and the log read back."""
from __future__ import annotations

import signal
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import click
import requests

from service.tools.bench.http import Server


@dataclass
class Row:
    """One test of the check: its figures (all measured in this run) and whether they are clean."""

    section: str
    test: str
    figures: dict[str, Any]
    ok: bool
    note: str = ""


class Progress:
    """A line on stderr per step, with the seconds since the check began."""

    def __init__(self, quiet: bool = False) -> None:
        self.t0 = time.monotonic()
        self.quiet = quiet

    def __call__(self, message: str) -> None:
        if not self.quiet:
            click.echo(f"[check {time.monotonic() - self.t0:6.1f} s] {message}", err=True)


@dataclass
class Settings:
    """The sizes of one run: the full check, or its quick form (``--quick``, the smoke test's)."""

    quick: bool
    admin_url: str  # a server on which scratch databases are made (never stopped by the check)
    progress: Progress
    shared: tuple[str, Server] | None = None  # (database URL, server) the gentler sections share
    private: Any = None  # the restart section's own PostgreSQL, started early (outage.PrivatePostgres)

    def pick(self, full: Any, quick: Any) -> Any:
        return quick if self.quick else full

    @contextmanager
    def served(self) -> Iterator[tuple[str, Server]]:
        """The shared server and its database (or a new pair, when there is none)."""
        if self.shared is not None:
            yield self.shared
            return
        with scratch(self.admin_url) as url, server(url) as srv:
            yield url, srv


@contextmanager
def scratch(admin_url: str) -> Iterator[str]:
    """A migrated database of its own on the admin URL's server, dropped afterwards."""
    from events import migrations
    from events.bench_sql import scratch_database

    url, drop = scratch_database(admin_url)
    try:
        migrations.upgrade(url)
        yield url
    finally:
        drop()


#: what the check's servers run with: no per-caller rate limit (16 clients of one address
#: send more than a player would; the limiter has its own tests), short client timeouts
SERVER_ENV = {"FACEDOWN_HEADER_TIMEOUT_SECONDS": "2", "FACEDOWN_BODY_TIMEOUT_SECONDS": "2",
              "FACEDOWN_CLIENT_PROBE_SECONDS": "0.5", "FACEDOWN_DEADLINE_SWEEP_SECONDS": "0"}


def server(database_url: str, workers: int = 2, port: int | None = None, **env: str) -> Server:
    """``facedown serve`` (gunicorn, gevent workers) in a child process: enter it to start it
    (it stops quickly on the way out: the check measures no shutdown)."""
    extra = {**SERVER_ENV, **env}
    if port is None:
        return Server(database_url, workers=workers, env=extra, stop_signal=signal.SIGINT)
    return Server(database_url, workers=workers, env=extra, port=port, stop_signal=signal.SIGINT)


class Statuses:
    """Every HTTP status the check's clients received (an SDK ``on_response`` hook)."""

    def __init__(self) -> None:
        self.counts: Counter[int] = Counter()
        self.server_errors: list[str] = []
        self._lock = threading.Lock()

    def __call__(self, r: requests.Response) -> None:
        with self._lock:
            self.counts[r.status_code] += 1
            if r.status_code >= 500 and r.status_code != 503 and len(self.server_errors) < 5:
                self.server_errors.append(f"{r.request.method} {r.url}: {r.status_code} {r.text[:200]}")

    def of_class(self, hundred: int) -> int:
        return sum(n for s, n in self.counts.items() if s // 100 == hundred)

    def errors(self) -> int:
        """5xx other than 503 (503 with Retry-After is the documented "try again", which the
        SDK does: a database that keeps a request waiting past the pool's timeout answers it)."""
        return self.of_class(5) - self.counts[503]

    def total(self) -> int:
        return sum(self.counts.values())


def run_threads(targets: list[Callable[[], None]]) -> list[BaseException]:
    """Run each target in its own thread; the exceptions they raised."""
    errors: list[BaseException] = []

    def wrap(fn: Callable[[], None]) -> None:
        try:
            fn()
        except BaseException as exc:  # noqa: BLE001 - reported as a figure, never swallowed
            errors.append(exc)

    threads = [threading.Thread(target=wrap, args=(t,), daemon=True) for t in targets]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors


@dataclass(frozen=True)
class Ack:
    """A command the server acknowledged (200): who sent it, with which key, at which version."""

    game: str
    player: str
    key: str
    version: int


@dataclass
class LogFigures:
    """What a game's log says of the commands acknowledged on it."""

    acknowledged: int = 0
    found: int = 0
    lost: list[str] = field(default_factory=list)
    duplicated: list[str] = field(default_factory=list)
    gaps: list[str] = field(default_factory=list)
    windows: int = 0
    won_twice: list[str] = field(default_factory=list)
    unacknowledged_in_log: int = 0  # applied, but the client never got the answer

    def add(self, other: LogFigures) -> None:
        self.acknowledged += other.acknowledged
        self.found += other.found
        self.lost += other.lost
        self.duplicated += other.duplicated
        self.gaps += other.gaps
        self.windows += other.windows
        self.won_twice += other.won_twice
        self.unacknowledged_in_log += other.unacknowledged_in_log


def check_log(database_url: str, acks: list[Ack], sent_keys: set[tuple[str, str]] = frozenset()) -> LogFigures:
    """Read each game's log as stored and hold the acknowledged commands against it."""
    from events.db import Database
    from events.store import EventStore

    out = LogFigures()
    db = Database(database_url, max_size=2)
    try:
        store = EventStore(db)
        for game in sorted({a.game for a in acks}):
            gid = uuid.UUID(game)
            events = store.read(gid)
            broken = store.verify(gid)
            out.add(held_against(game, events, [a for a in acks if a.game == game], broken, sent_keys))
    finally:
        db.close()
    return out


def held_against(game: str, events: list[Any], acks: list[Ack], broken: int | None,
                  sent_keys: set[tuple[str, str]]) -> LogFigures:
    out = LogFigures(acknowledged=len(acks))
    versions = [e.version for e in events]
    if versions != list(range(1, len(versions) + 1)):
        out.gaps.append(f"game {game}: versions {versions[:3]}... are not 1..{len(versions)}")
    if broken is not None:
        out.gaps.append(f"game {game}: the hash chain breaks at version {broken}")
    # each command's events are one run of consecutive versions with its (player, key)
    runs: dict[tuple[str, str], list[list[int]]] = {}
    previous: tuple[str, str] | None = None
    for e in events:
        meta = e.metadata if isinstance(e.metadata, dict) else {}
        key = (meta.get("player"), meta.get("command_id"))
        if key[1] is None:
            previous = None
            continue
        if key == previous:
            runs[key][-1].append(e.version)  # type: ignore[index]
        else:
            runs.setdefault(key, []).append([e.version])  # type: ignore[arg-type]
        previous = key  # type: ignore[assignment]
    by_version = {e.version: e for e in events}
    for key, found in runs.items():
        if len(found) > 1:
            out.duplicated.append(f"game {game}: key {key[1]} of {key[0]} applied {len(found)} times")
    acked = set()
    for a in acks:
        acked.add((a.player, a.key))
        found = runs.get((a.player, a.key), [])
        if any(_answers(run, a.version, by_version) for run in found):
            out.found += 1
        else:
            out.lost.append(f"game {game}: key {a.key} acknowledged at version {a.version}, not in the log there")
    out.unacknowledged_in_log = sum(1 for k in runs if k not in acked and k in sent_keys)
    out.windows, out.won_twice = _windows(game, events)
    return out


def _answers(run: list[int], version: int, by_version: dict[int, Any]) -> bool:
    """Whether a command's run of events is the one its answer named: it ends at ``version``,
    or before it with only the server's own events (the revealed secret) in between."""
    if run[0] > version:
        return False
    between = [by_version[v] for v in range(run[-1] + 1, version + 1)]
    return all(isinstance(e.metadata, dict) and e.metadata.get("command_id") is None for e in between)


def _windows(game: str, events: list[Any]) -> tuple[int, list[str]]:
    """Snap windows claimed, and those won more than once (a correct claim each)."""
    rounds, claimed, correct = 0, set(), Counter()
    for e in events:
        if e.type == "RoundDealt":
            rounds += 1
        elif e.type == "ClaimResolved" and isinstance(e.data, dict):
            window = (rounds, e.data.get("window_id"))
            claimed.add(window)
            if e.data.get("outcome") == "correct":
                correct[window] += 1
    twice = [f"game {game}: round {r} window {w} won {n} times" for (r, w), n in correct.items() if n > 1]
    return len(claimed), twice


def first(items: list[str]) -> str:
    return "" if not items else items[0] + (f" (+{len(items) - 1} more)" if len(items) > 1 else "")
