"""JSON Schemas of commands and events, read off their dataclasses' type hints.

The hints are what :func:`domain.codec.parse_command` checks, so a schema built from them
accepts what the server accepts (field names, JSON types, fixed tuples, ``Literal`` values).
"""
from __future__ import annotations

import copy
import dataclasses
import types
import typing
from typing import Any

#: A card code: rank and suit (``"10H"``, ``"QS"``; Spanish packs ``"12O"``), or ``"JK"``.
CARD = {"type": "string", "pattern": "^(JK|(A|[2-9]|1[0-2]?|J|Q|K)[SHDCOEB])$",
        "description": 'A card code: rank then suit ("10H", "QS", "AD"; Spanish packs "1O".."12B"), or "JK".'}
#: What each field name means, wherever it appears (the rules in docs/rules/ say more).
FIELDS: dict[str, str] = {
    "slot": 'A slot of your own layout: "A".."D" in deal order, then "E1", "E2", ... for extra cards.',
    "slots": "Slots of your own layout.",
    "window_id": "The reaction window this claim or pass is for (the view's window.id).",
    "rival": "The seat whose card you name.",
    "rival_slot": "A slot of the rival's layout.",
    "give_slot": ("Your slot whose card moves face down into the rival's emptied slot when the "
                  "claim is right; omit it when you have no cards."),
    "penalty_to": ('Where your penalty card goes if the claim is wrong: "new" (a new slot E1, E2, ...) '
                   'or "empty:<slot>" (one of your empty slots).'),
    "take": 'What you take after discarding: "stock" (the top of the stock) or "open:<card>" (a card of the open set).',
    "discard": "The cards you discard, a legal set of your own hand.",
    "source": "The pile the card is taken from (one of the values listed).",
    "targets": "[seat, slot] pairs naming the cards.",
    "target": "[seat, slot]: the card.",
    "a": "[seat, slot]: one of the two cards.",
    "b": "[seat, slot]: the other card.",
    "own": "Your slot.",
    "other": "[seat, slot]: a rival's card.",
    "own_slot": "Your slot.",
    "player": "The seat whose card you look at.",
    "close": "Close (call the end of the round) as this turn ends.",
    "replace": "Your slot whose card the held card replaces.",
    "also_discard": "Further slots of yours holding cards identical to the replaced one, discarded with it.",
    "seat": "A seat (0-based, in seating order).",
    "turn_no": "The turn's number in the round, as the view's turn_no says.",
}
SEAT_SLOT = {"type": "array", "items": {"type": ["integer", "string"]}, "minItems": 2, "maxItems": 2,
             "description": "[seat, slot]"}


def of_hint(hint: Any) -> dict[str, Any]:
    """The JSON Schema of one type hint as :mod:`domain.codec` reads it."""
    if hint is Any:
        return {}
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(hint)
        rest = [a for a in args if a is not type(None)]
        inner = of_hint(rest[0]) if len(rest) == 1 else {"anyOf": [of_hint(a) for a in rest]}
        return _nullable(inner) if len(rest) < len(args) else inner
    if hint is type(None):
        return {"type": "null"}
    if hint is bool:
        return {"type": "boolean"}
    if hint is int:
        return {"type": "integer"}
    if hint is str:
        return {"type": "string"}
    if hint is float:
        return {"type": "number"}
    if origin is typing.Literal:
        values = list(typing.get_args(hint))
        return {"type": "string", "enum": values} if all(isinstance(v, str) for v in values) else {"enum": values}
    if origin is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return {"type": "array", "items": of_hint(args[0])}
        if args == (int, str):
            return dict(SEAT_SLOT)
        items = [of_hint(a) for a in args]
        # a fixed tuple: openapi generators know no prefixItems, so one item schema and a length
        return {"type": "array", "items": _either(items), "minItems": len(items), "maxItems": len(items)}
    if origin is dict or hint is dict:
        return {"type": "object", "additionalProperties": True}
    raise TypeError(f"no JSON Schema for {hint!r}")


