"""Wake-up hints through LISTEN/NOTIFY: a batching sender and a listener.

NOTIFY is a hint, not a delivery: it is lost on disconnect, capped at
8,000 bytes, and a notifying commit takes a database-wide lock. So:

* :class:`Notifier` sends hints *after* the append has committed, from its own
  connection, coalescing every stream appended to since its last send into one
  ``NOTIFY`` (the append itself stays free of the global lock);
* :class:`Listener` holds one dedicated autocommit connection (never a pooled one),
  wakes the waiters of the streams named, wakes *everyone* after a reconnect (hints
  may have been lost), and waiters re-check the database on a timer anyway.
"""
from __future__ import annotations

import logging
import queue
import threading
import time
from collections import defaultdict
from collections.abc import Callable

import psycopg

CHANNEL = "facedown_events"
_MAX_PAYLOAD = 7900
log = logging.getLogger(__name__)


class Notifier:
    """Batches post-commit hints ``"<stream>:<version>"`` into few NOTIFY statements.

    After the first hint of a batch it lingers ``linger`` seconds for more: under load a
    NOTIFY (a transaction, and the database-wide lock at its commit) then carries several
    hints instead of one, for at most ``linger`` more delay before waiters wake.
    """

    def __init__(self, url: str, linger: float = 0.003) -> None:
        self.url = url
        self.linger = linger
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="facedown-notifier", daemon=True)
        self._thread.start()

    def hint(self, stream_id: object, version: int) -> None:
        self._queue.put(f"{stream_id}:{version}")

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(timeout=5)

    def _batch(self, first: str) -> tuple[list[str], bool]:
        items, size, stop = [first], len(first), False
        while size < _MAX_PAYLOAD - 60:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                break
            if item is None:
                stop = True
                break
            items.append(item)
            size += len(item) + 1
        return items, stop

    def _run(self) -> None:
        conn: psycopg.Connection[object] | None = None
        while True:
            first = self._queue.get()
            if first is None:
                break
            if self.linger > 0:
                time.sleep(self.linger)
            items, stop = self._batch(first)
            try:
                if conn is None or conn.closed:
                    conn = psycopg.connect(self.url, autocommit=True)
                conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, ",".join(items)))
            except psycopg.Error as exc:  # a lost hint only delays waiters until their timer
                log.warning("notify failed: %s", exc)
                conn = None
            if stop:
                break
        if conn is not None:
            conn.close()


class Listener:
    """LISTENs on a dedicated connection and calls ``on_hint(stream_id or None)``.

    ``None`` means "wake everyone" (after a (re)connect, when hints may have been lost).
    """

    def __init__(self, url: str, on_hint: Callable[[str | None], None], poll: float = 1.0) -> None:
        self.url = url
        self.on_hint = on_hint
        self.poll = poll
        self._stop = threading.Event()
        self.connected = threading.Event()
        self._thread = threading.Thread(target=self._run, name="facedown-listener", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        self._nudge()
        self._thread.join(timeout=5)

    def _nudge(self) -> None:
        """An empty hint, so that the LISTEN loop sees the stop now rather than at its next poll
        (a worker's shutdown, and every test server's, waited up to ``poll`` for it)."""
        if not self.connected.is_set():
            return
        try:
            with psycopg.connect(self.url, autocommit=True, connect_timeout=2) as conn:
                conn.execute("SELECT pg_notify(%s, '')", (CHANNEL,))
        except psycopg.Error:
            pass  # the loop still stops at its next poll

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self.connected.set()
                    self.on_hint(None)
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=self.poll, stop_after=None):
                            if self._stop.is_set():
                                break
                            for item in filter(None, note.payload.split(",")):
                                self.on_hint(item.split(":", 1)[0])
            except psycopg.Error as exc:
                self.connected.clear()
                log.warning("listener connection lost: %s; reconnecting", exc)
                time.sleep(0.5)


class Waiters:
    """Threads waiting for news of a stream; woken by the listener or by a timeout."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._events: dict[str, set[threading.Event]] = defaultdict(set)

    def wake(self, stream_id: str | None) -> None:
        with self._lock:
            if stream_id is None:
                targets = [e for group in self._events.values() for e in group]
            else:
                targets = list(self._events.get(stream_id, ()))
        for event in targets:
            event.set()

    def watch(self, stream_id: str, *more: str) -> Watch:
        """Register *before* re-checking the database, so that a hint landing between the
        check and the wait is not lost: ``with waiters.watch(s) as w: check; w.wait(t)``.
        With several streams, a hint for any of them wakes the waiter (a list of games)."""
        return Watch(self, stream_id, *more)

    def _add(self, stream_id: str, event: threading.Event) -> None:
        with self._lock:
            self._events[stream_id].add(event)

    def _remove(self, stream_id: str, event: threading.Event) -> None:
        with self._lock:
            group = self._events.get(stream_id)
            if group is not None:
                group.discard(event)
                if not group:
                    del self._events[stream_id]

    def wait(self, stream_id: str, timeout: float) -> bool:
        event = threading.Event()
        self._add(stream_id, event)
        try:
            return event.wait(timeout)
        finally:
            self._remove(stream_id, event)

    def count(self) -> int:
        with self._lock:
            return sum(len(g) for g in self._events.values())


class Watch:
    """One waiter's registration for a stream, held across re-checks (see :meth:`Waiters.watch`)."""

    __slots__ = ("_waiters", "stream_id", "stream_ids", "event")

    def __init__(self, waiters: Waiters, stream_id: str, *more: str) -> None:
        self._waiters = waiters
        self.stream_id = stream_id
        self.stream_ids = (stream_id, *more)
        self.event = threading.Event()

    def __enter__(self) -> Watch:
        for sid in self.stream_ids:
            self._waiters._add(sid, self.event)
        return self

    def __exit__(self, *exc: object) -> None:
        for sid in self.stream_ids:
            self._waiters._remove(sid, self.event)

    def wait(self, timeout: float) -> bool:
        """True if woken by a hint (or a reconnect) within ``timeout``; re-arms for the next."""
        woken = self.event.wait(timeout) if timeout > 0 else self.event.is_set()
        self.event.clear()
        return woken
