"""Plain-JSON form of commands and events (frozen dataclasses), with no I/O.

Field values are JSON scalars, tuples (lists in JSON) and ``dict[str, ...]``. Decoding
turns lists back into tuples, recursively. A command's JSON form is
``{"type": <ClassName>, **fields}``; ``parse_command`` checks the field names and the
scalar types against the dataclass annotations, so a malformed command is refused
with :class:`InvalidCommand` before a ruleset sees it.
"""
from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from functools import cache
from typing import Any

from domain.errors import InvalidCommand


def to_json(value: Any) -> Any:
    """Dataclasses → dicts, tuples → lists, recursively."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (tuple, list)):
        return [to_json(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_json(v) for k, v in value.items()}
    return value


def from_json(value: Any) -> Any:
    """Lists → tuples, recursively (the inverse of :func:`to_json` for plain fields)."""
    if isinstance(value, list):
        return tuple(from_json(v) for v in value)
    if isinstance(value, dict):
        return {k: from_json(v) for k, v in value.items()}
    return value


def typed(obj: Any) -> dict[str, Any]:
    """``{"type": ClassName, **fields}``: the wire form of a command or event."""
    return {"type": type(obj).__name__, **to_json(obj)}


def build(cls: type, data: Mapping[str, Any]) -> Any:
    """Rebuild a dataclass from its stored fields (no validation: stored data is trusted)."""
    return cls(**{k: from_json(v) for k, v in data.items()})


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _matches(value: Any, hint: Any) -> bool:
    if hint is Any:
        return True
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return any(_matches(value, h) for h in typing.get_args(hint))
    if hint is type(None):
        return value is None
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**53
    if hint is str:
        return isinstance(value, str) and len(value) <= 200
    if origin is tuple:
        args = typing.get_args(hint)
        if not isinstance(value, (list, tuple)) or len(value) > 64:
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_matches(v, args[0]) for v in value)
        return len(value) == len(args) and all(_matches(v, a) for v, a in zip(value, args))
    if origin is typing.Literal:
        return value in typing.get_args(hint)
    return False


def parse_command(data: Any, command_types: Mapping[str, type]) -> Any:
    """Build a command object from its JSON form, or raise :class:`InvalidCommand`."""
    if not isinstance(data, Mapping):
        raise InvalidCommand("a command is a JSON object")
    name = data.get("type")
    if not isinstance(name, str) or name not in command_types:
        raise InvalidCommand(f"unknown command type {name!r}; expected one of {sorted(command_types)}")
    cls = command_types[name]
    hints = _hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    extra = set(data) - set(fields) - {"type"}
    if extra:
        raise InvalidCommand(f"{name}: unknown field(s) {sorted(extra)}")
    values: dict[str, Any] = {}
    for fname, f in fields.items():
        if fname not in data:
            has_default = f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
            if has_default:
                continue
            raise InvalidCommand(f"{name}: missing field {fname!r}")
        if not _matches(data[fname], hints[fname]):
            raise InvalidCommand(f"{name}: field {fname!r} has the wrong type or size")
        values[fname] = from_json(data[fname])
    return cls(**values)
