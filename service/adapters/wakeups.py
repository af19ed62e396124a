"""Per-process wake-up machinery: a Notifier for post-commit hints, a Listener + Waiters
for long-polls. Created lazily, once per worker process (never at import, never
inherited across a fork)."""
from __future__ import annotations

import os
import threading
from collections.abc import Callable

from events.citus import node_urls
from events.notify import Listener, Notifier, Waiters


class Live:
    def __init__(self, url: str) -> None:
        self.url = url
        self._lock = threading.Lock()
        self._pid = -1
        self._notifier: Notifier | None = None
        self._listeners: list[Listener] = []
        self._waiters = Waiters()
        self._callbacks: dict[str, Callable[[], None]] = {}  # key -> what to do on its hint
        self._prefixed: dict[str, Callable[[], None]] = {}  # key prefix -> what to do on a hint of any such key
        self._connects = 0  # the listeners' connections in this process (their first lose nothing)
        self._unheard = False  # a callback was registered while the listener was not yet connected
        self.closing = False  # set when the process shuts down: waiters end at once

    def _check_fork(self) -> None:
        if self._pid != os.getpid():  # a forked worker starts afresh
            self._pid = os.getpid()
            self._notifier = None
            self._listeners = []
            self._waiters = Waiters()
            self._connects = 0

    def hint(self, stream_id: object, version: int) -> None:
        with self._lock:
            self._check_fork()
            if self._notifier is None:
                self._notifier = Notifier(self.url)
            notifier = self._notifier
        notifier.hint(stream_id, version)

    def waiters(self) -> Waiters:
        with self._lock:
            self._check_fork()
            if not self._listeners:
                for listener in self._listen():
                    listener.connected.wait(2.0)
            return self._waiters

    def _listen(self) -> list[Listener]:
        """Start this process's listeners (under ``self._lock``): one per node. On a Citus
        cluster an append runs on the worker that holds its game, and a NOTIFY sent inside it is
        heard only there (our own hints are sent after commit through self.url, the coordinator)."""
        self._listeners = [Listener(url, self._on_hint, poll=1.0) for url in node_urls(self.url)]
        return self._listeners

    def on_hint(self, key: str, callback: Callable[[], None]) -> None:
        """Call ``callback`` whenever a hint for ``key`` arrives from any process, and when
        hints may have been lost (the listener connected late, or reconnected): what the
        caller learns after this returns is covered. Waits at most 0.25 s for the listener
        (a request must not wait long for it while the database is away)."""
        self._callbacks[key] = callback
        with self._lock:
            self._check_fork()
            listeners = list(self._listeners or self._listen())
        if not all(listener.connected.wait(0.25) for listener in listeners):
            self._unheard = True

    def on_prefix(self, prefix: str, callback: Callable[[], None]) -> None:
        """Call ``callback`` on every hint whose key starts with ``prefix`` (and when hints may
        have been lost): the senders of e-mail and pushes wake on any player's news."""
        self._prefixed[prefix] = callback
        with self._lock:
            self._check_fork()
            if not self._listeners:
                self._listen()

    def _on_hint(self, key: str | None) -> None:
        for prefix, wake in list(self._prefixed.items()):
            if key is None or key.startswith(prefix):
                wake()
        self._waiters.wake(key)
        if key is None:  # (re)connected: hints of the time before are lost
            self._connects += 1
            if self._connects <= len(self._listeners) and not self._unheard:
                return  # each listener's first connection: listening began before anything a callback covers
            self._unheard = False
        for k, callback in list(self._callbacks.items()):
            if key is None or k == key:
                callback()

    def stop_waiting(self) -> None:
        """End every long-poll and stream of this process now (it is shutting down)."""
        self.closing = True
        self._waiters.wake(None)

    def close(self) -> None:
        self.closing = True
        self._waiters.wake(None)
        with self._lock:
            if self._notifier is not None:
                self._notifier.close()
            for listener in self._listeners:
                listener.close()
            self._notifier = None
            self._listeners = []
