"""Routes of a player's account: ``/v1/me`` (profile and vacation balance), the handle, the language,
vacations, tokens; and public profiles (``/v1/players/{handle}``)."""
from __future__ import annotations

import uuid

from flask import Blueprint, Response, request
from flask.typing import ResponseReturnValue

from service.http.requests import deps, json_body, load, reply, session_cookie, signed_in
from service.http.schemas import accounts as ls
from service.usecases import accounts, tokens, vacation

bp = Blueprint("me", __name__)
_vacation_in, _token_in, _handle_in, _locale_in = ls.VacationIn(), ls.TokenIn(), ls.HandleIn(), ls.LocaleIn()
_me_out, _vacation_out, _token_out, _tokens_out, _profile_out = (
    ls.MeOut(), ls.VacationOut(), ls.TokenOut(), ls.TokensOut(), ls.ProfileOut())
_PRIVATE = {"Cache-Control": "private, no-store"}


@bp.get("/v1/me")
def me() -> ResponseReturnValue:
    return reply(_me_out, accounts.me(deps(), signed_in()), 200, _PRIVATE)


@bp.put("/v1/me/handle")
def put_handle() -> ResponseReturnValue:
    pid = signed_in()
    data = load(_handle_in, json_body())
    return reply(_me_out, accounts.change_handle(deps(), pid, data["handle"]), 200, _PRIVATE)


@bp.put("/v1/me/locale")
def put_locale() -> ResponseReturnValue:
    pid = signed_in()
    data = load(_locale_in, json_body())
    return reply(_me_out, accounts.choose_locale(deps(), pid, data["locale"]), 200, _PRIVATE)


@bp.post("/v1/me/vacation")
def start_vacation() -> ResponseReturnValue:
    pid = signed_in()
    data = load(_vacation_in, json_body())
    return reply(_vacation_out, vacation.start(deps(), pid, data["days"]), 201, _PRIVATE)


@bp.delete("/v1/me/vacation")
def end_vacation() -> ResponseReturnValue:
    return reply(_vacation_out, vacation.end(deps(), signed_in()), 200, _PRIVATE)


@bp.post("/v1/me/tokens")
def issue_token() -> ResponseReturnValue:
    pid = signed_in()
    data = load(_token_in, json_body(optional=True))
    out = tokens.issue(deps(), pid, data["label"])
    return reply(_token_out, out | {"current": False, "last_used_at": None}, 201, _PRIVATE)


def _current_token() -> str | None:
    """The id of the token this request came with."""
    token = request.headers.get("Authorization", "").partition(" ")[2].strip() or session_cookie()
    found = accounts.authenticated(deps(), token) if token else None
    return None if found is None else found[2]


@bp.get("/v1/me/tokens")
def list_tokens() -> ResponseReturnValue:
    pid = signed_in()
    return reply(_tokens_out, tokens.listing(deps(), pid, _current_token()), 200, _PRIVATE)


@bp.delete("/v1/me/tokens/<uuid:token_id>")
def revoke_token(token_id: uuid.UUID) -> ResponseReturnValue:
    tokens.revoke(deps(), signed_in(), str(token_id))
    return Response(status=204)


@bp.get("/v1/players/<handle>")
def profile(handle: str) -> ResponseReturnValue:
    # revalidated each time: the end of a game changes its players' ratings at once
    return reply(_profile_out, accounts.profile(deps(), handle), 200, {"Cache-Control": "no-cache"})
