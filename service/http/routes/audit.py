"""``GET /v1/games/{id}/audit`` and ``GET /v1/games/{id}/audit/view?seat=N&version=V``
(:mod:`service.audit.published` says what each shows and to whom).

Both are costly (one re-adjudicates the whole game, the other folds it) and anyone may
ask, so both are in the costly rate class (``service.http.rate_limits``); the worker keeps
the audits it built, served again with a strong ``ETag`` (``If-None-Match`` → 304).
"""
from __future__ import annotations

import re
import uuid

from flask import Blueprint, Response, jsonify, request
from flask.typing import ResponseReturnValue

from service.audit import published
from service.http.problems import malformed
from service.http.rate_limits import costly
from service.http.requests import caller, deps
from service.model.problems import Problem

bp = Blueprint("audit", __name__)
_UUID = re.compile(r"[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}")
_ASCII_INT = re.compile(r"[0-9]{1,12}")


def _game_id(game_id: str) -> uuid.UUID:
    # uuid.UUID() alone also takes braces, "urn:uuid:" and non-ASCII digits
    if _UUID.fullmatch(game_id) is None:
        raise Problem("not-found", malformed("game_id", "uuid"))
    return uuid.UUID(game_id)


def _player() -> str | None:
    """The caller's player id, or None (anonymous)."""
    who = caller(required=False)
    return None if who is None else str(who[0])


def int_arg(name: str, required: bool) -> int | None:
    raw = request.args.get(name)
    if raw is None:
        if required:
            raise Problem("validation", f"{name} is required", errors={name: ["required"]})
        return None
    if not _ASCII_INT.fullmatch(raw):
        raise Problem("validation", f"{name} must be a non-negative integer", errors={name: ["not an integer"]})
    return int(raw)


@bp.get("/v1/games/<game_id>/audit")
@costly
def audit(game_id: str) -> ResponseReturnValue:
    d = deps()
    built = published.audit(d.store, d.audits, _game_id(game_id), game_id)
    headers = {"ETag": built.etag, "Cache-Control": "private, no-cache"}
    if request.if_none_match.contains_weak(built.etag.strip('"')):
        return Response(status=304, headers=headers)
    return Response(built.body, 200, headers=headers, mimetype="application/json")


@bp.get("/v1/games/<game_id>/audit/view")
@costly
def audit_view(game_id: str) -> ResponseReturnValue:
    events, log = published.log_of(deps().store, _game_id(game_id))
    seat = int_arg("seat", True)
    version = int_arg("version", False)
    assert seat is not None
    return jsonify(**published.seat_view(events, log, seat, version, _player))
