"""Per-process wake-up machinery: a Notifier for post-commit hints, a Listener + Waiters
for long-polls. Created lazily, once per worker process (never at import, never
inherited across a fork)."""
from __future__ import annotations

import os
import threading

from events.notify import Listener, Notifier, Waiters


class Live:
    def __init__(self, url: str) -> None:
        self.url = url
        self._lock = threading.Lock()
        self._pid = -1
        self._notifier: Notifier | None = None
        self._listener: Listener | None = None
        self._waiters = Waiters()

    def _check_fork(self) -> None:
        if self._pid != os.getpid():  # a forked worker starts afresh
            self._pid = os.getpid()
            self._notifier = None
            self._listener = None
            self._waiters = Waiters()

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
            if self._listener is None:
                self._listener = Listener(self.url, self._waiters.wake, poll=1.0)
                self._listener.connected.wait(2.0)
            return self._waiters

    def close(self) -> None:
        with self._lock:
            if self._notifier is not None:
                self._notifier.close()
            if self._listener is not None:
                self._listener.close()
            self._notifier = self._listener = None
