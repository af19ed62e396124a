"""Cheap copies-with-changes of the immutable states that ``evolve`` rebuilds on every event.

``evolve`` makes a new state for every event, so how a state is copied is most of its
cost. Two shapes are used:

* a frozen dataclass that keeps a ``__dict__`` (no ``slots``): :func:`fast_replace`.
  The dataclass ``__init__`` sets each field through ``object.__setattr__`` (its way
  round the frozen ``__setattr__``), which costs more than the rules of a whole turn
  when a state has twenty-odd fields; instead the new object gets a copy of the old
  one's field dict with the changes on top (``dict | dict`` copies the table in one go);
* a ``NamedTuple``: :func:`tuple_replacer`, a ``_replace`` without ``_make``'s
  ``map(kwds.pop, ...)`` (about half the cost).

Neither calls ``__init__`` nor checks the field names (an unknown one would quietly
become an attribute, or a ``KeyError``): the callers are the rulesets' own ``evolve``
functions, for classes without ``__post_init__``.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

S = TypeVar("S")
T = TypeVar("T", bound=tuple[Any, ...])

_new = object.__new__
_set = object.__setattr__  # round the frozen __setattr__, as dataclasses' own __init__ does
_new_tuple = tuple.__new__


def fast_replace(obj: S, **changes: Any) -> S:
    """``dataclasses.replace(obj, **changes)`` for a frozen dataclass with a ``__dict__``."""
    out = _new(type(obj))
    _set(out, "__dict__", obj.__dict__ | changes)
    return out


def tuple_replacer(cls: type[T]) -> Callable[..., T]:
    """``replace(state, **changes)``: ``state._replace(**changes)`` for the NamedTuple ``cls``."""
    index = {name: i for i, name in enumerate(cls._fields)}  # type: ignore[attr-defined]

    def replace(state: T, **changes: Any) -> T:
        items = list(state)
        for name, value in changes.items():
            items[index[name]] = value
        return _new_tuple(cls, items)  # type: ignore[no-any-return]

    return replace
