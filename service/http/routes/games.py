"""Routes of the game API: each turns HTTP into one use case of :mod:`service.games`."""
from __future__ import annotations

import logging
import re
import uuid
from pathlib import Path

from flask import Blueprint, Response, request
from flask.typing import ResponseReturnValue

from domain import rules
from domain.messages import SYSTEM_COMMANDS
from service.usecases import playing as commands, listing as lists, lobby, accounts as players
from service.model import problems
from service.http.schemas import accounts as ls
from service.http.schemas import games as s
from service.http.requests import (api, caller, idempotency_key, if_match, json_body, load, load_query, reply,
                              version_header)
from service.http.routes.game_life import time_control
from service.http.lists import listing
from service.model.views import summary, view
from service.model.problems import Problem
from service.http.rate_limits import costly, per_address

bp = Blueprint("api", __name__)
OPENAPI = Path(__file__).resolve().parents[3] / "openapi.yaml"

_player_in, _game_in, _join_in, _command_in = s.PlayerIn(), s.GameIn(), s.JoinIn(), s.CommandIn()
_games_q, _events_q, _stream_q = s.GamesQuery(), s.EventsQuery(), s.StreamQuery()
_event_out = s.EventOut()
_create_in, _list_q, _page_out = ls.GameCreateIn(), ls.ListQuery(), ls.ListOut()
log = logging.getLogger(__name__)
_VERSION_RE = re.compile(r"[0-9]{1,15}")
_player_out, _game_out, _join_out, _view_out = s.PlayerOut(), s.GameOut(), s.JoinOut(), s.ViewOut()
_events_out, _command_out, _list_out, _rulesets_out = s.EventsOut(), s.CommandOut(), s.GameListOut(), s.RulesetsOut()


@bp.get("/openapi.yaml")
def openapi() -> ResponseReturnValue:
    return Response(OPENAPI.read_bytes(), mimetype="application/yaml")


@bp.get("/problems")
def problem_types() -> ResponseReturnValue:
    return Response(problems.index_page(), mimetype="text/html")


@bp.get("/problems/<slug>")
def problem_type(slug: str) -> ResponseReturnValue:
    if slug not in problems.PROBLEMS:
        raise Problem("not-found", f"no problem type {slug!r}; every type is listed at /problems")
    return Response(problems.page(slug), mimetype="text/html")


@bp.post("/v1/players")
@per_address
def create_player() -> ResponseReturnValue:
    data = load(_player_in, json_body())
    out = players.register_player(api(), data["name"])
    return reply(_player_out, out, 201, {"Cache-Control": "no-store"})


@bp.get("/v1/rulesets")
def list_rulesets() -> ResponseReturnValue:
    out = []
    for name in lobby.available():
        rs = rules.get(name)
        commands = sorted(rs.command_types)
        out.append({"name": rs.name, "title": rs.title, "min_players": rs.min_players,
                    "max_players": rs.max_players, "options": [o.schema() for o in rs.options],
                    "defaults": {o.key: o.default for o in rs.options},
                    "commands": [c for c in commands if c not in SYSTEM_COMMANDS],
                    "system_commands": [c for c in commands if c in SYSTEM_COMMANDS],
                    "events": list(rs.event_types)})
    return reply(_rulesets_out, {"rulesets": out})


@bp.post("/v1/games")
def create_game() -> ResponseReturnValue:
    who = caller()
    assert who is not None
    body = json_body()
    data = load(_create_in, body)
    entropy = bytes.fromhex(data["entropy"]) if data["entropy"] else None
    opening = lobby.Opening(time_control(api(), data["time_control"]), data["visibility"])
    cur, seat = lobby.create_game(api(), who, data["ruleset"], data["seats"], data["options"], data["name"],
                                  data["take_seat"], entropy, idempotency_key(), body, opening)
    out = summary(cur.game, cur.version, cur.head) | {"your_seat": seat}
    if cur.game.visibility == "unlisted":
        out["invite_code"] = lobby.invite_code(api(), uuid.UUID(cur.game.id))
    return reply(_game_out, out, 201, {"Location": f"/v1/games/{cur.game.id}", "ETag": f'"{cur.version}"'})


@bp.get("/v1/games")
@costly
def list_games() -> ResponseReturnValue:
    who = caller(required=False)
    q = load_query(_list_q)
    return listing(_page_out, lambda: lists.public(api(), who[0] if who else None, q), q["wait"])


@bp.get("/v1/me/games")
def my_games() -> ResponseReturnValue:
    who = caller()
    assert who is not None
    q = load_query(_list_q)
    return listing(_page_out, lambda: lists.mine(api(), who[0], q), q["wait"], [who[0]])


@bp.get("/v1/games/<uuid:game_id>")
def get_game(game_id: uuid.UUID) -> ResponseReturnValue:
    who = caller(required=False)
    cur = api().games.load(game_id)
    etag = f'"{cur.version}"'
    inm = version_header("If-None-Match")
    if inm is not None and (inm == [] or cur.version in inm):
        return Response(status=304, headers={"ETag": etag})
    out = summary(cur.game, cur.version, cur.head, api().timeouts) | {"your_seat": cur.game.seat_of(who[0]) if who else None}
    return reply(_game_out, out, 200, {"ETag": etag, "Vary": "Authorization"})


@bp.post("/v1/games/<uuid:game_id>/join")
def join(game_id: uuid.UUID) -> ResponseReturnValue:
    who = caller()
    assert who is not None
    body = json_body(optional=True)
    data = load(_join_in, body)
    entropy = bytes.fromhex(data["entropy"]) if data["entropy"] else None
    cur, seat = lobby.join_game(api(), game_id, who, entropy, idempotency_key(), body)
    out = {"seat": seat, "game": summary(cur.game, cur.version, cur.head, api().timeouts) | {"your_seat": seat}}
    return reply(_join_out, out, 200, {"ETag": f'"{cur.version}"'})


@bp.get("/v1/games/<uuid:game_id>/view")
def get_view(game_id: uuid.UUID) -> ResponseReturnValue:
    who = caller(required=False)
    cur = api().games.load(game_id)
    etag = f'"{cur.version}"'
    inm = version_header("If-None-Match")
    if inm is not None and (inm == [] or cur.version in inm):
        return Response(status=304, headers={"ETag": etag, "Vary": "Authorization"})
    seat = cur.game.seat_of(who[0]) if who else None
    return reply(_view_out, view(cur.game, cur.version, cur.head, seat, api().timeouts), 200,
                 {"ETag": etag, "Vary": "Authorization", "Cache-Control": "private, no-cache"})


@bp.post("/v1/games/<uuid:game_id>/commands")
def command(game_id: uuid.UUID) -> ResponseReturnValue:
    who = caller()
    assert who is not None
    body = json_body()
    load(_command_in, body)
    out = commands.run_command(api(), game_id, who[0], body, if_match(), idempotency_key(), request.path)
    return reply(_command_out, out, 200, {"ETag": f'"{out["version"]}"'})
