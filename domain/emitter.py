"""Collecting one command's events while folding each into the state as it goes."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from domain.memo import EvolveMemo


class Emitter:
    """The events of one command so far (``events``) and the state they lead to (``s``).

    ``decide`` functions read ``s`` to carry on from what they have just emitted; ``key``
    is the command's chance key. Every step is remembered in ``memo`` (see
    :mod:`domain.memo`) for the caller, who folds the same events again. Each ruleset
    subclasses it with its own ``memo`` (a class attribute, so that making one per command
    is a single call). ``hooks`` (by event class) run after such an event is folded, and may
    emit more events (the standing orders that an event cancels, :mod:`domain.orders`).
    """

    __slots__ = ("s", "events", "key", "_evolvers", "_record")
    memo: ClassVar[EvolveMemo[Any]]
    hooks: ClassVar[Mapping[type, Callable[[Any, Any], None]]] = {}

    def __init__(self, state: Any, key: bytes = b"") -> None:
        self.s = state
        self.events: list[Any] = []
        self.key = key
        self._evolvers, steps = self.memo.recorder()
        self._record = steps.append

    def emit(self, event: Any) -> Any:
        """Add ``event`` and fold it (then its hook); the new state is ``s`` (and is returned)."""
        before = self.s
        self.s = after = self._evolvers[type(event)](before, event)
        self.events.append(event)
        self._record((before, event, after))
        hook = self.hooks.get(type(event))
        if hook is not None:
            hook(self, event)
        return self.s
