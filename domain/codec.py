"""Plain-JSON form of commands and events (frozen dataclasses), with no I/O.

Field values are JSON scalars, tuples (lists in JSON) and ``dict[str, ...]``. Decoding
turns lists back into tuples, recursively. A command's JSON form is
``{"type": <ClassName>, **fields}``; ``parse_command`` checks the field names and the
scalar types against the dataclass annotations, so a malformed command is refused
with :class:`InvalidCommand` before a ruleset sees it. A ``choices`` key (an entry of
``legal_actions`` sent as it is, :mod:`domain.choices`) is no field and is left aside.
"""
from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, NamedTuple

from domain.choices import CHOICES
from domain.errors import InvalidCommand
from domain.messages import SYSTEM_COMMANDS


_PLAIN = frozenset({str, int, bool, float, type(None)})
#: The most items an array field takes (a command names at most this many slots or cards).
ARRAY_MAX = 64


@cache
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))


def to_json(value: Any) -> Any:
    """Dataclasses → dicts, tuples → lists, recursively."""
    cls = type(value)
    if cls in _PLAIN:  # most field values: returned as they are, without the checks below
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {name: to_json(getattr(value, name)) for name in _field_names(cls)}
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


def renamed(data: dict[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    """``data`` with keys renamed by ``names`` (stored name -> presented name), in order."""
    return {names.get(k, k): v for k, v in data.items()}


def build(cls: type, data: Mapping[str, Any]) -> Any:
    """Rebuild a dataclass from its stored fields (no validation: stored data is trusted)."""
    return cls(**{k: from_json(v) for k, v in data.items()})


Check = Callable[[Any], bool]


def _any(value: Any) -> bool:
    return True


def _never(value: Any) -> bool:
    return False


def _is_none(value: Any) -> bool:
    return value is None


def _is_bool(value: Any) -> bool:
    return isinstance(value, bool)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**53


def _is_str(value: Any) -> bool:
    return isinstance(value, str) and len(value) <= 200


def _compile(hint: Any) -> Check:
    """The check a field's type hint asks of its JSON value, built once per command class.

    Accepted: JSON scalars of the hinted type (ints below 2**53, strings up to 200
    characters, ``bool`` never for ``int``), ``Literal`` values, unions of these, and
    arrays of at most :data:`ARRAY_MAX` items for ``tuple`` hints; any other hint accepts nothing.
    Interpreting the hint again for every command cost more than the rules themselves.
    """
    if hint is Any:
        return _any
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        alternatives = tuple(_compile(h) for h in typing.get_args(hint))
        return lambda value: any(check(value) for check in alternatives)
    if hint is type(None):
        return _is_none
    if hint is bool:
        return _is_bool
    if hint is int:
        return _is_int
    if hint is str:
        return _is_str
    if origin is tuple:
        return _compile_tuple(typing.get_args(hint))
    if origin is typing.Literal:
        allowed = typing.get_args(hint)
        return lambda value: value in allowed
    return _never


def _compile_tuple(args: tuple[Any, ...]) -> Check:
    """``tuple[X, ...]`` (any length up to ARRAY_MAX) or ``tuple[A, B, ...]`` (exactly these)."""
    if len(args) == 2 and args[1] is Ellipsis:
        item = _compile(args[0])
        return lambda value: (isinstance(value, (list, tuple)) and len(value) <= ARRAY_MAX
                              and all(map(item, value)))
    items = tuple(_compile(a) for a in args)
    if len(items) == 2:  # a (seat, slot) pair, the usual fixed tuple: no generator per pair
        first, second = items
        return lambda value: (isinstance(value, (list, tuple)) and len(value) == 2
                              and first(value[0]) and second(value[1]))
    return lambda value: (isinstance(value, (list, tuple)) and len(value) <= ARRAY_MAX and len(value) == len(items)
                          and all(check(v) for check, v in zip(items, value)))


def _holds_only_scalars(hint: Any) -> bool:
    """Whether every value that passes ``hint``'s check is a JSON scalar (never a list or dict)."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return all(_holds_only_scalars(h) for h in typing.get_args(hint))
    if origin is typing.Literal:
        return all(isinstance(a, (str, int, type(None))) for a in typing.get_args(hint))
    return hint in (type(None), bool, int, str)


def _decoder(hint: Any) -> Callable[[Any], Any] | None:
    """What :func:`from_json` comes to for a checked value: nothing for a scalar, ``tuple``
    for an array of scalars; ``from_json`` itself for anything else."""
    if _holds_only_scalars(hint):
        return None
    if typing.get_origin(hint) is tuple:
        args = [a for a in typing.get_args(hint) if a is not Ellipsis]
        if all(_holds_only_scalars(a) for a in args):
            return tuple
        if all(typing.get_origin(a) is tuple and _decoder(a) is tuple for a in args):
            return _tuple_of_tuples  # e.g. Look's targets, ((seat, slot), ...)
    return from_json


def _tuple_of_tuples(value: Any) -> Any:
    """:func:`from_json` of a checked array of arrays of scalars (a tuple stays as it is)."""
    return tuple(map(tuple, value)) if isinstance(value, list) else value


class _Field(NamedTuple):  # a tuple, unpacked in parse_command's loop
    name: str
    required: bool  # no default: a command without it is refused
    check: Check
    decode: Callable[[Any], Any] | None  # None: the JSON value is the field value


@cache
def _schema(cls: type) -> tuple[frozenset[str], tuple[_Field, ...]]:
    """The keys a command of ``cls`` may carry (``type`` and ``choices`` included) and its fields' checks."""
    hints = typing.get_type_hints(cls)
    fields = tuple(
        _Field(f.name, f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING,
               _compile(hints[f.name]), _decoder(hints[f.name]))
        for f in dataclasses.fields(cls))
    return frozenset(f.name for f in fields) | {"type", CHOICES}, fields


def expected(hint: Any) -> str:
    """What a field's hint accepts, in words, for the message that refuses a value."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(expected(h) for h in typing.get_args(hint))
    if origin is typing.Literal:
        return "one of " + ", ".join(repr(v) for v in typing.get_args(hint)).replace("'", '"')
    if origin is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return f"an array (at most {ARRAY_MAX}) of {expected(args[0])}"
        return "[" + ", ".join(expected(a) for a in args) + "]"
    words = {type(None): "null", bool: "true or false", int: "an integer", str: "a string (at most 200 characters)"}
    return words.get(hint, "a valid value")


def parse_command(data: Any, command_types: Mapping[str, type]) -> Any:
    """Build a command object from its JSON form, or raise :class:`InvalidCommand`."""
    if type(data) is not dict and not isinstance(data, Mapping):
        raise InvalidCommand("a command is a JSON object")
    name = data.get("type")
    if not isinstance(name, str) or name not in command_types:
        # the server's own commands are no player's to send: never offered, even here
        offered = sorted(t for t in command_types if t not in SYSTEM_COMMANDS)
        raise InvalidCommand(f"unknown command type {name!r}; expected one of {offered}")
    cls = command_types[name]
    known, fields = _schema(cls)
    if not known.issuperset(data):
        raise InvalidCommand(f"{name}: unknown field(s) {sorted(set(data) - known)}")
    values: dict[str, Any] = {}
    for field, required, check, decode in fields:
        if field not in data:
            if required:
                raise InvalidCommand(f"{name}: missing field {field!r}")
            continue
        value = data[field]
        if not check(value):
            hint = typing.get_type_hints(cls)[field]
            raise InvalidCommand(f"{name}: field {field!r} must be {expected(hint)}, not {value!r}"[:400])
        values[field] = value if decode is None else decode(value)
    return cls(**values)


class CommandParser:
    """``parse_command(data)`` for one ruleset's ``command_types``, remembering what it built.

    Commands are immutable, so an accepted one is handed out again for the same JSON: the
    same keys in the same order, the same values *and* value types (``true`` is never
    ``1``). Only objects of scalars are remembered (an array costs more to key than to
    parse); refusals never are, so every error is raised as before. A ruleset sets
    ``parse_command = CommandParser(COMMAND_TYPES)`` (called as it is, not as a method).
    """

    __slots__ = ("_types", "_known")
    LIMIT = 4096  # commands kept; the table is emptied when full

    def __init__(self, command_types: Mapping[str, type]) -> None:
        self._types = command_types
        # (key, value) pairs in order -> (the values' types, the command): keyed by the pairs
        # alone, which hash as they are, and the types compared on a hit (1 == True as keys)
        self._known: dict[Any, tuple[tuple[type, ...], Any]] = {}

    def __call__(self, data: Any) -> Any:
        if type(data) is not dict:
            return parse_command(data, self._types)
        types = tuple(map(type, data.values()))
        if list in types or dict in types:  # an array or an object: parsed every time, no key tried
            return parse_command(data, self._types)
        key = tuple(data.items())
        try:
            hit = self._known.get(key)
        except TypeError:  # some other unhashable value
            return parse_command(data, self._types)
        if hit is not None and hit[0] == types:
            return hit[1]
        command = parse_command(data, self._types)
        # never a tuple: (1, 2) == (True, 2), and the types of its items are not compared
        if tuple not in types:
            if len(self._known) >= self.LIMIT:
                self._known.clear()
            self._known[key] = (types, command)
        return command
