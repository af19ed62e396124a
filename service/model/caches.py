"""Bounded memories: an LRU map, what a function of one game object gives, remembered for
that object, and the audits a worker built.

A game at one version is one immutable object, which the worker's cache hands to every
request that reads it. Its deadlines are asked for several times per command (the game
index, the notifications, the command's answer, the next seat's view), so they are worked
out once per object. Entries hold their object, so an id is never reused while remembered.
"""
from __future__ import annotations

import functools
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

R = TypeVar("R")
SIZE = 256  # games remembered per function: about a worker's games in play at once


class Lru(OrderedDict[Any, Any]):
    """A bounded, thread-safe map that forgets the least recently used entries first."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size
        self.lock = threading.Lock()

    def get_(self, key: Any) -> Any:
        with self.lock:
            return self.get(key)

    def put(self, key: Any, value: Any) -> None:
        with self.lock:
            self[key] = value
            self.move_to_end(key)
            while len(self) > self.size:
                self.popitem(last=False)

    def drop(self, key: Any) -> None:
        with self.lock:
            self.pop(key, None)

    def forget_all(self) -> None:
        with self.lock:
            self.clear()


def per_object(fn: Callable[[Any], R]) -> Callable[[Any], R]:
    """``fn(obj)`` computed once per object (by identity) among the last :data:`SIZE`.
    ``fn`` must depend on nothing but the immutable object, and its answer is shared."""
    seen = Lru(SIZE)

    @functools.wraps(fn)
    def remembered(obj: Any) -> R:
        hit = seen.get_(id(obj))
        if hit is not None and hit[0] is obj:
            return hit[1]  # type: ignore[no-any-return]
        value = fn(obj)
        seen.put(id(obj), (obj, value))
        return value

    return remembered


class Built(Protocol):
    """What :class:`AuditCache` keeps: a body, and when it was built (``time.monotonic``)."""

    @property
    def body(self) -> bytes: ...
    @property
    def at(self) -> float: ...


class AuditCache:
    """The audits this worker built, the latest per game, with the head version it was
    last checked at. A request at that head is answered from it with no read of the log;
    a newer head reads the log, and builds again only if what the audit shows changed (a
    round or the game ended). Bounded by ``max_bytes`` (the least recently used go first)
    and ``max_age`` seconds: the log is append-only, but the audit exists to catch an edit
    made around that, so no audit is served from a build older than that."""

    def __init__(self, max_bytes: int = 32 << 20, max_age: float = 60.0) -> None:
        self.max_bytes, self.max_age = max_bytes, max_age
        self._games: OrderedDict[uuid.UUID, tuple[int, Built]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self.building = threading.Lock()  # one build at a time per worker: a burst waits for the first

    def latest(self, gid: uuid.UUID) -> tuple[int, Built] | None:
        """(head version last checked, the audit) if it was built less than ``max_age`` ago."""
        with self._lock:
            hit = self._games.get(gid)
            if hit is None or time.monotonic() - hit[1].at > self.max_age:
                return None
            self._games.move_to_end(gid)
            return hit

    def put(self, gid: uuid.UUID, head: int, built: Built) -> None:
        with self._lock:
            old = self._games.pop(gid, None)
            if old is not None:
                self._bytes -= len(old[1].body)
            self._games[gid] = (head, built)
            self._bytes += len(built.body)
            while self._bytes > self.max_bytes and len(self._games) > 1:
                _, (_, gone) = self._games.popitem(last=False)
                self._bytes -= len(gone.body)
