"""Every schema of openapi.yaml is made of keywords and of field names, never of stray prose.

A description with an unquoted comma inside a YAML flow mapping (``{type: object,
description: Every option, resolved.}``) ends at the comma, and the rest becomes a key of the
schema: a generator then reads it as a field. These tests read the parsed document.
"""
from __future__ import annotations

import re


from tests.contract.schema_walk import KEYWORDS, schemas
from tests.support.spec import document

#: A field name: snake case; an option key may have one dotted prefix (``common.decks``).
FIELD = re.compile(r"^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)?$")


def _spec() -> dict:
    return document()


def test_every_schema_is_a_mapping_of_known_keywords() -> None:
    wrong = [(where, key) for where, schema in schemas(_spec()) if isinstance(schema, dict)
             for key in schema if key not in KEYWORDS]
    assert wrong == []
    assert [where for where, schema in schemas(_spec()) if not isinstance(schema, (dict, bool))] == []


def test_every_property_name_is_a_field_name() -> None:
    names = {(where, name) for where, schema in schemas(_spec()) if isinstance(schema, dict)
             for name in schema.get("properties") or {}}
    assert names, "the walk found no property"
    assert sorted((w, n) for w, n in names if not FIELD.match(n)) == []



def test_a_description_names_no_value_its_enum_refuses() -> None:
    """Corte's ``Draw.source`` takes only "stock": its description may not offer "discard"."""
    quoted = re.compile(r'"([a-z_]+)"')
    wrong = [(where, value) for where, schema in schemas(_spec()) if isinstance(schema, dict) and "enum" in schema
             for value in quoted.findall(schema.get("description") or "") if value not in schema["enum"]]
    assert wrong == []
