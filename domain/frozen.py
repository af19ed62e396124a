"""A cheap ``dataclasses.replace`` for the frozen state dataclasses that ``evolve`` rebuilds.

``evolve`` makes a new state for every event. A frozen dataclass's ``__init__`` sets each
field through ``object.__setattr__`` (its way round the frozen ``__setattr__``), which
costs more than the rules of a whole turn when a state has twenty-odd fields. A state
class that keeps a ``__dict__`` (no ``slots``) can instead be copied as one dict:
:func:`fast_replace` makes the new object and copies the old one's fields with the
changes on top, without calling ``__init__``.

Only for state classes with a ``__dict__`` and no ``__post_init__``: nothing is checked
(an unknown field name would quietly become an attribute), as the callers are the
ruleset's own ``evolve`` functions.
"""
from __future__ import annotations

from typing import Any, TypeVar

S = TypeVar("S")

_new = object.__new__


def fast_replace(obj: S, **changes: Any) -> S:
    """``dataclasses.replace(obj, **changes)`` for a frozen dataclass with a ``__dict__``."""
    out = _new(type(obj))
    fields = out.__dict__
    fields.update(obj.__dict__)
    fields.update(changes)
    return out
