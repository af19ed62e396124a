"""Every object inside an event payload has a schema of its own, and it takes what the server writes.

A field held as a ``dict`` (a game's options, the options a judgement applied, a standing
order's claim, the orders revealed at a round's end) used to be ``{type: object}`` with
nothing inside, which a client generator turns into a bare dict.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import jsonschema
import pytest

from domain import rules
from domain.errors import InvalidOptions
from domain.simulation import play
from service.tools.contract import payloads
from service.tools.contract.check import Contract
from tests.contract.schema_walk import walk
from tests.support.spec import document

SAMPLES: list[Any] = [None, True, False, 0, 1, 2, 3, 5, 25, 100, -1, 10**6, 2.5, "2", "auto", "none", "", "x"]


def _schemas() -> dict[str, Any]:
    return document()["components"]["schemas"]


def _reachable(schemas: dict[str, Any], start: str) -> Iterator[tuple[str, Any]]:
    """(where, schema) for every schema ``start`` leads to, through its ``$ref`` s."""
    todo, seen = [start], set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for where, schema in walk(schemas[name], name):
            yield where, schema
            ref = schema.get("$ref") if isinstance(schema, dict) else None
            if ref:
                todo.append(ref.rsplit("/", 1)[1])


def _is_object(schema: dict[str, Any]) -> bool:
    t = schema.get("type")
    return t == "object" or isinstance(t, list) and "object" in t


def test_every_object_reachable_from_an_event_has_its_fields_or_typed_values() -> None:
    schemas = _schemas()
    untyped = [where for where, s in _reachable(schemas, "Event") if isinstance(s, dict) and _is_object(s)
               and not s.get("properties") and not isinstance(s.get("additionalProperties"), dict)]
    anything = [where for where, s in _reachable(schemas, "Event") if s == {} or s is True]
    assert untyped == [] and anything == []


def test_the_walk_finds_what_an_untyped_payload_looks_like() -> None:
    """The check above can fail: the same walk over a bare ``options`` object finds it."""
    schemas = {"Event": {"$ref": "#/components/schemas/X"},
               "X": {"type": "object", "properties": {"options": {"type": "object", "additionalProperties": True},
                                                      "pair": {"type": "array", "items": {}}}}}
    found = [w for w, s in _reachable(schemas, "Event") if isinstance(s, dict) and (s == {} or _is_object(s)
                                                                                  and not s.get("properties"))]
    assert found == ["X/properties/options", "X/properties/pair/items"]


@pytest.mark.parametrize("name", rules.names())
def test_each_option_of_the_options_schema_takes_exactly_what_the_server_takes(name: str) -> None:
    for option in rules.get(name).options:
        validator = jsonschema.Draft202012Validator(payloads.option_values(option))
        for value in SAMPLES + list(option.choices) + [option.default]:
            assert validator.is_valid(value) == (option.check(value) is None), (option.key, value)


@pytest.mark.parametrize("name", rules.names())
def test_a_game_opened_with_options_other_than_the_defaults_validates_as_its_rulesets(name: str) -> None:
    """Each option set to a value other than its default where it has one (the defaults are
    played in tests/contract/test_generated_schemas.py), the game's first events validate;
    an option set of another ruleset does not."""
    contract, rs = Contract.load(), rules.get(name)
    options = rs.resolve_options({}, 3)
    for o in rs.options:
        other = next((c for c in (*o.choices, True, False, o.minimum) if c is not None and c != o.default
                      and o.check(c) is None), None)
        try:  # unless the ruleset refuses it (Least Score always reshuffles)
            options = rs.resolve_options({**options, o.key: other}, 3) if other is not None else options
        except InvalidOptions:
            pass
    assert options != rs.resolve_options({}, 3)
    opened = {"ruleset": name, "seats": 3, "options": options, "name": "g", "creator": "p",
              "secret_commitment": "00", "time_control": None, "visibility": "public", "timeouts_before_vote": 3}
    assert contract.schema_errors("GameOpenedData", opened) == []
    assert contract.schema_errors("GameOpenedData", {**opened, "options": {**options, "nonsense": 1}}) != []
    other = next(n for n in rules.names() if n != name)
    assert contract.schema_errors("GameOpenedData", {**opened, "ruleset": other}) != []
    result = play(rs, 3, options, seed=3, bot="greedy", max_steps=60)
    for i, event in enumerate(result.events):
        shown = rs.redact(event, None)
        if shown is not None:
            envelope = {"version": i + 2, "type": shown.pop("type"), "actor": None, "at": "2026-12-01T10:00:00Z",
                        "data": shown}
            assert contract.schema_errors("Event", envelope) == [], type(event).__name__
