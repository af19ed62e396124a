"""Typed schemas for the objects inside event payloads, which their dataclasses hold as ``dict``.

A generator makes a class of each: a ruleset's options (from its option registry: every key,
with exactly the values :meth:`domain.ruleset.OptionSpec.check` accepts), the claim a standing
order sends, an order as the round's end reveals it, and a shuffle's order revealed with its
salt. :func:`field` says which event fields hold which; :func:`named` gives the schemas they
refer to, per ruleset.
"""
from __future__ import annotations

from typing import Any

from domain.orders import CLAIM_FIELDS
from domain.ruleset import OptionSpec, Ruleset
from service.tools.contract.jsonschema import command, hints, of_hint

_REF = "#/components/schemas/"
_RESULTS = ["live", "fired", "by_owner", "slot_changed", "round_ended", "not_claimable"]
#: A shuffle of the round, revealed at its end: the order it committed to, and the salt.
SHUFFLE_REVEAL: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "required": ["shuffle_no", "order", "salt", "commitment"],
    "description": ("A shuffle of the round (0: the deal), revealed at its end: `commitment` is "
                    "sha256(salt || the order as compact JSON), published when it was made."),
    "properties": {"shuffle_no": {"type": "integer"},
                   "order": {"type": "array", "items": {"$ref": _REF + "Card"},
                             "description": "The whole shuffled pack, index 0 on top."},
                   "salt": {"type": ["string", "null"], "description": "16 bytes as hex."},
                   "commitment": {"type": "string", "description": "SHA-256 (hex)."}}}


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": _REF + name}


def options_ref(prefix: str) -> dict[str, Any]:
    """Where a ruleset's options schema is (:func:`named` makes it)."""
    return _ref(prefix + "Options")


def option_values(option: OptionSpec) -> dict[str, Any]:
    """The values ``option`` takes, each alternative with its JSON type (a generator needs one
    type per enum; the registry's own schema lists mixed enums such as ``"auto", 1, 2``)."""
    alternatives: list[dict[str, Any]] = []
    if option.kind == "bool":
        alternatives.append({"type": "boolean"})
    elif option.kind == "int":
        number: dict[str, Any] = {"type": "integer", "maximum": option.upper}
        if option.minimum is not None:
            number["minimum"] = option.minimum
        alternatives.append(number)
    for json_type, python_type in (("string", str), ("integer", int)):
        values = [c for c in option.choices if type(c) is python_type]
        if values:
            alternatives.append({"type": json_type, "enum": values})
    if option.nullable:
        alternatives.append({"type": "null"})
    return alternatives[0] if len(alternatives) == 1 else {"anyOf": alternatives}


def options(ruleset: Ruleset) -> dict[str, Any]:
    """A ruleset's options as a game stores them. None is required: a game keeps the set it
    was opened with, so an option added since is absent from an older game's."""
    props = {o.key: {**option_values(o), "description": o.doc} for o in ruleset.options}
    return {"type": "object", "additionalProperties": False, "properties": props,
            "description": f"Options of {ruleset.title} by key (GET /v1/rulesets explains each)."}


def _claim(name: str, cls: type) -> dict[str, Any]:
    """A claim as an order keeps it: the command without its window, null fields left out."""
    out = command(cls, name)
    out.pop("description", None)
    out["required"] = [f for f in out["required"] if f != "window_id"]
    out["properties"] = {k: _not_null(v) for k, v in out["properties"].items() if k != "window_id"}
    return out


def _not_null(schema: dict[str, Any]) -> dict[str, Any]:
    t = schema.get("type")
    if isinstance(t, list) and "null" in t:
        rest = [x for x in t if x != "null"]
        return {**schema, "type": rest[0] if len(rest) == 1 else rest}
    return schema


def _revealed_order(prefix: str, claims: dict[str, type]) -> dict[str, Any]:
    """An order as ``OrdersRevealed`` shows it: the owner sees it all, other seats its id and seat."""
    fields: dict[str, Any] = {}
    for cls in claims.values():
        for f, hint in hints(cls).items():
            if f in CLAIM_FIELDS:
                fields.setdefault(f, _not_null(of_hint(hint)))
    return {"type": "object", "additionalProperties": False, "required": ["order_id", "seat"],
            "description": "An order of the round. Only its owner's copy has more than `order_id` and `seat`.",
            "properties": {"order_id": {"type": "integer"}, "seat": {"type": "integer"},
                           "rank": {"type": "string"}, "claim": {"type": "string", "enum": list(claims)},
                           **{f: fields[f] for f in CLAIM_FIELDS if f in fields},
                           "result": {"type": "string", "enum": list(_RESULTS),
                                      "description": "fired, or why it was cancelled."},
                           "window_id": {"type": ["integer", "null"], "description": "The window it fired on."}}}


def named(ruleset: Ruleset, prefix: str) -> dict[str, Any]:
    """The schemas this ruleset's event fields refer to (:func:`field`), by name."""
    out: dict[str, Any] = {prefix + "Options": options(ruleset), "ShuffleReveal": SHUFFLE_REVEAL}
    claims: dict[str, type] = getattr(ruleset, "order_claims", {})
    if claims:
        members = {t: _REF + prefix + t + "OrderClaim" for t in claims}
        for t, cls in claims.items():
            out[prefix + t + "OrderClaim"] = _claim(t, cls)
        out[prefix + "OrderClaim"] = {
            "description": "The claim an order sends when it fires (the command, without its window).",
            "oneOf": [{"$ref": r} for r in members.values()],
            "discriminator": {"propertyName": "type", "mapping": members}}
        out[prefix + "RevealedOrder"] = _revealed_order(prefix, claims)
    return out


def field(prefix: str, event: str, name: str) -> dict[str, Any] | None:
    """The typed schema of an event field its dataclass holds as a ``dict`` (None for any other)."""
    if name in ("options", "options_applied"):
        return options_ref(prefix)
    if (event, name) == ("RoundRevealed", "orders"):
        return {"type": "array", "items": _ref("ShuffleReveal")}
    if (event, name) == ("OrdersRevealed", "orders"):
        return {"type": "array", "items": _ref(prefix + "RevealedOrder")}
    if (event, name) == ("OrderPlaced", "claim"):
        return _ref(prefix + "OrderClaim")
    return None
