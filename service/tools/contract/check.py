"""Checking a response against ``openapi.yaml``: the schema of an operation's answer, by
method, path, status and media type, validated as JSON Schema 2020-12 (OpenAPI 3.1's)."""
from __future__ import annotations

import json
import re
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from service.tools.contract.spec import SPEC


class Contract:
    """An OpenAPI document that can say whether a body is what an operation promises."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document
        self._paths = [(re.compile("^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(p)) + "$"), p)
                       for p in document["paths"]]
        self._validators: dict[str, jsonschema.protocols.Validator] = {}

    @classmethod
    def load(cls, path: Path = SPEC) -> Contract:
        return _loaded(str(path))

    @classmethod
    def from_text(cls, text: str) -> Contract:
        return cls(yaml.safe_load(text))

    def template(self, path: str) -> str | None:
        """The documented path template that ``path`` (without the query) matches."""
        path = path.split("?", 1)[0]
        exact = [t for rx, t in self._paths if rx.match(path) and "{" not in t]
        if exact:
            return exact[0]
        return next((t for rx, t in self._paths if rx.match(path)), None)

    def _validator(self, ref: str) -> jsonschema.protocols.Validator:
        v = self._validators.get(ref)
        if v is None:
            root = {"$ref": ref, "components": self.document["components"]}
            v = self._validators[ref] = _Validator(root)
        return v

    def schema_errors(self, name: str, value: Any) -> list[str]:
        """What is wrong with ``value`` as the component schema ``name`` ([] if nothing)."""
        return _messages(self._validator(f"#/components/schemas/{name}"), value)

    def response_errors(self, method: str, path: str, status: int, media_type: str, body: Any) -> list[str]:
        """What is wrong with a response: an undocumented operation, status or media type, or a
        body that does not validate against the documented schema."""
        template = self.template(path)
        if template is None:
            return [f"{method} {path}: no such path in the contract"]
        op = self.document["paths"][template].get(method.lower())
        if op is None:
            return [f"{method} {template}: no such operation in the contract"]
        responses = op["responses"]
        response = responses.get(str(status)) or responses.get(f"{str(status)[0]}XX") or responses.get("default")
        if response is None:
            return [f"{method} {template}: status {status} is not documented"]
        if "$ref" in response:
            response = self._resolve(response["$ref"])
        content = response.get("content")
        if not content:
            return []
        media = media_type.split(";")[0].strip()
        if media not in content:
            return [f"{method} {template} {status}: media type {media!r} is not documented ({sorted(content)})"]
        pointer = f"#/paths/{_escape(template)}/{method.lower()}/responses/{status}/content/{_escape(media)}/schema"
        schema = content[media].get("schema")
        if schema is None or not isinstance(body, (dict, list)):
            return []
        ref = schema["$ref"] if set(schema) == {"$ref"} else None
        if ref is None:
            root = {**schema, "components": self.document["components"]}
            validator = self._validators.get(pointer) or _Validator(root)
            self._validators[pointer] = validator
        else:
            validator = self._validator(ref)
        return [f"{method} {template} {status}: {m}" for m in _messages(validator, body)]

    def _resolve(self, ref: str) -> Any:
        node: Any = self.document
        for part in ref.lstrip("#/").split("/"):
            node = node[part.replace("~1", "/").replace("~0", "~")]
        return node


_ONE_OF = jsonschema.Draft202012Validator.VALIDATORS["oneOf"]
_TAGS: dict[int, tuple[list[Any], dict[str, int] | None]] = {}


def _one_of(validator: Any, branches: list[Any], instance: Any, schema: Any) -> Iterator[Any]:
    """``oneOf`` over object schemas told apart by a required ``type`` constant (the contract's
    events and commands, thirty kinds in a ruleset): only the branch whose constant the
    instance names can match, so only that one is checked. The verdict is the one every
    branch would give, at a thirtieth of the cost; any other ``oneOf`` is checked as usual."""
    tags = _tags(validator, branches)
    kind = instance.get("type") if isinstance(instance, dict) else None
    if tags is None or not isinstance(kind, str):
        yield from _ONE_OF(validator, branches, instance, schema)
        return
    if kind not in tags:
        yield jsonschema.ValidationError(f"{kind!r} is not one of the types {sorted(tags)}")
        return
    yield from validator.descend(instance, branches[tags[kind]], schema_path=tags[kind])


def _tags(validator: Any, branches: list[Any]) -> dict[str, int] | None:
    """``type`` constant -> branch index, if every branch requires a distinct one (else None)."""
    known = _TAGS.get(id(branches))
    if known is not None and known[0] is branches:
        return known[1]
    tags: dict[str, int] | None = {}
    for i, branch in enumerate(branches):
        target = branch
        if isinstance(branch, dict) and set(branch) == {"$ref"}:
            try:
                target = validator._resolver.lookup(branch["$ref"]).contents
            except Exception:  # noqa: BLE001 - no fast path then; the usual oneOf decides
                target = {}
        if not isinstance(target, dict):
            tags = None
            break
        const = target.get("properties", {}).get("type", {}).get("const")
        required = target.get("required", ())
        if not isinstance(const, str) or "type" not in required or const in tags:  # type: ignore[operator]
            tags = None
            break
        tags[const] = i  # type: ignore[index]
    _TAGS[id(branches)] = (branches, tags)  # the list itself is kept: its id is never reused
    return tags


_ANY_OF = jsonschema.Draft202012Validator.VALIDATORS["anyOf"]
_VALID: dict[tuple[int, str], list[Any]] = {}  # (id of the branches, the instance's JSON) -> branches
_VALID_SIZE = 100_000


def _any_of(validator: Any, branches: list[Any], instance: Any, schema: Any) -> Iterator[Any]:
    """``anyOf`` that remembers the objects it found valid: a view lists the same legal
    actions answer after answer (a ``Command`` is an ``anyOf`` of the rulesets' commands), and
    an object's validity against one schema never changes. Anything invalid is checked anew,
    so its errors carry their own paths."""
    key = (id(branches), json.dumps(instance, sort_keys=True)) if isinstance(instance, dict) else None
    if key is not None and _VALID.get(key) is branches:
        return
    errors = list(_ANY_OF(validator, branches, instance, schema))
    if not errors and key is not None:
        if len(_VALID) >= _VALID_SIZE:
            _VALID.clear()
        _VALID[key] = branches  # the list itself is kept: its id is never reused
    yield from errors


_Validator = jsonschema.validators.extend(jsonschema.Draft202012Validator, {"oneOf": _one_of, "anyOf": _any_of})


@lru_cache(maxsize=4)
def _loaded(path: str) -> Contract:
    return Contract(yaml.safe_load(Path(path).read_text()))


def _escape(part: str) -> str:
    return part.replace("~", "~0").replace("/", "~1")


def _messages(validator: jsonschema.protocols.Validator, value: Any, limit: int = 5) -> list[str]:
    out = []
    for error in validator.iter_errors(value):
        where = "/".join(str(p) for p in error.absolute_path) or "$"
        out.append(f"at {where}: {_short(error)}")
        if len(out) >= limit:
            break
    return out


def _short(error: jsonschema.ValidationError) -> str:
    """The deepest reason of an anyOf/oneOf failure (the branch that came closest)."""
    best = jsonschema.exceptions.best_match([error])
    return best.message[:300]
