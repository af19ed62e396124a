"""What a function of one game object gives, remembered for that object.

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


def per_object(fn: Callable[[Any], R]) -> Callable[[Any], R]:
    """``fn(obj)`` computed once per object (by identity) among the last :data:`SIZE`.
    ``fn`` must depend on nothing but the immutable object, and its answer is shared."""
    seen: OrderedDict[int, tuple[Any, R]] = OrderedDict()
    lock = threading.Lock()

    @functools.wraps(fn)
    def remembered(obj: Any) -> R:
        key = id(obj)
        with lock:
            hit = seen.get(key)
        if hit is not None and hit[0] is obj:
            return hit[1]
        value = fn(obj)
        with lock:
            seen[key] = (obj, value)
            seen.move_to_end(key)
            while len(seen) > SIZE:
                seen.popitem(last=False)
        return value

    return remembered
