"""RFC 9457 problem details: one table of problem types, one response builder.

Every error the API returns is ``application/problem+json`` with a stable ``type``
URI under :data:`BASE`, and ``title``, ``status``, ``detail``.
"""
from __future__ import annotations

from typing import Any

from flask import Response, json

BASE = "https://facedown.dev/problems/"

#: slug -> (status, title)
PROBLEMS: dict[str, tuple[int, str]] = {
    "bad-request": (400, "Malformed request"),
    "invalid-json": (400, "The body is not valid JSON"),
    "unauthorized": (401, "Authentication required"),
    "forbidden": (403, "Not allowed"),
    "not-found": (404, "Not found"),
    "method-not-allowed": (405, "Method not allowed"),
    "not-acceptable": (406, "Not acceptable"),
    "illegal-command": (409, "The command is not legal now"),
    "no-window": (409, "There is no open reaction window"),
    "stale-window": (409, "The reaction window is no longer current"),
    "locked": (409, "The layout is locked"),
    "not-your-turn": (409, "It is not your turn"),
    "wrong-phase": (409, "Not possible in this phase"),
    "conflict": (409, "Conflict"),
    "already-seated": (409, "You already have a seat in this game"),
    "game-not-open": (409, "The game is not open for joining"),
    "game-not-active": (409, "The game is not in play"),
    "audit-unavailable": (409, "Not available for audit yet"),
    "precondition-failed": (412, "The game has moved on"),
    "payload-too-large": (413, "The request body is too large"),
    "unsupported-media-type": (415, "Send application/json"),
    "validation": (422, "The request does not validate"),
    "invalid-command": (422, "The command is invalid"),
    "invalid-options": (422, "The house-rule options are not valid for this game"),
    "idempotency-key-reused": (422, "The Idempotency-Key was used with another request"),
    "rate-limited": (429, "Too many requests"),
    "internal": (500, "Internal error"),
    "unavailable": (503, "Service unavailable"),
}


class Problem(Exception):
    """Raise to answer with a problem+json response."""

    def __init__(self, slug: str, detail: str, *, status: int | None = None,
                 headers: dict[str, str] | None = None, **extra: Any) -> None:
        super().__init__(detail)
        self.slug = slug
        self.detail = detail
        self.status = status or PROBLEMS[slug][0]
        self.headers = headers or {}
        self.extra = extra


def problem_response(slug: str, detail: str, status: int | None = None,
                     headers: dict[str, str] | None = None, **extra: Any) -> Response:
    code, title = PROBLEMS[slug]
    body = {"type": BASE + slug, "title": title, "status": status or code, "detail": detail, **extra}
    resp = Response(json.dumps(body), status=status or code, mimetype="application/problem+json")
    for k, v in (headers or {}).items():
        resp.headers[k] = v
    return resp


def from_exception(exc: Problem) -> Response:
    return problem_response(exc.slug, exc.detail, exc.status, exc.headers, **exc.extra)
