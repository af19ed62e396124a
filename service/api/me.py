"""Routes of a player's account: ``/v1/me`` (profile and vacation balance), the handle, the language,
vacations, tokens; and public profiles (``/v1/players/{handle}``)."""
from __future__ import annotations

import uuid

from flask import Blueprint, Response, request
from flask.typing import ResponseReturnValue

from service import accounts, players, tokens, vacation
from service.api import lifecycle_schemas as ls
from service.api.http import api, caller, json_body, load, reply, session_cookie

bp = Blueprint("me", __name__)
_vacation_in, _token_in, _handle_in, _locale_in = ls.VacationIn(), ls.TokenIn(), ls.HandleIn(), ls.LocaleIn()
_me_out, _vacation_out, _token_out, _tokens_out, _profile_out = (
    ls.MeOut(), ls.VacationOut(), ls.TokenOut(), ls.TokensOut(), ls.ProfileOut())
_PRIVATE = {"Cache-Control": "private, no-store"}


def _player() -> str:
    who = caller()
    assert who is not None
    return who[0]


def _me(acct: accounts.Account) -> dict[str, object]:
    return {"id": acct.id, "name": acct.name, "handle": acct.handle, "created_at": acct.created_at,
            "vacation": vacation.balance(api(), acct), "tokens": len(acct.live_tokens()), "locale": acct.locale}


@bp.get("/v1/me")
def me() -> ResponseReturnValue:
    acct, _ = accounts.load(api(), _player())
    return reply(_me_out, _me(acct), 200, _PRIVATE)


@bp.put("/v1/me/handle")
def put_handle() -> ResponseReturnValue:
    pid = _player()
    data = load(_handle_in, json_body())
    return reply(_me_out, _me(players.change_handle(api(), pid, data["handle"])), 200, _PRIVATE)


@bp.put("/v1/me/locale")
def put_locale() -> ResponseReturnValue:
    pid = _player()
    data = load(_locale_in, json_body())
    return reply(_me_out, _me(players.choose_locale(api(), pid, data["locale"])), 200, _PRIVATE)


@bp.post("/v1/me/vacation")
def start_vacation() -> ResponseReturnValue:
    pid = _player()
    data = load(_vacation_in, json_body())
    return reply(_vacation_out, vacation.start(api(), pid, data["days"]), 201, _PRIVATE)


@bp.delete("/v1/me/vacation")
def end_vacation() -> ResponseReturnValue:
    return reply(_vacation_out, vacation.end(api(), _player()), 200, _PRIVATE)


@bp.post("/v1/me/tokens")
def issue_token() -> ResponseReturnValue:
    pid = _player()
    data = load(_token_in, json_body(optional=True))
    out = tokens.issue(api(), pid, data["label"])
    return reply(_token_out, out | {"current": False, "last_used_at": None}, 201, _PRIVATE)


def _current_token() -> str | None:
    """The id of the token this request came with."""
    token = request.headers.get("Authorization", "").partition(" ")[2].strip() or session_cookie()
    found = players.authenticated(api(), token) if token else None
    return None if found is None else found[2]


@bp.get("/v1/me/tokens")
def list_tokens() -> ResponseReturnValue:
    pid = _player()
    return reply(_tokens_out, tokens.listing(api(), pid, _current_token()), 200, _PRIVATE)


@bp.delete("/v1/me/tokens/<uuid:token_id>")
def revoke_token(token_id: uuid.UUID) -> ResponseReturnValue:
    tokens.revoke(api(), _player(), str(token_id))
    return Response(status=204)


@bp.get("/v1/players/<handle>")
def profile(handle: str) -> ResponseReturnValue:
    return reply(_profile_out, players.profile(api(), handle), 200, {"Cache-Control": "public, max-age=60"})
