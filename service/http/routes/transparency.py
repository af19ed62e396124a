"""Checkpoints, proofs and witnesses (docs/fairness.md, "Checkpoints, proofs and witnesses"):

* ``GET /v1/log/key``: the server's log key (``{vkey}``);
* ``GET /v1/games/{id}/checkpoint`` (text/plain, a signed note) and the game tree's proofs,
  ``GET /v1/games/{id}/proof/inclusion?index=I&size=N`` and ``.../consistency?from=M&to=N``;
* ``GET /v1/log/checkpoint`` (text/plain, with the witnesses' cosignatures), its proofs
  ``GET /v1/log/proof/inclusion?game=ID&size=N`` and ``.../consistency?from=M&to=N``;
* ``POST /v1/log/cosignatures``: a witness's cosigned checkpoint (text/plain).

A game's routes are under its path, so an unlisted game is hidden from strangers as its
other reads are (``service.http.requests.hide_unlisted_games``).
"""
from __future__ import annotations

import uuid

from flask import Blueprint, Response, jsonify, request
from flask.typing import ResponseReturnValue

from service.http.rate_limits import per_address
from service.http.requests import caller, deps
from service.http.routes.audit import int_arg
from service.model.problems import Problem
from service.usecases import transparency

bp = Blueprint("transparency", __name__)
NOTE = "text/plain; charset=utf-8"


def _note(text: str) -> Response:
    return Response(text, 200, content_type=NOTE, headers={"Cache-Control": "no-cache"})


def _required(name: str) -> int:
    value = int_arg(name, True)
    assert value is not None
    return value


@bp.get("/v1/log/key")
def log_key() -> ResponseReturnValue:
    return jsonify({"vkey": transparency.log_key(deps())})


@bp.get("/v1/games/<uuid:game_id>/checkpoint")
def game_checkpoint(game_id: uuid.UUID) -> ResponseReturnValue:
    return _note(transparency.game_checkpoint(deps(), game_id))


@bp.get("/v1/games/<uuid:game_id>/proof/inclusion")
def game_inclusion(game_id: uuid.UUID) -> ResponseReturnValue:
    return jsonify(transparency.game_inclusion(deps(), game_id, _required("index"), _required("size")))


@bp.get("/v1/games/<uuid:game_id>/proof/consistency")
def game_consistency(game_id: uuid.UUID) -> ResponseReturnValue:
    return jsonify(transparency.game_consistency(deps(), game_id, _required("from"), _required("to")))


@bp.get("/v1/log/checkpoint")
def log_checkpoint() -> ResponseReturnValue:
    return _note(transparency.log_checkpoint(deps()))


@bp.get("/v1/log/proof/inclusion")
def log_inclusion() -> ResponseReturnValue:
    raw = request.args.get("game", "")
    try:
        gid = uuid.UUID(raw) if len(raw) == 36 else None
    except ValueError:
        gid = None
    if gid is None:
        raise Problem("validation", "game must be a game id (a UUID)", errors={"game": ["not a game id"]})
    who = caller(required=False)
    return jsonify(transparency.log_inclusion(deps(), gid, _required("size"), None if who is None else str(who[0])))


@bp.get("/v1/log/proof/consistency")
def log_consistency() -> ResponseReturnValue:
    return jsonify(transparency.log_consistency(deps(), _required("from"), _required("to")))


@bp.post("/v1/log/cosignatures")
@per_address
def cosignatures() -> ResponseReturnValue:
    if request.mimetype != "text/plain":
        raise Problem("unsupported-media-type", "the body is the cosigned checkpoint, as text/plain")
    try:
        body = request.get_data(cache=False).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Problem("validation", "the body is not UTF-8") from exc
    return jsonify(transparency.cosign(deps(), body))
