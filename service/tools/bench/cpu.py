"""Where a benchmark's CPU goes: seconds of CPU by process group, read from ``/proc``.

On a machine that runs the server, PostgreSQL and the load generator together, their CPU
per command says what limits the rate. Linux only; elsewhere every figure is ``None``.
Clients measure their own CPU (``time.process_time``); this module meters the processes
the benchmark started: the server's tree (gunicorn's master and workers) and the
PostgreSQL backends serving the benchmark's own database (``pg_stat_activity``), never
other processes that happen to be called ``postgres`` (other databases' backends come and
go, and their CPU once made the sum negative). With ``DATABASE_URL`` on another host the
backends are not here, and the PostgreSQL figure is ``None``.

A :class:`Processes` meter samples its set of processes while the run lasts, so a
process that starts during the run counts from its start and one that exits counts up to
its last sample; each counts ``max(0, ...)`` of its own CPU, so no figure is negative.
"""
from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

_PROC = Path("/proc")
_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
SAMPLE_SECONDS = 0.1
_SCHEDSTAT = (_PROC / "self" / "schedstat").is_file()

Stat = tuple[int, float]  # (start time in ticks since boot: with the pid, one process; CPU seconds)


def _stat(pid: int) -> Stat | None:
    """(start time, CPU seconds) of one process, or ``None`` if it is gone.

    The CPU is ``/proc/PID/schedstat``'s time on a CPU, in nanoseconds, where the kernel has it:
    ``stat``'s utime + stime count whole clock ticks (10 ms), and a short run whose backends each
    worked a few milliseconds read 0 ticks for PostgreSQL (the stack floor's 30 INSERTs on a
    loaded machine did). ``schedstat`` is one thread's: the process' CPU is the sum over its
    threads (``task/*/schedstat``), else a gthread worker's requests, each on a thread of its
    own, were not counted (0.18 ms per command against the gevent worker's 2.9). A thread that
    ends takes its time out of the sum: the threads metered here (gthread's pool, PostgreSQL's
    single-threaded backends, gevent's one thread) live as long as their process."""
    try:
        stat = (_PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[1].split()
    if not _SCHEDSTAT:
        return int(fields[19]), (int(fields[11]) + int(fields[12])) / _TICK
    nanoseconds = 0
    try:
        for task in (_PROC / str(pid) / "task").iterdir():
            try:
                nanoseconds += int((task / "schedstat").read_text().split()[0])
            except OSError:
                continue  # a thread that ended meanwhile
    except OSError:
        return None
    return int(fields[19]), nanoseconds / 1e9


def _children(pid: int) -> list[int]:
    try:
        tasks = list((_PROC / str(pid) / "task").iterdir())
    except OSError:
        return []
    out: list[int] = []
    for task in tasks:
        try:
            out += [int(x) for x in (task / "children").read_text().split()]
        except OSError:
            continue
    return out


def tree(root: int) -> list[int]:
    """A process and all its descendants alive now."""
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo += _children(pid)
    return out


def _is_postgres(pid: int) -> bool:
    try:
        return (_PROC / str(pid) / "comm").read_text().strip() == "postgres"
    except OSError:
        return False


def _now_ticks() -> int:
    return int(float((_PROC / "uptime").read_text().split()[0]) * _TICK)


class Processes:
    """CPU seconds of the processes ``find()`` names, from :meth:`start` to :meth:`stop`."""

    def __init__(self, find: Callable[[], list[int]]) -> None:
        self.find = find
        self._seen: dict[tuple[int, int], list[float]] = {}  # (pid, start) -> [CPU at first, at last sample]
        self._born_after = 0
        self._lock = threading.Lock()

    def sample(self) -> None:
        for pid in self.find():
            stat = _stat(pid)
            if stat is None:
                continue
            key = (pid, stat[0])
            with self._lock:
                seen = self._seen.get(key)
                if seen is None:
                    # born during the run: all of its CPU is the run's
                    self._seen[key] = [0.0 if stat[0] >= self._born_after else stat[1], stat[1]]
                else:
                    seen[1] = stat[1]

    def start(self) -> None:
        self._born_after = _now_ticks()
        self.sample()

    def __len__(self) -> int:
        """How many processes were seen."""
        return len(self._seen)

    def seconds(self) -> float:
        with self._lock:
            return sum(max(0.0, last - first) for first, last in self._seen.values())


class CpuMeter:
    """CPU seconds spent by the server tree and by the backends of its database between
    ``__init__`` and :meth:`stop` (sampled every :data:`SAMPLE_SECONDS` meanwhile)."""

    def __init__(self, server_pid: int, database_url: str) -> None:
        self._available = _PROC.is_dir()
        self._conn: Any = None
        self.server = Processes(lambda: tree(server_pid))
        self.postgres = Processes(self._backends)
        self._done = threading.Event()
        if not self._available:
            return
        from events.db import connect

        self._conn = connect(database_url)
        self.server.start()
        self.postgres.start()
        self._thread = threading.Thread(target=self._run, name="cpu-meter", daemon=True)
        self._thread.start()

    def _backends(self) -> list[int]:
        from events.bench_sql import backend_pids

        return [pid for pid in backend_pids(self._conn) if _is_postgres(pid)]

    def _run(self) -> None:
        while not self._done.wait(SAMPLE_SECONDS):
            self.server.sample()
            self.postgres.sample()

    def stop(self, commands: int, client_cpu_seconds: float) -> dict[str, float | None]:
        """Milliseconds of CPU per command: server, PostgreSQL, clients, and their total."""
        per = 1000 / max(commands, 1)
        server = postgres = None
        if self._available:
            self._done.set()
            self._thread.join()
            self.server.sample()
            self.postgres.sample()
            self._conn.close()
            server = round(self.server.seconds() * per, 3)
            # no backend of its database on this machine: a server elsewhere, not metered here
            postgres = round(self.postgres.seconds() * per, 3) if len(self.postgres) else None
        out: dict[str, float | None] = {"server": server, "postgres": postgres,
                                        "clients": round(client_cpu_seconds * per, 3)}
        parts = [v for v in out.values() if v is not None]
        out["total"] = round(sum(parts), 3) if len(parts) == 3 else None
        return out
