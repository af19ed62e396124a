"""Routes of the ratings: a ruleset's leaderboard (docs/ratings.md)."""
from __future__ import annotations

from flask import Blueprint
from flask.typing import ResponseReturnValue

from service.http.requests import deps, load_query, reply
from service.http.schemas import ratings as s
from service.model.problems import Problem
from service.usecases import lobby, ratings

bp = Blueprint("ratings", __name__)
_query, _board_out = s.BoardQuery(), s.BoardOut()


@bp.get("/v1/ratings/<ruleset>")
def board(ruleset: str) -> ResponseReturnValue:
    if ruleset not in lobby.available():
        raise Problem("not-found", f"no ruleset {ruleset!r}")
    q = load_query(_query)
    out = ratings.board(deps(), ruleset, q["cursor"], q["limit"])
    return reply(_board_out, out, 200, {"Cache-Control": "no-cache"})  # a game that ends moves it at once
