"""HTTP plumbing of the API: JSON bodies, validation, authentication, ETags, and the guard
that hides unlisted games from strangers.

Bodies are ``application/json`` in UTF-8 (``charset=utf-8`` may be said, no other):
another media type, ``application/*+json`` included, another charset, a byte order
mark or UTF-16/32 is 415; text that is not JSON, or an object with a key twice, is 400.
Integers in queries and headers are ASCII digits (``１`` and ``²`` are not numbers here).
"""
from __future__ import annotations

import json
import re
import time
import uuid
from collections import Counter
from dataclasses import dataclass
from typing import Any

import orjson
from flask import Response, current_app, g, request
from marshmallow import Schema, ValidationError, fields
from werkzeug.exceptions import HTTPException

from service.http import rate_limits
from service.http.problems import invalid_token, session_ended
from service.model.caches import Lru
from service.model.problems import Problem
from service.usecases import accounts, sessions, tournaments
from service.usecases.accounts import authenticate, token_digest
from service.usecases.dependencies import Dependencies
from service.usecases.visibility import visible

MAX_DEPTH = 32
ASCII_INT = re.compile(r"[0-9]{1,16}")  # re's [0-9] is ASCII only, unlike str.isdigit and int()
_BOMS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")  # UTF-8, UTF-16 LE/BE (and UTF-32 LE)
# a token no player holds is refused again for this long without a query (a client that
# keeps sending a revoked or mistyped token costs one query per interval per worker)
UNKNOWN_TOKEN_SECONDS = 10.0
UNKNOWN_TOKENS = 10_000


def deps() -> Dependencies:
    """The use cases' dependencies of this app (built once, by ``create_app``)."""
    return current_app.extensions["facedown"]  # type: ignore[no-any-return]


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


class _DuplicateKey(ValueError):
    pass


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refused if a key repeats (``json`` would keep the last silently, and
    two readers of one body could disagree on what it says)."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        key = next(k for k, n in Counter(k for k, _ in pairs).items() if n > 1)
        raise _DuplicateKey(f"the key {key[:64]!r} appears twice in one object")
    return obj


def _unsupported(detail: str) -> Problem:
    return Problem("unsupported-media-type", detail, headers={"Accept-Post": "application/json"})


def _text(raw: bytes) -> str:
    """The body as text: UTF-8 JSON sent as ``application/json`` (415 otherwise)."""
    charset = request.mimetype_params.get("charset")
    if request.mimetype != "application/json" or (charset is not None and charset.lower() != "utf-8"):
        raise _unsupported(f"send Content-Type: application/json (UTF-8), not {request.content_type or 'none'!r:.100}")
    # a raw NUL byte is never in JSON text, and is in any UTF-16 or UTF-32 body
    if raw.startswith(_BOMS) or b"\0" in raw:
        raise _unsupported("the body must be UTF-8 without a byte order mark")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise _unsupported("the body is not UTF-8") from None


def json_body(optional: bool = False) -> Any:
    """The request body as JSON (415 if it is not sent as UTF-8 JSON, 400 if it is not
    JSON; 413 past the size limit)."""
    try:
        raw = request.get_data(cache=True)
    except HTTPException:  # 413 past the size limit, 400 for a client that left: problems already
        raise
    except Exception:  # noqa: BLE001 - the server's reader refused the framing (gunicorn: a bad chunk)
        raise Problem("bad-request", "the request body could not be read (bad framing)") from None
    if not raw.strip():
        if optional:
            return {}
        raise Problem("invalid-json", "the request needs a JSON body")
    text = _text(raw)
    try:
        value = json.loads(text, parse_constant=_reject_constant, object_pairs_hook=_object)
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
    for name, field in schema.fields.items():
        raw = args.get(field.data_key or name)
        if raw is not None and isinstance(field, fields.Integer) and not ASCII_INT.fullmatch(raw):
            reason = "must be a non-negative integer in ASCII digits"
            raise Problem("validation", f"{name}: {reason}", errors={name: [reason]})
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


@dataclass(frozen=True, slots=True)
class Identity:
    """Who sent a request: the player its token authenticates, else ``None`` (no token, or
    ``refused``: why the credentials are not valid, answered by :func:`caller`)."""

    who: tuple[str, str] | None = None
    refused: Problem | None = None


def identify() -> Identity:
    """This request's :class:`Identity`, worked out once (the rate limiter asks first): the
    bearer token's, else the web client's session cookie's (service/usecases/sessions.py)."""
    found: Identity | None = g.get("facedown_identity")
    if found is None:
        try:
            token = _token()
        except Problem as exc:
            found = Identity(refused=exc)
        else:
            found = _from_session() if token is None else look_up(token)
        g.facedown_identity = found
    return found


SESSION_COOKIE = "facedown_session"
CSRF_COOKIE = "facedown_csrf"
CSRF_HEADER = "X-CSRF-Token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def session_cookie() -> str | None:
    """The session token of the request's cookie, if it carries one of a plausible size."""
    session = request.cookies.get(SESSION_COOKIE)
    return session if session and len(session) <= 200 else None


def csrf_problem() -> Problem:
    return Problem("csrf", f"a request that changes something with the session cookie needs {CSRF_HEADER}: "
                           "the csrf_token of GET /v1/session")


