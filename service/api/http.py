"""HTTP plumbing of the API: JSON bodies, validation, authentication, ETags."""
from __future__ import annotations

import json
from typing import Any

import orjson
from flask import Response, current_app, request
from marshmallow import Schema, ValidationError

from service.games import Api, authenticate
from service.problems import Problem

MAX_DEPTH = 32


def api() -> Api:
    return current_app.extensions["facedown_api"]  # type: ignore[no-any-return]


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _bad_strings(value: Any, path: str = "", depth: int = 0) -> tuple[str, str] | None:
    """(path, reason) of the first string PostgreSQL's jsonb cannot hold, or of too deep nesting."""
    if depth > MAX_DEPTH:
        return path or "$", f"nesting deeper than {MAX_DEPTH}"
    if isinstance(value, str):
        if "\x00" in value:
            return path or "$", "contains a NUL character (\\u0000)"
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return path or "$", "contains an unpaired surrogate"
        return None
    if isinstance(value, dict):
        for k, v in value.items():
            bad = _bad_strings(k, f"{path}.{k}" if path else str(k), depth + 1) or \
                _bad_strings(v, f"{path}.{k}" if path else str(k), depth + 1)
            if bad:
                return bad
    elif isinstance(value, list):
        for i, v in enumerate(value):
            bad = _bad_strings(v, f"{path}[{i}]", depth + 1)
            if bad:
                return bad
    elif isinstance(value, float) and value != value or value in (float("inf"), float("-inf")):
        return path or "$", "not a finite number"
    return None


def json_body(optional: bool = False) -> Any:
    """The request body as JSON (400 if it is not; 413 past the size limit)."""
    raw = request.get_data(cache=True)
    if not raw.strip():
        if optional:
            return {}
        raise Problem("invalid-json", "the request needs a JSON body")
    try:
        value = json.loads(raw, parse_constant=_reject_constant)
    except (ValueError, RecursionError) as exc:
        raise Problem("invalid-json", f"the body is not valid JSON: {str(exc)[:200]}") from None
    bad = _bad_strings(value)
    if bad:
        raise Problem("validation", f"{bad[0]}: {bad[1]}", errors={bad[0]: [bad[1]]})
    return value


def load(schema: Schema, data: Any) -> Any:
    if not isinstance(data, dict):
        raise Problem("validation", "the body must be a JSON object", errors={"_schema": ["must be an object"]})
    try:
        return schema.load(data)
    except ValidationError as exc:
        raise Problem("validation", "the request does not validate", errors=exc.messages) from None


def load_query(schema: Schema) -> Any:
    args = {k: v for k, v in request.args.items()}
    bad = _bad_strings(args)
    if bad:
        raise Problem("validation", f"{bad[0]}: {bad[1]}", errors={bad[0]: [bad[1]]})
    try:
        return schema.load(args)
    except ValidationError as exc:
        raise Problem("validation", "the query does not validate", errors=exc.messages) from None


def _token() -> str | None:
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or len(token) > 200:
        raise Problem("unauthorized", "use Authorization: Bearer <token>",
                      headers={"WWW-Authenticate": 'Bearer realm="facedown"'})
    return token


def caller(required: bool = True) -> tuple[str, str] | None:
    """(player id, name) of the bearer, ``None`` for an anonymous caller when allowed."""
    token = _token()
    if token is None:
        if required:
            raise Problem("unauthorized", "this call needs Authorization: Bearer <token>",
                          headers={"WWW-Authenticate": 'Bearer realm="facedown"'})
        return None
    who = authenticate(api(), token)
    if who is None:
        raise Problem("unauthorized", "the token is not valid",
                      headers={"WWW-Authenticate": 'Bearer realm="facedown", error="invalid_token"'})
    return who


def version_header(name: str) -> list[int] | None:
    """Versions named by If-Match / If-None-Match (``"12"``, ``W/"12"`` or ``12``); ``[]`` for ``*``."""
    raw = request.headers.get(name)
    if raw is None:
        return None
    out = []
    for part in raw.split(","):
        part = part.strip()
        if part == "*":
            return []
        if part.startswith("W/"):
            part = part[2:]
        part = part.strip('"')
        if not part.isdigit() or len(part) > 16:
            raise Problem("bad-request", f"{name} must be an entity tag such as \"12\"")
        out.append(int(part))
    return out


def idempotency_key() -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if not 1 <= len(key) <= 200 or not all(33 <= ord(c) <= 126 for c in key):
        raise Problem("bad-request", "Idempotency-Key must be 1-200 printable ASCII characters without spaces")
    return key


def dumps(value: Any) -> bytes:
    """Compact UTF-8 JSON: orjson (about 7x faster than ``json`` on a view), with the standard
    library as the fallback for what orjson refuses (integers past 64 bits, non-string keys)."""
    try:
        return orjson.dumps(value)
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8", "surrogatepass")


def reply(schema: Schema, data: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    body = dumps(schema.dump(data))
    resp = Response(body, status=status, mimetype="application/json")
    for k, v in (headers or {}).items():
        resp.headers[k] = v
    return resp
