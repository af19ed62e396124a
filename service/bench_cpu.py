"""Where a benchmark's CPU goes: seconds of CPU by process group, read from ``/proc``.

On a machine that runs the server, PostgreSQL and the load generator together, their CPU
per command says what limits the rate. Linux only; elsewhere every figure is ``None``.
Clients measure their own CPU (``time.process_time``); this module reads the server's
process tree (gunicorn's master and workers) and every PostgreSQL process on the machine
(with ``DATABASE_URL`` on another host, that is only what runs here).
"""
from __future__ import annotations

import os
from pathlib import Path

_PROC = Path("/proc")
_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _cpu(pid: int) -> float:
    """utime + stime of one process in seconds (0 if it is gone)."""
    try:
        stat = (_PROC / str(pid) / "stat").read_text()
    except OSError:
        return 0.0
    fields = stat.rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / _TICK


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


def tree_cpu_seconds(root: int) -> float | None:
    """CPU seconds of a process and all its descendants alive now."""
    if not _PROC.is_dir():
        return None
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        total += _cpu(pid)
        todo += _children(pid)
    return total


def postgres_cpu_seconds() -> float | None:
    """CPU seconds of every process named ``postgres`` on this machine."""
    if not _PROC.is_dir():
        return None
    total = 0.0
    for entry in _PROC.iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == "postgres":
                    total += _cpu(int(entry.name))
            except OSError:
                continue
    return total


class CpuMeter:
    """CPU seconds spent by the server tree and PostgreSQL between ``__init__`` and :meth:`stop`."""

    def __init__(self, server_pid: int) -> None:
        self.server_pid = server_pid
        self._server = tree_cpu_seconds(server_pid)
        self._postgres = postgres_cpu_seconds()

    def stop(self, commands: int, client_cpu_seconds: float) -> dict[str, float | None]:
        """Milliseconds of CPU per command: server, PostgreSQL, clients, and their total."""
        server, postgres = tree_cpu_seconds(self.server_pid), postgres_cpu_seconds()
        per = 1000 / max(commands, 1)
        out: dict[str, float | None] = {
            "server": None if server is None or self._server is None else round((server - self._server) * per, 3),
            "postgres": None if postgres is None or self._postgres is None
            else round((postgres - self._postgres) * per, 3),
            "clients": round(client_cpu_seconds * per, 3),
        }
        parts = [v for v in out.values() if v is not None]
        out["total"] = round(sum(parts), 3) if len(parts) == 3 else None
        return out
