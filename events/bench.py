"""Store workloads for benchmarks: appends through the store, and the plain-INSERT floor."""
from __future__ import annotations

import statistics
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

from psycopg.types.json import Jsonb

from events.db import Database
from events.notify import Notifier
from events.store import EventStore, NewEvent, Snapshot

PAYLOAD = {"seat": 2, "slot": "B", "window_id": 17, "card": None, "text": "x" * 200}
FLOOR_TABLE = "CREATE TABLE IF NOT EXISTS bench_floor (id bigserial PRIMARY KEY, stream_id uuid, data jsonb)"


def percentile(sorted_values: list[float], p: float) -> float:
    if not sorted_values:
        return float("nan")
    k = min(len(sorted_values) - 1, max(0, round(p / 100 * (len(sorted_values) - 1))))
    return sorted_values[k]


def _run_threads(threads: int, seconds: float, op_factory: Callable[[int], Callable[[], None]]) -> dict[str, Any]:
    latencies: list[list[float]] = [[] for _ in range(threads)]
    # two barriers: every thread's set-up (its game, its warm events) ends before the clock
    # starts, and the clock starts before any thread reads the stop time
    ready, go = threading.Barrier(threads + 1), threading.Barrier(threads + 1)
    stop_at = [0.0]

    def worker(t: int) -> None:
        try:
            op = op_factory(t)
        except BaseException:
            ready.abort()  # the main thread's wait raises instead of waiting for ever
            raise
        ready.wait()
        go.wait()
        lat = latencies[t]
        while time.perf_counter() < stop_at[0]:
            t0 = time.perf_counter()
            op()
            lat.append(time.perf_counter() - t0)

    pool = [threading.Thread(target=worker, args=(t,)) for t in range(threads)]
    for th in pool:
        th.start()
    ready.wait()
    start = time.perf_counter()
    stop_at[0] = start + seconds
    go.wait()
    for th in pool:
        th.join()
    elapsed = time.perf_counter() - start
    flat = sorted(x for lat in latencies for x in lat)
    return {
        "threads": threads,
        "operations": len(flat),
        "per_second": round(len(flat) / elapsed, 1),
        "p50_ms": round(percentile(flat, 50) * 1000, 3),
        "p99_ms": round(percentile(flat, 99) * 1000, 3),
        "mean_ms": round(statistics.fmean(flat) * 1000, 3) if flat else None,
    }


def store_appends(db: Database, threads: int, seconds: float, snapshot_bytes: int = 0,
                  batched_hints: bool = True) -> dict[str, Any]:
    """Each thread appends one event at a time to its own game, with the expected version.

    With ``batched_hints`` (what the service does) the wake-up NOTIFY is sent after
    commit by a :class:`~events.notify.Notifier`; otherwise inside the append.
    """
    store = EventStore(db)
    notifier = Notifier(db.url) if batched_hints else None

    def factory(_: int) -> Callable[[], None]:
        game = uuid.uuid4()
        version = [0]
        snap = b"s" * snapshot_bytes

        def op() -> None:
            result = store.append(game, version[0], [NewEvent("Bench", PAYLOAD, {"actor": 1})],
                                  snapshot=Snapshot(version[0] + 1, "bench", snap) if snapshot_bytes else None,
                                  notify=not batched_hints)
            version[0] = result.version
            if notifier is not None:
                notifier.hint(game, result.version)

        return op

    try:
        return _run_threads(threads, seconds, factory)
    finally:
        if notifier is not None:
            notifier.close()


def plain_inserts(db: Database, threads: int, seconds: float) -> dict[str, Any]:
    """The floor: one single-row INSERT per transaction, from psycopg, same payload."""
    with db.connection() as conn:
        conn.execute("RESET ROLE")
        conn.execute(FLOOR_TABLE)

    def factory(_: int) -> Callable[[], None]:
        game = uuid.uuid4()

        def op() -> None:
            with db.connection() as conn:
                conn.execute("INSERT INTO bench_floor (stream_id, data) VALUES (%s, %s)", (game, Jsonb(PAYLOAD)))

        return op

    return _run_threads(threads, seconds, factory)


def scratch_database(url: str) -> tuple[str, Callable[[], None]]:
    """A new empty database next to ``url`` for a benchmark, and a function that drops it."""
    from psycopg import conninfo

    from events.db import connect

    name = f"facedown_bench_{uuid.uuid4().hex[:8]}"
    with connect(url) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')  # type: ignore[arg-type]
    scratch = conninfo.make_conninfo(url, dbname=name)

    def drop() -> None:
        with connect(url) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')  # type: ignore[arg-type]

    return scratch, drop


# The HTTP stack's floor (service/bench_floor.py): one plain statement per request.
STACK_FLOOR_TABLE = ("CREATE TABLE IF NOT EXISTS bench_stack_floor"
                     " (id bigserial PRIMARY KEY, stream_id uuid NOT NULL, data jsonb NOT NULL)")


def stack_floor_setup(db: Database) -> None:
    with db.connection() as conn:
        conn.execute("RESET ROLE")
        conn.execute(STACK_FLOOR_TABLE)
        conn.execute("GRANT SELECT, INSERT ON bench_stack_floor TO PUBLIC")
        conn.execute("GRANT USAGE ON SEQUENCE bench_stack_floor_id_seq TO PUBLIC")


def stack_floor_insert(db: Database, stream_id: uuid.UUID, data: Any) -> int:
    """One single-row INSERT in its own transaction (as an append is one), returning its id."""
    with db.connection() as conn:
        row = conn.execute("INSERT INTO bench_stack_floor (stream_id, data) VALUES (%s, %s) RETURNING id",
                           (stream_id, Jsonb(data))).fetchone()
    assert row is not None
    return int(row[0])


def stack_floor_select(db: Database, row_id: int) -> Any:
    """One single-row read by primary key (as a view's load is one query)."""
    with db.connection() as conn:
        row = conn.execute("SELECT data FROM bench_stack_floor WHERE id = %s", (row_id,)).fetchone()
    return None if row is None else row[0]
