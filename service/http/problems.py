"""Problems over HTTP: ``application/problem+json`` answers, the app's error handlers, the
words of a 404, and the pages of the problem types (``/problems``, ``docs/problems.md``).

Use cases raise :class:`service.model.problems.Problem`; this is the one place that turns it,
and whatever else a request raises, into an answer: never a stack trace, never a 500 for bad
input.
"""
from __future__ import annotations

import html
import re
from typing import Any

from flask import Blueprint, Flask, Response, json, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import HTTPException
from werkzeug.routing import Map

from events.errors import StoreUnavailable
from service.model.game import UnreadableLog
from service.model.problems import BASE, PROBLEMS, Problem, type_uri

RETRY_AFTER_UNAVAILABLE = 2  # seconds: the database is away (a restart, a failover)
_HTTP_SLUGS = {400: "bad-request", 401: "unauthorized", 403: "forbidden", 404: "not-found",
               405: "method-not-allowed", 406: "not-acceptable", 413: "payload-too-large",
               415: "unsupported-media-type", 429: "rate-limited"}
PROBLEM_DEFAULT = "the request could not be served"
#: What the framework's own errors mean here (handlers give their own words).
_FRAMEWORK = {400: "the request is malformed", 406: "the Accept header excludes every type this path answers with",
              413: "the request body is too large", 415: "the body must be application/json"}

bp = Blueprint("problems", __name__)


def problem_response(slug: str, detail: str, status: int | None = None,
                     headers: dict[str, str] | None = None, **extra: Any) -> Response:
    kind = PROBLEMS[slug]
    body = {"type": type_uri(slug), "title": kind.title, "status": status or kind.status, "detail": detail, **extra}
    resp = Response(json.dumps(body), status=status or kind.status, mimetype="application/problem+json")
    for k, v in (headers or {}).items():
        resp.headers[k] = v
    return resp


def unavailable(detail: str) -> Response:
    """503 ``unavailable`` with ``Retry-After``: a client may try again shortly."""
    return problem_response("unavailable", detail, headers={"Retry-After": str(RETRY_AFTER_UNAVAILABLE)})


def invalid_token() -> Problem:
    """401 for a bearer token that is not (or no longer) valid."""
    return Problem("unauthorized", "the token is not valid",
                   headers={"WWW-Authenticate": 'Bearer realm="facedown", error="invalid_token"'})


def session_ended() -> Problem:
    """401 for a session cookie whose session is not (or no longer) live."""
    return Problem("unauthorized", "your session has ended; sign in again",
                   headers={"WWW-Authenticate": 'Bearer realm="facedown"'})


def from_exception(exc: Problem) -> Response:
    return problem_response(exc.slug, exc.detail, exc.status, exc.headers, **exc.extra)


def install(app: Flask) -> None:
    """Every error a request raises, answered as a problem."""

    @app.errorhandler(Problem)
    def _problem(exc: Problem) -> Response:
        return from_exception(exc)

    @app.errorhandler(StoreUnavailable)
    def _unavailable(exc: StoreUnavailable) -> Response:
        # fail fast while the database is away: clients retry, waiters and streams resume
        app.logger.warning("database unavailable on %s %s: %s", request.method, request.path, exc)
        return unavailable("the database cannot be reached; try again shortly")

    @app.errorhandler(UnreadableLog)
    def _unreadable(exc: UnreadableLog) -> Response:
        # the version only: the reason may quote the stored data, which may hold cards
        app.logger.error("%s %s: %s", request.method, request.path, exc)
        return problem_response("log-unreadable", f"event {exc.version} of this game cannot be read; its audit "
                                "names the first event that fails its checks")

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException) -> Response:
        status = exc.code or 500
        slug = _HTTP_SLUGS.get(status, "bad-request" if status < 500 else "internal")
        headers = {}
        valid = getattr(exc, "valid_methods", None)
        if status == 405 and valid:
            headers["Allow"] = ", ".join(valid)
        return problem_response(slug, _our_words(app, exc), status, headers)

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception) -> Response:
        app.logger.exception("unhandled error on %s %s", request.method, request.path)
        return problem_response("internal", "an internal error occurred; it has been logged")


def _our_words(app: Flask, exc: HTTPException) -> str:
    """The detail of an HTTP error: the words a handler gave it, else ours for what the
    framework raised itself (its own text is generic: "The requested URL was not found...")."""
    own = exc.description and exc.description != type(exc).description
    if own:
        return str(exc.description)
    if exc.code == 404:
        return not_found(app.url_map, request.path) if request.url_rule is None else NO_FILE
    if exc.code == 405:
        allowed = ", ".join(sorted(getattr(exc, "valid_methods", None) or ()))
        return f"{request.method} is not allowed at this path; it takes {allowed}"
    return _FRAMEWORK.get(exc.code or 500, PROBLEM_DEFAULT)


