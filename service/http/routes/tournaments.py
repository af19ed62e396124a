"""Routes of tournaments (docs/tournaments.md): open one, list them, read one, join, leave,
start. Each turns HTTP into one use case."""
from __future__ import annotations

import uuid

from flask import Blueprint
from flask.typing import ResponseReturnValue

from service.http.requests import caller, deps, idempotency_key, json_body, load, load_query, reply
from service.http.schemas import tournaments as s
from service.usecases import tournaments

bp = Blueprint("tournaments", __name__)
_in, _query, _list_out, _out = s.TournamentIn(), s.ListQuery(), s.TournamentListOut(), s.TournamentOut()


def _shown(tid: uuid.UUID, status: int = 200) -> ResponseReturnValue:
    out = tournaments.show(deps(), tid)
    headers = {"ETag": f'"{out["version"]}"', "Cache-Control": "no-cache"}
    if status == 201:
        headers["Location"] = f"/v1/tournaments/{tid}"
    return reply(_out, out, status, headers)


@bp.post("/v1/tournaments")
def create() -> ResponseReturnValue:
    who = caller()
    assert who is not None
    data = load(_in, json_body())
    t = tournaments.create(deps(), who, data, idempotency_key())
    return _shown(uuid.UUID(t.id), 201)


@bp.get("/v1/tournaments")
def listing() -> ResponseReturnValue:
    q = load_query(_query)
    return reply(_list_out, tournaments.listing(deps(), q["status"], q["limit"]), 200, {"Cache-Control": "no-cache"})


@bp.get("/v1/tournaments/<uuid:tournament_id>")
def show(tournament_id: uuid.UUID) -> ResponseReturnValue:
    return _shown(tournament_id)


@bp.post("/v1/tournaments/<uuid:tournament_id>/join")
def join(tournament_id: uuid.UUID) -> ResponseReturnValue:
    who = caller()
    assert who is not None
    tournaments.join(deps(), tournament_id, who)
    return _shown(tournament_id)


@bp.post("/v1/tournaments/<uuid:tournament_id>/leave")
def leave(tournament_id: uuid.UUID) -> ResponseReturnValue:
    who = caller()
    assert who is not None
    tournaments.leave(deps(), tournament_id, who[0])
    return _shown(tournament_id)


@bp.post("/v1/tournaments/<uuid:tournament_id>/start")
def start(tournament_id: uuid.UUID) -> ResponseReturnValue:
    who = caller()
    assert who is not None
    tournaments.start(deps(), tournament_id, who[0], "creator")
    return _shown(tournament_id)
