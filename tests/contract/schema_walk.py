"""Every JSON Schema of openapi.yaml, one by one, with where it sits."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

#: The keywords our schemas use (JSON Schema 2020-12 and OpenAPI's own): any other key of a
#: schema is a mistake, such as prose that YAML read as a key.
KEYWORDS = frozenset({
    "$ref", "type", "const", "enum", "properties", "required", "additionalProperties", "items",
    "prefixItems", "minItems", "maxItems", "uniqueItems", "anyOf", "oneOf", "allOf", "not",
    "discriminator", "minimum", "maximum", "minLength", "maxLength", "pattern", "format",
    "default", "description", "title", "example", "examples", "readOnly", "writeOnly",
    "deprecated", "minProperties", "maxProperties", "patternProperties", "propertyNames",
    "contentMediaType", "contentEncoding", "contentSchema",
})
_ONE = ("items", "not", "propertyNames", "contentSchema")
_MANY = ("anyOf", "oneOf", "allOf", "prefixItems")
_BY_NAME = ("properties", "patternProperties")


def schemas(spec: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """(where, schema) for every schema of the document, nested ones included."""
    for name, schema in spec["components"]["schemas"].items():
        yield from walk(schema, f"#/components/schemas/{name}")
    yield from _under(spec["paths"], "#/paths")
    yield from _under({k: v for k, v in spec["components"].items() if k != "schemas"}, "#/components")


def _under(node: Any, where: str) -> Iterator[tuple[str, Any]]:
    """The schemas held by ``schema`` keys below ``node`` (parameters, bodies, headers)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "schema":
                yield from walk(value, f"{where}/schema")
            elif key not in ("example", "examples"):
                yield from _under(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _under(value, f"{where}/{i}")


def walk(schema: Any, where: str) -> Iterator[tuple[str, Any]]:
    """``schema`` and every schema inside it."""
    yield where, schema
    if not isinstance(schema, dict):
        return
    for key in _ONE:
        if isinstance(schema.get(key), dict):
            yield from walk(schema[key], f"{where}/{key}")
    if isinstance(schema.get("additionalProperties"), dict):
        yield from walk(schema["additionalProperties"], f"{where}/additionalProperties")
    for key in _MANY:
        for i, sub in enumerate(schema.get(key) or ()):
            yield from walk(sub, f"{where}/{key}/{i}")
    for key in _BY_NAME:
        for name, sub in (schema.get(key) or {}).items():
            yield from walk(sub, f"{where}/{key}/{name}")