def _from_session() -> Identity:
    """The player of the session cookie; a request that changes something must echo the
    session's CSRF token (a page of another site cannot read it)."""
    session = session_cookie()
    if session is None:
        return Identity()
    if request.method not in SAFE_METHODS and not sessions.csrf_matches(session, request.headers.get(CSRF_HEADER)):
        return Identity(refused=csrf_problem())
    found = look_up(session)
    if found.refused is not None:
        return Identity(refused=session_ended())
    return found


def claimed() -> str | None:
    """The player this request's token or session cookie belongs to as far as this worker
    remembers (no query, so not proof that it is live), else as :func:`identify` finds: the
    rate limiter's key, so that a flood of a known token is refused before any query."""
    header = request.headers.get("Authorization")
    token = header.partition(" ")[2].strip() if header is not None else session_cookie()
    remembered = accounts.remembered(deps(), token) if token else None
    if remembered is not None:
        return remembered
    who = identify().who
    return None if who is None else who[0]


def _unknown_tokens() -> Lru:
    """token digest -> when this worker last found no player with it (``time.monotonic``)."""
    return current_app.extensions.setdefault("facedown_unknown_tokens", Lru(UNKNOWN_TOKENS))  # type: ignore[no-any-return]


def look_up(token: str) -> Identity:
    """The player of a token: this worker's cache, else one query, unless the token was
    found unknown moments ago or this address has spent its budget of unknown tokens."""
    d = deps()
    digest = token_digest(token)
    g.facedown_guarded = digest  # its liveness rides on the next statement (token_guard.py)
    who = authenticate(d, token, query=False, deferred=True)
    if who is not None:
        return Identity(who)
    invalid = invalid_token()
    now = time.monotonic()
    unknown = _unknown_tokens()
    seen = unknown.get_(digest)
    if seen is not None and now - seen < UNKNOWN_TOKEN_SECONDS:
        return Identity(refused=invalid)
    budgets = rate_limits.limits()
    if budgets is not None:
        wait = budgets.lookups.peek(rate_limits.address())
        if wait > 0:
            raise rate_limits.too_many(wait, "too many tokens that are not valid from this address; slow down")
    who = authenticate(d, token)
    if who is not None:
        return Identity(who)
    unknown.put(digest, now)
    if budgets is not None:
        budgets.lookups.wait(rate_limits.address())
    return Identity(refused=invalid)


def caller(required: bool = True) -> tuple[str, str] | None:
    """(player id, name) of the bearer, ``None`` for an anonymous caller when allowed."""
    found = identify()
    if found.refused is not None:
        raise found.refused
    if found.who is None and required:
        raise Problem("unauthorized", "this call needs Authorization: Bearer <token>",
                      headers={"WWW-Authenticate": 'Bearer realm="facedown"'})
    return found.who


def signed_in() -> str:
    """The id of the player who sent this request (401 for anyone else)."""
    who = caller()
    assert who is not None
    return who[0]


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
        if not ASCII_INT.fullmatch(part):
            raise Problem("bad-request", f"{name} must be an entity tag such as \"12\"")
        out.append(int(part))
    return out


def if_match() -> int | None:
    """The one version ``If-Match`` names (``None`` without the header, or for ``*``)."""
    im = version_header("If-Match")
    if im is not None and len(im) > 1:
        raise Problem("bad-request", "If-Match must name one version")
    return None if im is None or im == [] else im[0]


def prefers_minimal() -> bool:
    """Whether the request says ``Prefer: return=minimal`` (RFC 7240: preferences are
    comma-separated, case-insensitive, their values optionally quoted; any other is ignored)."""
    # the WSGI environ holds repeated headers joined by commas, as RFC 9110 allows: read it
    # directly, since werkzeug's getlist walks every header of the request to find them
    for pref in request.environ.get("HTTP_PREFER", "").split(","):
        name, _, value = pref.partition(";")[0].partition("=")
        if name.strip().lower() == "return" and value.strip().strip('"').lower() == "minimal":
            return True
    return False


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


def passed_through(schema: Schema, data: Any) -> Any:
    """``schema.dump(data)`` for a schema marked ``PASS_THROUGH`` (a view, a command's answer),
    whose values the model already built as JSON: the schema's fields picked, nested ones in
    turn, with no per-field conversion (marshmallow's dump of a view cost ~25 µs per answer)."""
    out = {}
    for name, field in schema.dump_fields.items():
        if name in data:
            value = data[name]
            if isinstance(field, fields.Nested) and value is not None:
                value = passed_through(field.schema, value)
            out[field.data_key or name] = value
    return out


def reply(schema: Schema, data: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    body = dumps(passed_through(schema, data) if getattr(schema, "PASS_THROUGH", False) else schema.dump(data))
    resp = Response(body, status=status, mimetype="application/json")
    for k, v in (headers or {}).items():
        resp.headers[k] = v
    return resp


_GAME_PATH = re.compile(r"/v1/games/([0-9a-fA-F-]{36})(?:/.*)?")


def hide_unlisted_games() -> None:
    """Before every request: a stranger reading an unlisted game (its summary, view, events,
    stream, audit) gets 404, as for a game that does not exist."""
    if request.method not in ("GET", "HEAD"):
        return
    m = _GAME_PATH.fullmatch(request.path)
    if m is None:
        return
    try:
        gid = uuid.UUID(m.group(1))
    except ValueError:
        return
    who = caller(required=False)
    player = who[0] if who else None
    # a duplicate board's table: its seats' alone while the round is played, anyone's after
    if tournaments.board_access(deps(), gid, player, "/audit" in request.path) is True:
        return
    if not visible(deps(), gid, player, request.args.get("invite_code")):
        raise Problem("not-found", f"no game {gid}")
