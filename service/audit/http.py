"""``GET /v1/games/{id}/audit`` and ``GET /v1/games/{id}/audit/view?seat=N&version=V``.

* ``audit``: a finished game's complete export (see :mod:`service.audit.export`) with
  the server's verification; for an active game only its finished rounds (409
  ``audit-unavailable`` while the first round is being played).
* ``audit/view``: exactly ``ruleset.view(state at V, seat N)`` with the version and
  the chain head at V. Allowed for the caller's own seat at any version, and for any
  seat at a version inside a finished round (or of a finished game); otherwise 403.
"""
from __future__ import annotations

import uuid
from typing import Any

from flask import Blueprint, Flask, current_app, jsonify, request
from flask.typing import ResponseReturnValue

from service.audit import export as exporting
from service.audit.log import read_log, state_at
from service.problems import Problem

bp = Blueprint("audit", __name__)


def _store() -> Any:
    return current_app.extensions["facedown"].store


def _caller_player() -> str | None:
    """The bearer's player id, or None (anonymous) — authentication is the API's."""
    try:
        from service.api.http import caller
    except ImportError:
        return None
    who = caller(required=False)
    return None if who is None else str(who[0])


def _events(game_id: str) -> list[dict[str, Any]]:
    try:
        gid = uuid.UUID(game_id)
    except ValueError:
        raise Problem("not-found", "no such game") from None
    recorded = _store().read(gid)
    if not recorded or recorded[0].type != "GameOpened":
        raise Problem("not-found", "no such game")
    return [exporting.event_json(e) for e in recorded]


@bp.get("/v1/games/<game_id>/audit")
def audit(game_id: str) -> ResponseReturnValue:
    events = _events(game_id)
    try:
        out = exporting.build(game_id, events)
    except exporting.AuditUnavailable as exc:
        raise Problem("audit-unavailable", f"{exc}: the audit shows finished rounds only",
                      version=0) from None
    resp = jsonify(out)
    resp.headers["Cache-Control"] = "private, no-cache"
    return resp


def _int_arg(name: str, required: bool) -> int | None:
    raw = request.args.get(name)
    if raw is None:
        if required:
            raise Problem("validation", f"{name} is required", errors={name: ["required"]})
        return None
    if not raw.isdigit() or len(raw) > 12:
        raise Problem("validation", f"{name} must be a non-negative integer", errors={name: ["not an integer"]})
    return int(raw)


@bp.get("/v1/games/<game_id>/audit/view")
def audit_view(game_id: str) -> ResponseReturnValue:
    events = _events(game_id)
    log = read_log(events)
    seat = _int_arg("seat", True)
    version = _int_arg("version", False)
    assert seat is not None
    last = int(events[-1]["version"])
    version = last if version is None else version
    if seat >= log.players:
        raise Problem("validation", f"seat must be below {log.players}", errors={"seat": ["no such seat"]})
    if version < 1 or version > last:
        raise Problem("validation", f"version must be between 1 and {last}", errors={"version": ["out of range"]})
    player = _caller_player()
    own = player is not None and log.seat_of.get(player) == seat
    if not own and version > log.finished_rounds_upto():
        raise Problem("forbidden", "another seat's view is shown only for finished rounds (or your own seat)",
                      status=403)
    state = state_at(log, version)
    if state is None:
        raise Problem("audit-unavailable", f"the cards are not dealt yet at version {version}")
    ruleset = log.ruleset
    assert ruleset is not None
    return jsonify(seat=seat, version=version, chain_head=events[version - 1]["hash"],
                   view=ruleset.view(state, seat))


def register(app: Flask) -> None:
    app.register_blueprint(bp)
