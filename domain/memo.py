"""Remembering what ``evolve`` just computed for the last command, step by step.

``decide`` folds every event it emits (to run the rules on the state it made); the caller
(the service after an append, the simulator) then folds the very same event objects onto
the very same state objects, in the same order. Remembering those steps spares the second
pass without changing any result: states and events are immutable and ``evolve`` is pure.

Only the last command's steps are kept, in order, with a cursor: the caller's fold asks
for them one after the other, so each answer is one list item and two identity checks
(no ``id()`` call or table per event, and the old states are let go as soon as the next
command starts, not 64 steps later). A step that is not the next one remembered (another
state, another event, another command decided in between) is computed as usual.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Generic, TypeVar

S = TypeVar("S")

Step = Callable[[Any, Any], Any]
Evolvers = Mapping[type, Step]  # event class -> its plain evolve step
Steps = list[tuple[Any, Any, Any]]  # (state, event, state after), in the order folded


class EvolveMemo(Generic[S]):
    """A ruleset's plain evolve (one step function per event class, ``evolvers``) with the
    last command's steps remembered.

    Steps are written by an :class:`domain.emitter.Emitter` (see :meth:`recorder`) and
    read back in order by :meth:`evolve`.
    """

    __slots__ = ("_evolvers", "_steps", "_next")

    def __init__(self, evolvers: Evolvers) -> None:
        self._evolvers = evolvers
        self._steps: Steps = []
        self._next = 0  # the index of the step the caller's fold should ask for next

    def evolve(self, state: S | None, event: Any) -> S:
        """The state after ``event``: remembered if this very (state, event) is the next step."""
        i = self._next
        try:
            before, known, after = self._steps[i]
        except IndexError:  # past the last step remembered
            return self._evolvers[type(event)](state, event)  # type: ignore[no-any-return]
        if known is event and before is state:
            self._next = i + 1
            return after  # type: ignore[no-any-return]
        return self._evolvers[type(event)](state, event)  # type: ignore[no-any-return]

    def recorder(self) -> tuple[Evolvers, Steps]:
        """The plain steps by event class, and a new list to append one command's steps to
        (the previous command's are dropped).

        The emitter looks the step up and appends to the list itself: no call through a
        dispatch function, nor through the memo, on the hottest path of every ruleset.
        """
        steps: Steps = []
        self._steps = steps
        self._next = 0
        return self._evolvers, steps

    def forget(self) -> None:
        self._steps = []
        self._next = 0
