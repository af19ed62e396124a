"""The web client's session routes (service/usecases/sessions.py): open one with a token, a
registration or a one-time code; read it; issue a code for another device; sign out.

The session's token travels only in the ``facedown_session`` cookie (HttpOnly,
SameSite=Lax, Secure over HTTPS); its CSRF token in the answers and in the readable
``facedown_csrf`` cookie. Opening a session from another site's page is refused (its
``Origin``), so nobody can sign a visitor into an account of theirs.
"""
from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, Response, request
from flask.typing import ResponseReturnValue

from service.http.schemas import accounts as s
from service.usecases import sessions
from service.http.requests import (CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE, caller, csrf_problem, deps, json_body,
                                   load, look_up, reply, session_cookie)
from service.http.rate_limits import per_address

bp = Blueprint("session", __name__)
SESSION_DAYS = 30
_NO_STORE = {"Cache-Control": "no-store"}


_session_in, _register_in, _session_out, _code_out = s.SessionIn(), s.RegisterIn(), s.SessionOut(), s.CodeOut()


def _same_site_origin() -> None:
    """Refuse to open a session from a page of another origin (login CSRF)."""
    origin = request.headers.get("Origin")
    if request.headers.get("Sec-Fetch-Site") == "cross-site" or (
            origin is not None and origin != "null" and urlsplit(origin).netloc != request.host):
        raise csrf_problem()


def _with_cookies(resp: Response, opened: dict[str, Any]) -> Response:
    secure = request.is_secure
    age = SESSION_DAYS * 86400
    resp.set_cookie(SESSION_COOKIE, opened["session"], max_age=age, path="/", secure=secure, httponly=True,
                    samesite="Lax")
    resp.set_cookie(CSRF_COOKIE, opened["csrf_token"], max_age=age, path="/", secure=secure, httponly=False,
                    samesite="Lax")
    return resp


def _opened(opened: dict[str, Any]) -> Response:
    out = {k: v for k, v in opened.items() if k != "session"} | {"signed_in": True}
    return _with_cookies(reply(_session_out, out, 201, _NO_STORE), opened)


@bp.get("/v1/session")
def current() -> ResponseReturnValue:
    """Who the session cookie signs in (``signed_in`` false, not 401: a page asks at every load)."""
    session = session_cookie()
    # the bearer's way: this worker's cache, and a token found unknown is not looked up again at once
    who = look_up(session).who if session else None
    if who is None:
        return reply(_session_out, {"signed_in": False, "player": None, "csrf_token": None}, 200, _NO_STORE)
    found = sessions.describe(deps(), who[0], session)
    return reply(_session_out, {k: v for k, v in found.items() if k != "session"} | {"signed_in": True},
                 200, _NO_STORE)


@bp.post("/v1/session")
@per_address
def sign_in() -> ResponseReturnValue:
    _same_site_origin()
    data = load(_session_in, json_body())
    if "token" in data:
        return _opened(sessions.sign_in_with_token(deps(), data["token"]))
    return _opened(sessions.sign_in_with_code(deps(), data["code"]))


@bp.post("/v1/session/register")
@per_address
def register() -> ResponseReturnValue:
    _same_site_origin()
    data = load(_register_in, json_body())
    return _opened(sessions.register(deps(), data["name"], data["handle"]))


@bp.post("/v1/session/codes")
def issue_code() -> ResponseReturnValue:
    who = caller()
    assert who is not None
    return reply(_code_out, sessions.issue_code(deps(), who[0]), 201, _NO_STORE)


@bp.delete("/v1/session")
def sign_out() -> ResponseReturnValue:
    """End the cookie's session (its token is revoked) and clear the cookies; 204 also when
    there was none."""
    session = session_cookie()
    if session is not None:
        if not sessions.csrf_matches(session, request.headers.get(CSRF_HEADER)):
            raise csrf_problem()
        sessions.sign_out(deps(), session)
    resp = Response(status=204)
    for name in (SESSION_COOKIE, CSRF_COOKIE):
        resp.delete_cookie(name, path="/", secure=request.is_secure, samesite="Lax",
                           httponly=name == SESSION_COOKIE)
    return resp
