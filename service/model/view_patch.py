"""A seat's view as a JSON Patch (RFC 6902) from the view it held: what a command's answer
carries under ``Prefer: return=minimal`` (docs/performance.md, "The size of answers").

Consecutive views of a seat share most of their text (the seats, most of the table, the
standing-order forms of ``legal_actions``), so the patch names only what changed: objects key
by key, arrays element by element after their common start and end, and a whole value where
that is shorter. Only ``add``, ``remove`` and ``replace`` are used, in an order any RFC 6902
implementation applies as it stands. Every value in a patch is a part of the new view, so a
patch shows a seat nothing its view does not. Nothing here does I/O.
"""
from __future__ import annotations

from typing import Any

import orjson

Op = dict[str, Any]


def _pointer(path: str, key: str | int) -> str:
    """``path`` extended by one reference token (RFC 6901: ``~`` and ``/`` escaped)."""
    token = str(key)
    if "~" in token or "/" in token:
        token = token.replace("~", "~0").replace("/", "~1")
    return f"{path}/{token}"


def _size(value: Any) -> int:
    return len(orjson.dumps(value))


def view_patch(old: Any, new: Any) -> list[Op]:
    """The operations that turn ``old`` into ``new`` (``[]`` when they are equal)."""
    ops: list[Op] = []
    if old != new:
        _diff(old, new, "", ops)
    return ops


def _diff(a: Any, b: Any, path: str, ops: list[Op]) -> None:
    """Append to ``ops`` what turns ``a`` (not equal to ``b``) into ``b`` at ``path``."""
    if type(a) is dict and type(b) is dict:
        for k in a:
            if k not in b:
                ops.append({"op": "remove", "path": _pointer(path, k)})
        for k, v in b.items():
            if k not in a:
                ops.append({"op": "add", "path": _pointer(path, k), "value": v})
            elif a[k] is not v and a[k] != v:
                _diff(a[k], v, _pointer(path, k), ops)
        return
    if type(a) is list and type(b) is list:
        steps = _list_steps(a, b, path)
        if steps is not None:
            ops.extend(steps)
            return
    ops.append({"op": "replace", "path": path, "value": b})


_MISSING = object()


def _alike(x: Any, y: Any) -> bool:
    """Whether two elements are worth patching rather than replacing: objects that share at
    least half of the new one's members (two entries of ``legal_actions`` of different types
    share next to nothing), or two arrays."""
    if type(x) is dict and type(y) is dict:
        return sum(1 for k, v in y.items() if x.get(k, _MISSING) == v) * 2 >= len(y)
    return type(x) is list and type(y) is list


def _list_steps(a: list[Any], b: list[Any], path: str) -> list[Op] | None:
    """An array changed in place: its common start and end kept, the elements between paired
    by position (each patched, or replaced where that is shorter), then the surplus removed
    (from the end) or the rest added. ``None`` when replacing the whole array is shorter."""
    n = min(len(a), len(b))
    start = 0
    while start < n and a[start] == b[start]:
        start += 1
    end = 0
    while end < n - start and a[-1 - end] == b[-1 - end]:
        end += 1
    mid_a, mid_b = a[start:len(a) - end], b[start:len(b) - end]
    ops: list[Op] = []
    for i, (x, y) in enumerate(zip(mid_a, mid_b), start):
        if x == y:
            continue
        whole = {"op": "replace", "path": _pointer(path, i), "value": y}
        if not _alike(x, y):
            ops.append(whole)
            continue
        inner: list[Op] = []
        _diff(x, y, whole["path"], inner)
        ops.extend(inner if len(inner) == 1 or _size(inner) < _size(whole) else [whole])
    paired = min(len(mid_a), len(mid_b))
    for i in range(start + len(mid_a) - 1, start + paired - 1, -1):
        ops.append({"op": "remove", "path": _pointer(path, i)})
    for i, y in enumerate(mid_b[paired:], start + paired):
        ops.append({"op": "add", "path": _pointer(path, i), "value": y})
    if _size(ops) >= _size(b):
        return None
    return ops
