"""A JSON form of folded states (a ruleset's state, and anything made of the same values).

A state is immutable data: JSON scalars, tuples, frozensets, dicts, and frozen dataclasses
or ``NamedTuple``\\ s of these (``Layout``, ``Notebook``, ``Window``, a ruleset's ``State``
and ``Opts``...). Its form, for ``json``/``orjson`` as it is:

* ``None``, ``bool``, ``int``, ``float``, ``str``: themselves;
* a tuple: a list (decoded as a tuple again);
* every other value: an object with exactly one key, which says what it is:
  ``{"frozenset": [items]}``, ``{"dict": {str key: value}}``, ``{"map": [[key, value], ...]}``
  (a dict with other keys), and ``{"<name>": [field values in order]}`` for a class of the
  codec's registry, named by its module and qualified name (``"table.Layout"``,
  ``"rules.corte.model.State"``).

Decoding builds only the registry's classes: the data names a class, it never chooses
code to run (as a pickle does). A value of any other type is refused by :meth:`encode`
(``TypeError``), a form that names any other class or is malformed by :meth:`decode`
(``ValueError``/``TypeError``). The round trip is exact: ``decode(encode(s)) == s``,
with the same types throughout (``True`` stays a bool, a tuple a tuple).

The form is tied to the code that wrote it (field order, class names): whoever stores
it must also store which code wrote it and ignore other versions' forms, as snapshots do
(``FORMAT`` is the version of the form itself).
"""
from __future__ import annotations

import dataclasses
import importlib
import pkgutil
from collections.abc import Callable, Iterable
from operator import attrgetter
from types import ModuleType
from typing import Any

FORMAT = 1
_SCALARS = (str, int, bool, float, type(None))
_FLAT = frozenset(_SCALARS)  # encoded as they are: the loops below skip the call for them


def _is_namedtuple(cls: type) -> bool:
    return issubclass(cls, tuple) and hasattr(cls, "_fields") and hasattr(cls, "_make")


def _is_value_class(cls: Any) -> bool:
    """A frozen dataclass whose every field is an ``__init__`` argument, or a NamedTuple."""
    if not isinstance(cls, type):
        return False
    if _is_namedtuple(cls):
        return True
    params = getattr(cls, "__dataclass_params__", None)
    return params is not None and params.frozen and params.init and "__dataclass_fields__" in cls.__dict__ \
        and all(f.init for f in dataclasses.fields(cls))


def value_classes(package: ModuleType) -> tuple[type, ...]:
    """Every value class defined in ``package`` and its modules (imported here), in a fixed order."""
    modules = [package]
    for info in sorted(pkgutil.walk_packages(package.__path__, package.__name__ + "."), key=lambda i: i.name):
        modules.append(importlib.import_module(info.name))
    found: dict[str, type] = {}
    for module in modules:
        for obj in vars(module).values():
            if _is_value_class(obj) and obj.__module__ == module.__name__:
                found[f"{obj.__module__}.{obj.__qualname__}"] = obj
    return tuple(found[k] for k in sorted(found))


def _name(cls: type) -> str:
    """The class's tag: its module (without the ``domain.`` prefix) and qualified name."""
    module = cls.__module__.removeprefix("domain.")
    return f"{module}.{cls.__qualname__}"


class StateCodec:
    """``encode``/``decode`` between values made of ``classes`` (and of the plain types) and
    their JSON form (see the module docstring)."""

    def __init__(self, classes: Iterable[type]) -> None:
        self._encoders: dict[type, Callable[[Any], Any]] = {}
        self._decoders: dict[str, Callable[[Any], Any]] = {}
        for cls in classes:
            if not _is_value_class(cls):
                raise TypeError(f"{cls.__qualname__} is not a frozen dataclass or a NamedTuple")
            name = _name(cls)
            if name in self._decoders and self._decoders[name] is not cls:
                raise TypeError(f"two classes are called {name}")
            self._add(cls, name)

    # ------------------------------------------------------------ building

    def _add(self, cls: type, name: str) -> None:
        enc, dec = self._encode, self._decode
        if _is_namedtuple(cls):
            make = cls._make  # type: ignore[attr-defined]

            def encode_tuple(value: Any) -> Any:
                return {name: [v if type(v) in _FLAT else enc(v) for v in value]}

            def decode_tuple(items: Any) -> Any:
                return make([v if type(v) in _FLAT else dec(v) for v in items])

            self._encoders[cls], self._decoders[name] = encode_tuple, decode_tuple
            return
        names = tuple(f.name for f in dataclasses.fields(cls))
        get = attrgetter(*names) if len(names) > 1 else None

        def encode_object(value: Any) -> Any:
            if get is None:  # zero or one field: attrgetter would not return a tuple
                return {name: [enc(getattr(value, n)) for n in names]}
            return {name: [v if type(v) in _FLAT else enc(v) for v in get(value)]}

        def decode_object(items: Any) -> Any:
            if len(items) != len(names):
                raise ValueError(f"{name} has {len(names)} fields, not {len(items)}")
            return cls(*[v if type(v) in _FLAT else dec(v) for v in items])

        self._encoders[cls], self._decoders[name] = encode_object, decode_object

    # ------------------------------------------------------------ the two directions

    def encode(self, value: Any) -> Any:
        """The JSON form of ``value``; ``TypeError`` for a value of a type outside the codec."""
        return self._encode(value)

    def decode(self, form: Any) -> Any:
        """The value of a JSON form made by :meth:`encode`; ``ValueError`` or ``TypeError``
        for anything else."""
        return self._decode(form)

    def _encode(self, value: Any) -> Any:
        cls = type(value)
        # most values are cards, slots and seats, then tuples of them: checked first
        if cls is str or cls is int or value is None or cls is bool or cls is float:
            return value
        if cls is tuple:
            enc = self._encode
            return [v if type(v) in _FLAT else enc(v) for v in value]
        encoder = self._encoders.get(cls)
        if encoder is not None:
            return encoder(value)
        if cls is frozenset:
            enc = self._encode
            return {"frozenset": [enc(v) for v in value]}
        if cls is dict:
            enc = self._encode
            if all(type(k) is str for k in value):
                return {"dict": {k: enc(v) for k, v in value.items()}}
            return {"map": [[enc(k), enc(v)] for k, v in value.items()]}
        raise TypeError(f"a state may not hold a {cls.__qualname__}: {value!r:.80}")

    def _decode(self, form: Any) -> Any:
        cls = type(form)
        if cls is list:
            dec = self._decode
            return tuple([v if type(v) in _FLAT else dec(v) for v in form])
        if cls is dict:
            if len(form) != 1:
                raise ValueError(f"a tagged value has one key, not {sorted(form)[:5]}")
            (tag, payload), = form.items()
            decoder = self._decoders.get(tag)
            if decoder is not None and type(payload) is list:
                return decoder(payload)
            dec = self._decode
            if tag == "frozenset" and type(payload) is list:
                return frozenset([dec(v) for v in payload])
            if tag == "dict" and type(payload) is dict:
                return {k: dec(v) for k, v in payload.items()}
            if tag == "map" and type(payload) is list:
                return {dec(k): dec(v) for k, v in payload}
            raise ValueError(f"no value is tagged {tag!r:.80} with a {type(payload).__name__}")
        if cls in _SCALARS:
            return form
        raise ValueError(f"not a JSON form: {cls.__name__}")
