"""Collecting one command's events while folding each into the state as it goes."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any


class Emitter:
    """The events of one command so far (``events``) and the state they lead to (``s``).

    ``decide`` functions read ``s`` to carry on from what they have just emitted; ``key``
    is the command's chance key.
    """

    __slots__ = ("s", "events", "key", "_evolve")

    def __init__(self, state: Any, key: bytes, evolve: Callable[[Any, Any], Any]) -> None:
        self.s = state
        self.events: list[Any] = []
        self.key = key
        self._evolve = evolve

    def emit(self, event: Any) -> None:
        self.events.append(event)
        self.s = self._evolve(self.s, event)