# ------------------------------------------------------------------ what a 404 says
# The router answers 404 before any handler runs when a path has no route, or when a part of it
# does not fit its route (a game id that is not a UUID, an order id that is not a number). Its
# own text is the framework's; :func:`not_found` finds which route the path was meant for and
# names the part that does not fit it.

#: How each kind of path part is written, for the reader of a refusal.
_KINDS = {"uuid": "a UUID", "int": "a whole number"}
#: Where a caller finds the right value of a path part.
_WHERE = {"game_id": " (a game's id, as `POST /v1/games` and `GET /v1/me/games` give it)",
          "token_id": " (as `GET /v1/me/tokens` lists it)",
          "webhook_id": " (as `GET /v1/me/webhooks` lists it)",
          "order_id": " (as the view's `orders` lists it)"}
_PART = re.compile(r"<(?:(\w+)(?:\([^)]*\))?:)?(\w+)>")
NO_PATH = "nothing is served at this path; every path of the API is in /openapi.yaml"
NO_FILE = "there is no such file here"  # a path whose route serves files (the web client's)


def malformed(name: str, kind: str) -> str:
    """The refusal of a path whose part ``name`` is not of its ``kind`` (a converter's name)."""
    return f"the {name.replace('_', ' ')} in this path is not {_KINDS.get(kind, 'valid')}{_WHERE.get(name, '')}"


def not_found(url_map: Map, path: str) -> str:
    """Why ``path`` has no route: the first part of it that does not fit the route it is
    shaped like, else that nothing is served there."""
    for rule in url_map.iter_rules():
        parts = _PART.findall(rule.rule)
        if not parts:
            continue
        loose = "([^/]+)".join(re.escape(literal) for literal in _PART.split(rule.rule)[::3])
        match = re.fullmatch(loose, path)
        if match is None:
            continue
        for (kind, name), value in zip(parts, match.groups()):
            regex = getattr(url_map.converters.get(kind or "default"), "regex", "[^/]+")
            if re.fullmatch(regex, value) is None:
                return malformed(name, kind)
    return NO_PATH


# ------------------------------------------------------------------ the pages and docs/problems.md


def _inline(text: str) -> str:
    """Markdown's inline code as HTML, the rest escaped."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(text, quote=False))


def page(slug: str) -> str:
    """The HTML page of one problem type (``GET /problems/<slug>``)."""
    k = PROBLEMS[slug]
    return (f"<!doctype html><html lang=en><meta charset=utf-8><title>{html.escape(k.title)} - facedown</title>"
            f"<h1>{html.escape(k.title)}</h1><p><code>{type_uri(slug)}</code> · HTTP {k.status}</p>"
            f"<h2>When</h2><p>{_inline(k.when)}</p><h2>What to do</h2><p>{_inline(k.todo)}</p>"
            f'<p><a href="{BASE.rstrip("/")}">Every problem type</a></p></html>')


def index_page() -> str:
    rows = "".join(f'<tr><td><a href="{type_uri(s)}"><code>{s}</code></a></td><td>{k.status}</td>'
                   f"<td>{html.escape(k.title)}</td></tr>" for s, k in PROBLEMS.items())
    return ("<!doctype html><html lang=en><meta charset=utf-8><title>Problem types - facedown</title>"
            f"<h1>Problem types</h1><table><tr><th>type</th><th>status</th><th>title</th></tr>{rows}</table></html>")


@bp.get("/problems")
def problem_types() -> ResponseReturnValue:
    return Response(index_page(), mimetype="text/html")


@bp.get("/problems/<slug>")
def problem_type(slug: str) -> ResponseReturnValue:
    if slug not in PROBLEMS:
        raise Problem("not-found", f"no problem type {slug!r}; every type is listed at /problems")
    return Response(page(slug), mimetype="text/html")


def markdown() -> str:
    """``docs/problems.md``: every problem type, when it happens and what the client should do."""
    out = ["# Problem types", "",
           "Every error is an RFC 9457 `application/problem+json` document: `type`, `title`, `status`, "
           "`detail` (what to fix, in words) and, for some, `errors` (by field), `legal_actions`, `code`, "
           "`version` or `seat`. `type` is the relative URI `/problems/<slug>`: it resolves against the server "
           "that answered, which serves the page of that type there. Branch on `type` (or `status`), never on "
           "`title` or `detail`.", "",
           "This file is rendered from `service/model/problems.py` (`PROBLEMS`); a test keeps the two equal.", ""]
    for slug, k in PROBLEMS.items():
        out += [f"## `{slug}` ({k.status})", "", f"**{k.title}.** {k.when}", "", f"*What to do:* {k.todo}", ""]
    return "\n".join(out)
