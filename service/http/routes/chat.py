"""Routes of the game chat (``/v1/games/{id}/chat``, its reports) and of a player's mutes
(``/v1/me/mutes``): docs/chat.md. The chat's messages also ride on the game's event stream
(``service.http.routes.game_events``, ``chat_after``)."""
from __future__ import annotations

import uuid

from flask import Blueprint, Response, request
from flask.typing import ResponseReturnValue

from service.http import rate_limits
from service.http.requests import caller, deps, idempotency_key, json_body, load, load_query, reply
from service.http.schemas import chat as cs
from service.usecases import chat, mutes

bp = Blueprint("chat", __name__)
_chat_in, _report_in, _mute_in, _chat_q = cs.ChatIn(), cs.ReportIn(), cs.MuteIn(), cs.ChatQuery()
_message_out, _messages_out, _report_out, _mutes_out = cs.MessageOut(), cs.MessagesOut(), cs.ReportOut(), cs.MutesOut()
_PRIVATE = {"Cache-Control": "private, no-store"}
# a player's messages: five at once, then one every six seconds (ten a minute)
CHAT_BURST, CHAT_RATE = 5.0, 1 / 6


def _player() -> str:
    who = caller()
    assert who is not None
    return who[0]


@bp.post("/v1/games/<uuid:game_id>/chat")
def post(game_id: uuid.UUID) -> ResponseReturnValue:
    pid = _player()
    rate, burst = deps().config.extra.get("chat_rate", (CHAT_RATE, CHAT_BURST))
    rate_limits.spend("chat", pid, rate, burst, "chat messages")
    data = load(_chat_in, json_body())
    out = chat.post(deps(), game_id, pid, data["text"], idempotency_key(), request.path)
    return reply(_message_out, out, 201, _PRIVATE)


@bp.get("/v1/games/<uuid:game_id>/chat")
def read(game_id: uuid.UUID) -> ResponseReturnValue:
    who = caller(required=False)
    q = load_query(_chat_q)
    messages = chat.read(deps(), game_id, who[0] if who else None, q["after"], q["limit"])
    return reply(_messages_out, {"messages": messages}, 200, _PRIVATE)


@bp.post("/v1/games/<uuid:game_id>/chat/<int:n>/report")
def report(game_id: uuid.UUID, n: int) -> ResponseReturnValue:
    pid = _player()
    data = load(_report_in, json_body())
    return reply(_report_out, chat.report(deps(), game_id, pid, n, data["reason"]), 201, _PRIVATE)


@bp.get("/v1/me/mutes")
def list_mutes() -> ResponseReturnValue:
    return reply(_mutes_out, mutes.listing(deps(), _player()), 200, _PRIVATE)


@bp.post("/v1/me/mutes")
def mute() -> ResponseReturnValue:
    pid = _player()
    data = load(_mute_in, json_body())
    return reply(_mutes_out, mutes.mute(deps(), pid, data["player_id"]), 201, _PRIVATE)


@bp.delete("/v1/me/mutes/<uuid:player_id>")
def unmute(player_id: uuid.UUID) -> ResponseReturnValue:
    mutes.unmute(deps(), _player(), player_id)
    return Response(status=204)
