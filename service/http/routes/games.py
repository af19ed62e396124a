"""Routes of games: the contract, players' registration, the rulesets, creating, listing,
reading, joining a game and playing in it. Each turns HTTP into one use case."""
from __future__ import annotations

import uuid
from pathlib import Path

from flask import Blueprint, Response, request
from flask.typing import ResponseReturnValue

from service.http.lists import listing
from service.http.rate_limits import costly, per_address
from service.http.routes.audit import int_arg
from service.http.requests import (caller, deps, idempotency_key, if_match, json_body, load, load_query,
                                   prefers_minimal, reply, version_header)
from service.http.schemas import games as s
from service.http.schemas import lists as ls
from service.model.views import summary
from service.usecases import accounts, listing as lists, lobby, playing, reading
from service.usecases.transparency import checkpoint_at, game_consistency

bp = Blueprint("games", __name__)
OPENAPI = Path(__file__).resolve().parents[3] / "openapi.yaml"

_player_in, _join_in, _command_in, _create_in = s.PlayerIn(), s.JoinIn(), s.CommandIn(), s.GameCreateIn()
_player_out, _game_out, _join_out, _view_out = s.PlayerOut(), s.GameOut(), s.JoinOut(), s.ViewOut()
_command_out, _rulesets_out = s.CommandOut(), s.RulesetsOut()
_list_q, _page_out = ls.ListQuery(), ls.ListOut()


def _held(version: int) -> bool:
    """Whether the caller holds the game at ``version`` already (``If-None-Match``, or ``*``)."""
    inm = version_header("If-None-Match")
    return inm is not None and (inm == [] or version in inm)


@bp.get("/openapi.yaml")
def openapi() -> ResponseReturnValue:
    return Response(OPENAPI.read_bytes(), mimetype="application/yaml")


@bp.post("/v1/players")
@per_address
def create_player() -> ResponseReturnValue:
    data = load(_player_in, json_body())
    out = accounts.register_player(deps(), data["name"], bot=data["bot"])
    return reply(_player_out, out, 201, {"Cache-Control": "no-store"})


@bp.get("/v1/rulesets")
def list_rulesets() -> ResponseReturnValue:
    return reply(_rulesets_out, {"rulesets": lobby.rulesets()})


@bp.post("/v1/games")
def create_game() -> ResponseReturnValue:
    who = caller()
    assert who is not None
    body = json_body()
    data = load(_create_in, body)
    entropy = bytes.fromhex(data["entropy"]) if data["entropy"] else None
    opening = lobby.Opening(lobby.time_control(deps(), data["time_control"]), data["visibility"],
                            rated=data["rated"])
    cur, seat = lobby.create_game(deps(), who, data["ruleset"], data["seats"], data["options"], data["name"],
                                  data["take_seat"], entropy, idempotency_key(), body, opening)
    checkpoint = checkpoint_at(deps(), uuid.UUID(cur.game.id), cur.version)
    out = summary(cur.game, cur.version, cur.head) | {"your_seat": seat, "checkpoint": checkpoint}
    if cur.game.visibility == "unlisted":
        out["invite_code"] = lobby.invite_code(deps(), uuid.UUID(cur.game.id))
    return reply(_game_out, out, 201, {"Location": f"/v1/games/{cur.game.id}", "ETag": f'"{cur.version}"'})


@bp.get("/v1/games")
@costly
def list_games() -> ResponseReturnValue:
    who = caller(required=False)
    q = load_query(_list_q)
    return listing(_page_out, lambda: lists.public(deps(), who[0] if who else None, q), q["wait"])


@bp.get("/v1/me/games")
def my_games() -> ResponseReturnValue:
    who = caller()
    assert who is not None
    q = load_query(_list_q)
    return listing(_page_out, lambda: lists.mine(deps(), who[0], q), q["wait"], [who[0]])


@bp.get("/v1/games/<uuid:game_id>")
def get_game(game_id: uuid.UUID) -> ResponseReturnValue:
    who = caller(required=False)
    version, out = reading.game_summary(deps(), game_id, who[0] if who else None, _held)
    etag = f'"{version}"'
    if out is None:
        return Response(status=304, headers={"ETag": etag})
    return reply(_game_out, out, 200, {"ETag": etag, "Vary": "Authorization"})


@bp.post("/v1/games/<uuid:game_id>/join")
def join(game_id: uuid.UUID) -> ResponseReturnValue:
    who = caller()
    assert who is not None
    body = json_body(optional=True)
    data = load(_join_in, body)
    entropy = bytes.fromhex(data["entropy"]) if data["entropy"] else None
    cur, seat = lobby.join_game(deps(), game_id, who, entropy, idempotency_key(), body)
    game = summary(cur.game, cur.version, cur.head, deps().timeouts)
    out = {"seat": seat, "game": game | {"your_seat": seat, "checkpoint": checkpoint_at(deps(), game_id, cur.version)}}
    return reply(_join_out, out, 200, {"ETag": f'"{cur.version}"'})


@bp.get("/v1/games/<uuid:game_id>/view")
def get_view(game_id: uuid.UUID) -> ResponseReturnValue:
    who = caller(required=False)
    version, out = reading.seat_view(deps(), game_id, who[0] if who else None, _held)
    etag = f'"{version}"'
    if out is None:
        return Response(status=304, headers={"ETag": etag, "Vary": "Authorization"})
    return reply(_view_out, out, 200, {"ETag": etag, "Vary": "Authorization", "Cache-Control": "private, no-cache"})


@bp.post("/v1/games/<uuid:game_id>/commands")
def command(game_id: uuid.UUID) -> ResponseReturnValue:
    who = caller()
    assert who is not None
    body = json_body()
    load(_command_in, body)
    held = if_match()
    # Prefer: return=minimal: the view as a patch from the version the caller holds (its
    # If-Match), else none of it (docs/performance.md, "The size of answers")
    answer = "view" if not prefers_minimal() else "none" if held is None else "patch"
    proof_from = int_arg("proof_from", False)
    out = playing.run_command(deps(), game_id, who[0], body, held, idempotency_key(), request.path, answer)
    if proof_from and proof_from < out["version"]:
        # the proof a client checking checkpoints would ask next, from the size it last saw:
        # checking a command then costs no second request (docs/fairness.md §9)
        out = {**out, "consistency": {"size": proof_from,
                                      **game_consistency(deps(), game_id, proof_from, out["version"])}}
    headers = {"ETag": f'"{out["version"]}"'}
    if "view" not in out:
        headers["Preference-Applied"] = "return=minimal"
    return reply(_command_out, out, 200, headers)
