"""Cheap construction of the immutable values that ``decide`` and ``evolve`` make on every step.

:func:`fast_init` builds frozen slotted dataclasses (events, commands, layouts, windows)
for about half what the generated ``__init__`` costs.

``evolve`` makes a new state for every event, so how a state is copied is most of its
cost. Two shapes are used:

* a frozen dataclass that keeps a ``__dict__`` (no ``slots``): :func:`fast_replace`.
  The dataclass ``__init__`` sets each field through ``object.__setattr__`` (its way
  round the frozen ``__setattr__``), which costs more than the rules of a whole turn
  when a state has twenty-odd fields; instead the new object gets a copy of the old
  one's field dict with the changes on top (``dict | dict`` copies the table in one go);
* a ``NamedTuple``: :func:`tuple_replacer`, a ``_replace`` without ``_make``'s
  ``map(kwds.pop, ...)`` (about half the cost), and :func:`tuple_setter` for the steps
  run on every turn (one generated setter per set of fields, half as much again).

Neither calls ``__init__`` nor checks the field names (an unknown one would quietly
become an attribute, or a ``KeyError``): the callers are the rulesets' own ``evolve``
functions, for classes without ``__post_init__``.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

S = TypeVar("S")
T = TypeVar("T", bound=tuple[Any, ...])
C = TypeVar("C", bound=type)

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


def fast_init(cls: C) -> C:
    """Give the frozen slotted dataclass ``cls`` an ``__init__`` that sets each slot through
    its member descriptor; put it above ``@dataclass(frozen=True, slots=True)``.

    The generated ``__init__`` of a frozen dataclass calls ``object.__setattr__`` by name
    for every field (a lookup and a generic call each); events are made on every step, so
    that was a good share of ``decide``. This one takes the same arguments (names, order,
    defaults) and stores the same values; it refuses classes it would get wrong.
    """
    params = cls.__dataclass_params__  # type: ignore[attr-defined]
    fields = dataclasses.fields(cls)
    if not (params.frozen and params.init) or "__slots__" not in cls.__dict__ or hasattr(cls, "__post_init__") \
            or any(f.default_factory is not dataclasses.MISSING or not f.init or f.kw_only for f in fields):
        raise TypeError(f"fast_init is for plain frozen slotted dataclasses, not {cls.__qualname__}")
    namespace: dict[str, Any] = {}
    params_src, body = [], []
    for i, f in enumerate(fields):
        if f.default is dataclasses.MISSING:
            params_src.append(f.name)
        else:
            namespace[f"_default{i}"] = f.default
            params_src.append(f"{f.name}=_default{i}")
        namespace[f"_set{i}"] = cls.__dict__[f.name].__set__  # the slot's member descriptor
        body.append(f"    _set{i}(self, {f.name})\n")
    exec(f"def __init__(self, {', '.join(params_src)}):\n{''.join(body) or '    pass'}", namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    cls.__init__ = init  # type: ignore[misc]
    return cls


def tuple_setter(cls: type[T], *names: str) -> Callable[..., T]:
    """``set_(state, name=value, ...)``: the NamedTuple ``state`` with exactly the fields
    ``names`` set (all of them, by keyword or in that order).

    For the evolve steps run on every turn: a setter made for one set of fields skips
    :func:`tuple_replacer`'s ``**changes`` dict and its loop (about half the cost).
    """
    index = cls._fields  # type: ignore[attr-defined]
    unknown = [n for n in names if n not in index]
    if unknown or len(set(names)) != len(names):
        raise TypeError(f"tuple_setter: {cls.__name__} has no fields {unknown}, or a name repeats")
    # underscored names inside: a NamedTuple field name never starts with one
    body = "".join(f"    _items[{index.index(n)}] = {n}\n" for n in names)
    namespace: dict[str, Any] = {"_list": list, "_new": _new_tuple, "_cls": cls}
    exec(f"def set_(_state, {', '.join(names)}):\n    _items = _list(_state)\n{body}    return _new(_cls, _items)\n",
         namespace)
    setter: Callable[..., T] = namespace["set_"]
    setter.__qualname__ = f"{cls.__name__}.set({', '.join(names)})"
    return setter