def _either(schemas: list[dict[str, Any]]) -> dict[str, Any]:
    """One schema that each of ``schemas`` fits: their types together when they are bare types
    (a slot and a card or null: ``["string", "null"]``), else their ``anyOf``."""
    distinct = [s for i, s in enumerate(schemas) if s not in schemas[:i]]
    if len(distinct) == 1:
        return distinct[0]
    if all(set(s) == {"type"} for s in distinct):
        types_: list[str] = []
        for s in distinct:
            for t in s["type"] if isinstance(s["type"], list) else [s["type"]]:
                if t not in types_:
                    types_.append(t)
        return {"type": types_}
    return {"anyOf": distinct}


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    t = schema.get("type")
    if isinstance(t, str) and set(schema) <= {"type", "items", "enum", "minItems", "maxItems", "description"}:
        out = dict(schema, type=[t, "null"])
        if "enum" in out:
            out["enum"] = [*out["enum"], None]
        return out
    return {"anyOf": [schema, {"type": "null"}]}


def hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def required(cls: type) -> list[str]:
    return [f.name for f in dataclasses.fields(cls)
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING]


CHOICES_DOC = ("Only in `legal_actions`: other values some fields may take (`OneOf...`, `SubsetOf...`). "
               "Every combination is a command you may send (docs/rules/README.md#legal_actions); a command "
               "sent with `choices` is taken without them.")
#: The item schemas a field's choice may hold, by the name of its shared schema (``OneOfString``, ...).
_ITEMS: dict[str, dict[str, Any]] = {"String": {"type": "string"}, "Integer": {"type": "integer"},
                                     "Boolean": {"type": "boolean"}, "SeatSlot": SEAT_SLOT}


def _is_list(hint: Any) -> bool:
    args = typing.get_args(hint)
    return typing.get_origin(hint) is tuple and len(args) == 2 and args[1] is Ellipsis


def _item_name(schema: dict[str, Any]) -> str:
    def bare(s: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in s.items() if k != "description"}
    return next(name for name, items in _ITEMS.items() if bare(items) == bare(schema))


def choice_ref(hint: Any) -> str:
    """The shared schema of one field's choice: ``SubsetOf<item>`` for an array of any length,
    else ``OneOf<field type>`` (a choice never offers null: an optional field is left out)."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        (hint,) = [a for a in typing.get_args(hint) if a is not type(None)]
    if _is_list(hint):
        return "SubsetOf" + _item_name(of_hint(typing.get_args(hint)[0]))
    return "OneOf" + _item_name(of_hint(hint))


def choice_schema(ref: str) -> dict[str, Any]:
    """The shared schema :func:`choice_ref` names (see :mod:`domain.choices`)."""
    kind, name = ("SubsetOf", ref[8:]) if ref.startswith("SubsetOf") else ("OneOf", ref[5:])
    items = copy.deepcopy(_ITEMS[name])
    if kind == "OneOf":
        return {"type": "object", "additionalProperties": False, "required": ["one_of"],
                "description": "The field is any one of these values.",
                "properties": {"one_of": {"type": "array", "items": items, "minItems": 2}}}
    return {"type": "object", "additionalProperties": False, "required": ["subset_of"],
            "description": ("The field (an array) holds any `min` to `max` of these items (0 and all of them "
                            "when left out), each at most once, in any order."),
            "properties": {"subset_of": {"type": "array", "items": items, "minItems": 1},
                           "min": {"type": "integer", "minimum": 0}, "max": {"type": "integer", "minimum": 1}}}


def command(cls: type, name: str, choosable: tuple[str, ...] = ()) -> dict[str, Any]:
    """A command's schema: ``type`` is the class name; the fields as ``parse_command`` reads them;
    ``choices`` for the ``choosable`` fields, as ``legal_actions`` lists them (:mod:`domain.choices`)."""
    props: dict[str, Any] = {"type": {"type": "string", "const": name}}
    all_hints = hints(cls)
    for field, hint in all_hints.items():
        props[field] = _described(field, of_hint(hint))
    if choosable:
        props["choices"] = {"type": "object", "additionalProperties": False, "description": CHOICES_DOC,
                            "properties": {f: {"$ref": f"#/components/schemas/{choice_ref(all_hints[f])}"}
                                           for f in choosable}}
    doc = (cls.__doc__ or "").strip()
    out: dict[str, Any] = {"type": "object", "additionalProperties": False,
                           "required": ["type", *required(cls)], "properties": props}
    if doc and not doc.startswith(cls.__name__ + "("):
        out["description"] = " ".join(doc.split())
    return out


def _described(field: str, schema: dict[str, Any]) -> dict[str, Any]:
    text = FIELDS.get(field)
    if text is None or "anyOf" in schema:
        return schema if text is None else {**schema, "description": text}
    return {**schema, "description": text}
