"""Compact legal actions: one entry of ``legal_actions`` stands for many commands (docs/rules/README.md).

An entry is a command as it may be sent, and may carry ``choices``: for some of its fields,
every value that field may take instead of the one it has::

    {"type": "Keep", "replace": "A", "also_discard": [],
     "choices": {"also_discard": {"subset_of": ["B", "C", "D"]}}}

* ``{"one_of": [v1, v2, ...]}``: the field is any one of these values;
* ``{"subset_of": [x1, x2, ...], "min": m, "max": M}``: the field (an array) is any ``m`` to
  ``M`` of these items, each at most once, in any order (``min`` is 0 and ``max`` the number
  of items when left out).

Each field is chosen on its own: every combination is a command that passes the public
checks now. The entry's own values are among its choices, and the server ignores
``choices`` in a command it is sent, so an entry posted as it is, is accepted. So a seat
with 18 cards is offered 18 ``Keep`` entries rather than 2.4 million.

This module reads entries (``command``, ``count``, ``commands``, ``values``, ``allows``,
``covers``, ``pick``, ``pick_among``, ``find``) and builds them (``entry``, ``one_of``, ``subset_of``). It imports nothing but the
standard library: the SDK ships the same file as ``facedown_client.choices``.
"""
from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

#: The key of an entry that holds its choices.
CHOICES = "choices"

Entry = Mapping[str, Any]

# -- building entries -----------------------------------------------------------------------------


def one_of(values: Iterable[Any]) -> dict[str, Any] | None:
    """A field that takes any one of ``values``; ``None`` (no choice to make) for a single value."""
    listed = list(values)
    return {"one_of": listed} if len(listed) > 1 else None


def subset_of(values: Iterable[Any], least: int = 0, most: int | None = None) -> dict[str, Any] | None:
    """An array field that takes any ``least`` to ``most`` of ``values``; ``None`` when only the
    empty array is possible."""
    listed = list(values)
    top = len(listed) if most is None else min(most, len(listed))
    if top == 0 or top < least:
        return None
    out: dict[str, Any] = {"subset_of": listed}
    if least:
        out["min"] = least
    if top < len(listed):
        out["max"] = top
    return out


def entry(command: dict[str, Any], **fields: dict[str, Any] | None) -> dict[str, Any]:
    """``command`` with the choices given for its fields (those that are ``None`` left out)."""
    given = {name: choice for name, choice in fields.items() if choice is not None}
    return {**command, CHOICES: given} if given else command


# -- reading entries ------------------------------------------------------------------------------


def command(e: Entry) -> dict[str, Any]:
    """The command an entry is as it stands (its ``choices`` left out)."""
    return {k: v for k, v in e.items() if k != CHOICES}


def _bounds(choice: Mapping[str, Any]) -> tuple[int, int]:
    n = len(choice["subset_of"])
    return choice.get("min", 0), choice.get("max", n)


def _ways(choice: Mapping[str, Any]) -> int:
    if "one_of" in choice:
        return len(choice["one_of"])
    least, most = _bounds(choice)
    n = len(choice["subset_of"])
    return sum(math.comb(n, k) for k in range(least, most + 1))


def count(e: Entry) -> int:
    """How many commands the entry stands for (1 without choices)."""
    return math.prod(_ways(c) for c in e.get(CHOICES, {}).values())


def values(e: Entry, name: str) -> list[Any]:
    """What field ``name`` may be: its ``one_of`` values, the items of its ``subset_of``, or
    the entry's own value when it has no choice."""
    choice = e.get(CHOICES, {}).get(name)
    if choice is None:
        return [e[name]] if name in e else []
    return list(choice["one_of"] if "one_of" in choice else choice["subset_of"])


def _values(choice: Mapping[str, Any]) -> Iterator[Any]:
    if "one_of" in choice:
        yield from choice["one_of"]
        return
    items = choice["subset_of"]
    least, most = _bounds(choice)
    for k in range(least, most + 1):
        for combo in itertools.combinations(items, k):
            yield list(combo)


def commands(e: Entry) -> Iterator[dict[str, Any]]:
    """Every command the entry stands for (as many as :func:`count` says: mind the size)."""
    base = command(e)
    picks = e.get(CHOICES, {})
    names = list(picks)
    for values in itertools.product(*(list(_values(picks[n])) for n in names)):
        yield {**base, **dict(zip(names, values))}


def _allowed(choice: Mapping[str, Any], value: Any) -> bool:
    if "one_of" in choice:
        return value in choice["one_of"]
    if not isinstance(value, (list, tuple)):
        return False
    least, most = _bounds(choice)
    items = choice["subset_of"]
    chosen = list(value)
    distinct = all(chosen[i] not in chosen[:i] for i in range(len(chosen)))
    return least <= len(chosen) <= most and distinct and all(v in items for v in chosen)


def allows(e: Entry, cmd: Mapping[str, Any]) -> bool:
    """Whether ``cmd`` (a command as JSON) is one of the commands the entry stands for."""
    picks = e.get(CHOICES, {})
    base = command(e)
    given = {k: v for k, v in cmd.items() if k != CHOICES}
    if base.keys() != given.keys():
        return False
    return all(_allowed(picks[k], v) if k in picks else v == base[k] for k, v in given.items())


def covers(entries: Iterable[Entry], cmd: Mapping[str, Any]) -> bool:
    """Whether some entry allows ``cmd``: whether a list of legal actions offers it."""
    return any(allows(e, cmd) for e in entries)


def pick(e: Entry, rng: random.Random) -> dict[str, Any]:
    """One of the entry's commands, each as likely as any other."""
    out = command(e)
    for name, choice in e.get(CHOICES, {}).items():
        if "one_of" in choice:
            out[name] = choice["one_of"][rng.randrange(len(choice["one_of"]))]
            continue
        items = choice["subset_of"]
        least, most = _bounds(choice)
        roll = rng.randrange(_ways(choice))  # a size as often as it has subsets, then one of them
        k = least
        while roll >= math.comb(len(items), k):
            roll -= math.comb(len(items), k)
            k += 1
        out[name] = [items[i] for i in sorted(rng.sample(range(len(items)), k))]
    return out


def pick_among(entries: Sequence[Entry], rng: random.Random) -> dict[str, Any]:
    """One command of all the entries stand for, each as likely as any other."""
    weights = [count(e) for e in entries]
    roll = rng.randrange(sum(weights))
    for e, w in zip(entries, weights):
        if roll < w:
            return pick(e, rng)
        roll -= w
    raise AssertionError("unreachable")


def find(entries: Iterable[Entry], **fields: Any) -> dict[str, Any] | None:
    """The first command some entry allows with these field values (its other fields as the
    entry has them), or ``None``: ``find(actions, type="Keep", replace="A", also_discard=["C"])``."""
    for e in entries:
        if e.get("type") != fields.get("type", e.get("type")):
            continue
        cmd = {**command(e), **fields}
        if allows(e, cmd):
            return cmd
    return None
