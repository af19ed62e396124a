"""Threads that run one operation in a loop for a fixed time, with latencies (store benchmarks)."""
from __future__ import annotations

import statistics
import threading
import time
from collections.abc import Callable
from typing import Any


def percentile(sorted_values: list[float], p: float) -> float:
    if not sorted_values:
        return float("nan")
    k = min(len(sorted_values) - 1, max(0, round(p / 100 * (len(sorted_values) - 1))))
    return sorted_values[k]


def run_threads(threads: int, seconds: float, op_factory: Callable[[int], Callable[[], None]]) -> dict[str, Any]:
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
