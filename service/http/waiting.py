"""Waiting for news on behalf of a client: long-polls and event streams.

A waiter registers for its wake-up hint before it re-checks the database (so no hint slips
between the check and the wait), and is woken by a hint or on a rare jittered timer. A
client that went away is released at once, not when its wait would have ended: under the
gevent worker the waiter also wakes when its client's socket becomes readable (the end of
the connection), which costs nothing while the client is quiet; elsewhere it peeks at the
socket every ``probe`` seconds.
"""
from __future__ import annotations

import random
import socket
import time
from collections.abc import Callable
from typing import Any

from events.notify import Watch


def jittered(seconds: float) -> float:
    """Timer re-checks spread over ±25 %: waiters that started together must not re-query together."""
    return seconds * random.uniform(0.75, 1.25)


def _gevent_hub() -> Any:
    """gevent's hub when the standard library is patched (``facedown serve``), else None."""
    try:
        from gevent import get_hub, monkey
    except ImportError:
        return None
    return get_hub() if monkey.is_module_patched("socket") else None


class ClientProbe:
    """Whether the client of a request has closed its connection (peeking at its socket)."""

    def __init__(self, environ: dict[str, Any]) -> None:
        self.sock = environ.get("gunicorn.socket") or environ.get("werkzeug.socket")
        self._io: Any = None

    @property
    def armed(self) -> bool:
        return self._io is not None

    def arm(self, wake: Callable[[], None]) -> None:
        """Call ``wake`` when the client's socket becomes readable: a quiet client's socket
        only does when the client closes it (gevent's event loop watches it)."""
        hub = _gevent_hub()
        if hub is None or self.sock is None or self._io is not None:
            return
        try:
            self._io = hub.loop.io(self.sock.fileno(), 1)
            self._io.start(wake)
        except (OSError, ValueError):
            self._io = None

    def disarm(self) -> None:
        if self._io is not None:
            self._io.stop()
            self._io = None

    def gone(self) -> bool:
        sock = self.sock
        if sock is None:
            return False
        try:
            previous = sock.gettimeout()
            sock.settimeout(0.0)  # a peek that never blocks (and never yields under gevent)
            try:
                data = sock.recv(1, socket.MSG_PEEK)
            finally:
                sock.settimeout(previous)
        except (BlockingIOError, InterruptedError, socket.timeout):
            return False  # nothing to read: still connected
        except OSError:
            return True  # reset, or closed under us
        return data == b""  # end of file: the client closed; data: a pipelined request


def wait(watch: Watch, probe: ClientProbe, until: float, recheck: float, probe_every: float) -> str:
    """Wait for a hint until ``until`` (monotonic), at most one ``recheck`` (then look again):
    ``"woken"``, ``"timer"`` (time to re-check or to end), or ``"gone"`` (the client left)."""
    end = min(until, time.monotonic() + jittered(recheck))
    while True:
        now = time.monotonic()
        if now >= end:
            return "timer"
        woken = watch.wait(end - now if probe.armed else min(end - now, probe_every))
        if probe.armed and woken and probe.gone():
            return "gone"
        if probe.armed and woken and _readable(probe):
            probe.disarm()  # the client sent more (a pipelined request): peek on a timer instead
        if woken:
            return "woken"
        if not probe.armed and probe.gone():
            return "gone"


def _readable(probe: ClientProbe) -> bool:
    import select

    try:
        return bool(select.select([probe.sock], [], [], 0)[0])
    except (OSError, ValueError):
        return False
