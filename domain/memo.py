"""Remembering what ``evolve`` just computed, by the identity of its arguments.

``decide`` folds every event it emits (to run the rules on the state it made); the caller
(the service after an append, the simulator) then folds the very same event objects onto
the very same state objects. Remembering those steps spares the second pass without
changing any result: states and events are immutable and ``evolve`` is pure. Each entry
holds its objects, so an ``id`` cannot be reused while it is remembered.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Generic, TypeVar

S = TypeVar("S")

Step = Callable[[Any, Any], Any]
Evolvers = Mapping[type, Step]  # event class -> its plain evolve step
Steps = dict[int, tuple[Any, Any, Any]]  # id(event) -> (state, event, state after)


class EvolveMemo(Generic[S]):
    """A ruleset's plain evolve (one step function per event class, ``evolvers``) with the
    last steps remembered.

    Steps are written by an :class:`domain.emitter.Emitter` (see :meth:`recorder`) and
    looked up by :meth:`evolve`. ``limit`` bounds the entries (cleared when a command
    starts with the memo full); ``None`` leaves the bound to the caller, who calls
    :meth:`forget` (e.g. at the start of every ``decide``).
    """

    __slots__ = ("_evolvers", "_limit", "_hits")

    def __init__(self, evolvers: Evolvers, limit: int | None = None) -> None:
        self._evolvers = evolvers
        self._limit = limit
        self._hits: Steps = {}

    def evolve(self, state: S | None, event: Any) -> S:
        """The state after ``event``: remembered if this very (state, event) was just folded."""
        hit = self._hits.get(id(event))
        if hit is not None and hit[1] is event and hit[0] is state:
            return hit[2]  # type: ignore[no-any-return]
        return self._evolvers[type(event)](state, event)  # type: ignore[no-any-return]

    def recorder(self) -> tuple[Evolvers, Steps]:
        """The plain steps by event class, and the table to write one command's steps into
        (room made first).

        The emitter looks the step up and writes the table itself: no call through a
        dispatch function, nor through the memo, on the hottest path of every ruleset.
        """
        if self._limit is not None and len(self._hits) >= self._limit:
            self._hits.clear()
        return self._evolvers, self._hits

    def forget(self) -> None:
        self._hits.clear()
