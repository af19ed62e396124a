"""What the kernel says of a benchmark's server (``/proc``, Linux only): its processes' memory,
threads, CPU and descriptors, and the connections it holds on a port."""
from __future__ import annotations

import os
import time


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


def open_files(pids: list[int]) -> int:
    """The descriptors these processes hold open together."""
    total = 0
    for pid in pids:
        try:
            total += len(os.listdir(f"/proc/{pid}/fd"))
        except FileNotFoundError:
            pass
    return total


def steady_files(pids: list[int], quiet: float = 2.0, limit: float = 120.0) -> int:
    """The workers' descriptor count once it has not changed for ``quiet`` seconds."""
    start = last_change = time.monotonic()
    count = open_files(pids)
    while time.monotonic() - last_change < quiet and time.monotonic() - start < limit:
        time.sleep(0.1)
        now = open_files(pids)
        if now != count:
            count, last_change = now, time.monotonic()
    return count


def status(pids: list[int]) -> dict[str, int]:
    """The resident memory (kB) and CPU (clock ticks) of these processes together."""
    out = {"VmRSS": 0, "cpu_ticks": 0}
    for pid in pids:
        st = proc_status(pid)
        out["VmRSS"] += st["VmRSS"]
        out["cpu_ticks"] += st["cpu_ticks"]
    return out


def held_connections(port: int, peers: frozenset[int] | None = None) -> int:
    """Connections the server's side holds on ``port`` (established, or closed by the client
    and not yet by the server), from the kernel's tables; only those from the client ports
    ``peers`` when given. Exact, where counting a worker's descriptors would also count the
    database connections its pool opens, and other clients' connections closing meanwhile."""
    # a set: the kernel's table is not read atomically, and a socket may be listed twice
    held: set[tuple[str, str]] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as f:
                next(f)
                for line in f:
                    fields = line.split()
                    if (int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] in ("01", "08")
                            and (peers is None or int(fields[2].rsplit(":", 1)[1], 16) in peers)):
                        held.add((fields[1], fields[2]))
        except FileNotFoundError:
            continue
    return len(held)
