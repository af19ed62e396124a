"""Bounded memories: an LRU map, and what a function of one game object gives,
remembered for that object.

A game at one version is one immutable object, which the worker's cache hands to every
request that reads it. Its deadlines are asked for several times per command (the game
index, the notifications, the command's answer, the next seat's view), so they are worked
out once per object. Entries hold their object, so an id is never reused while remembered.
"""
from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

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
