"""The one thing ``facedown serve`` does before any other import when it runs the gevent worker:
the standard library made cooperative, and psycopg's waits given to gevent's own loop."""
from __future__ import annotations

from time import monotonic
from typing import Any

from gevent import get_hub
from gevent.monkey import get_original
from gevent.socket import wait as wait_on_watcher

_psycopg: Any = None  # psycopg's errors and enums, once patched (psycopg is imported after the patch)


def patch_for_gevent() -> None:
    """Make the standard library cooperative before psycopg is imported: psycopg picks its
    wait function when it is first imported, and uses one that yields to gevent only if
    ``select`` is patched by then (psycopg 3.1.14 and later). Then psycopg waits through
    :func:`wait_on_loop` instead of that one."""
    from gevent import monkey

    monkey.patch_all()
    global _psycopg
    import psycopg
    from psycopg import waiting

    _psycopg = psycopg
    waiting.wait = wait_on_loop  # psycopg's connections look it up at each wait


def wait_on_loop(gen: Any, fileno: int, interval: float = 0.0, timeout: float | None = None) -> Any:
    """psycopg's wait (``psycopg.waiting.wait``: drive ``gen``, a generator of libpq steps,
    sending it what the socket is ready for) on one watcher of gevent's loop.

    psycopg's own choice under gevent is its ``wait_poll`` through gevent's emulation of
    ``select.poll``, which builds a poll object, a watcher per call and a timer for its
    interval at every wait of every statement: about 7 % of a worker's CPU under
    ``bench api`` (docs/performance.md). The interval is only for noticing Ctrl-C between
    waits, which a greenlet of a server has no use for, so with no ``timeout`` no timer is
    set: a lost connection still wakes the watcher (the socket reads as ready, and libpq
    then reports the loss)."""
    Ready, Wait = _psycopg.waiting.Ready, _psycopg.waiting.Wait
    deadline = None if timeout is None else monotonic() + timeout
    loop = get_hub().loop
    try:
        s = next(gen)
        while True:
            watcher = loop.io(fileno, int(s))  # libev's READ and WRITE are psycopg's R and W
            try:
                if deadline is None:
                    wait_on_watcher(watcher)
                else:
                    wait_on_watcher(watcher, max(0.0, min(interval, deadline - monotonic())), _Idle)
            except _Idle:
                gen.send(Ready.NONE)
                if monotonic() >= deadline:  # type: ignore[operator]
                    raise _psycopg.errors._WaitTimeout("wait timeout expired") from None
                continue
            finally:
                watcher.close()
            s = gen.send(_ready(fileno) if s == Wait.RW else Ready(int(s)))
    except StopIteration as ex:
        return ex.value


class _Idle(Exception):
    """A wait with a timeout that passed with nothing ready."""


def _ready(fileno: int) -> Any:
    """What a socket is ready for now, asked without waiting (the unpatched ``select.poll``:
    a watcher on both says one of them is ready, not which)."""
    Ready = _psycopg.waiting.Ready
    poller = get_original("select", "poll")()
    poller.register(fileno, 0x001 | 0x004)  # POLLIN | POLLOUT
    events = poller.poll(0)
    mask = events[0][1] if events else 0
    ready = (Ready.R if mask & 0x019 else 0) | (Ready.W if mask & 0x004 else 0)  # IN, ERR, HUP; OUT
    return Ready(ready) if ready else Ready.RW
