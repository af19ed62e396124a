"""Routes of a game's life: resign, leave, cancel, vote, take a seat back, invitations,
the invite code, rematch; and the guard that hides unlisted games from strangers."""
from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from typing import Any

from flask import Blueprint, request
from flask.typing import ResponseReturnValue

from service.usecases import game_life as lifecycle, lobby
from service.http.schemas import accounts as ls
from service.http.schemas import games as s
from service.http.requests import api, caller, json_body, load, reply
from service.model.clock import TimeControl
from service.usecases.dependencies import Api
from service.model.views import summary
from service.model.problems import Problem
from service.adapters.repository import Current
from service.usecases.visibility import visible

bp = Blueprint("lifecycle", __name__)
_GAME_PATH = re.compile(r"/v1/games/([0-9a-fA-F-]{36})(?:/.*)?")
_vote_in, _invitation_in = ls.VoteIn(), ls.InvitationIn()
_game_out, _invitation_out, _code_out = s.GameOut(), ls.InvitationOut(), ls.InviteCodeOut()


def time_control(a: Api, raw: dict[str, Any] | None) -> TimeControl | None:
    """The time control a creator asked for (``{}``: the service's defaults; None: no clock),
    within the service's bounds (422 otherwise)."""
    if raw is None:
        return None
    default, t = a.timeouts.default(), a.timeouts
    chosen = TimeControl(raw.get("turn_seconds") or default.turn_seconds,
                         raw.get("final_window_seconds") or default.final_window_seconds)
    errors = {k: [f"must be between {int(t.turn_min)} and {int(t.turn_max)} seconds"]
              for k in ("turn_seconds", "final_window_seconds")
              if raw.get(k) is not None and not t.turn_min <= raw[k] <= t.turn_max}
    if errors:
        raise Problem("validation", "the time control is out of bounds", errors={"time_control": errors})
    return chosen


@bp.before_app_request
def _unlisted_stay_hidden() -> None:
    """A stranger reading an unlisted game (its summary, view, events, stream, audit) gets 404."""
    if request.method not in ("GET", "HEAD"):
        return
    m = _GAME_PATH.fullmatch(request.path)
    if m is None:
        return
    try:
        gid = uuid.UUID(m.group(1))
    except ValueError:
        return
    who = caller(required=False)
    if not visible(api(), gid, who[0] if who else None, request.args.get("invite_code")):
        raise Problem("not-found", f"no game {gid}")


def _player() -> tuple[str, str]:
    who = caller()
    assert who is not None
    return who


def _game(cur: Current, player: str, status: int = 200) -> ResponseReturnValue:
    out = summary(cur.game, cur.version, cur.head) | {"your_seat": cur.game.seat_of(player)}
    return reply(_game_out, out, status, {"ETag": f'"{cur.version}"'})


def _requested(use_case: Callable[[Api, uuid.UUID, str], Current]) -> Callable[[uuid.UUID], ResponseReturnValue]:
    """A route that sends the caller's request to a use case and answers with the game."""

    def route(game_id: uuid.UUID) -> ResponseReturnValue:
        who = _player()
        return _game(use_case(api(), game_id, who[0]), who[0])

    return route


# resign an active game, leave an open one, cancel one (its creator), take a seat back from a bot
for _rule, _method, _case in (("/resign", "POST", lifecycle.resign), ("/leave", "POST", lifecycle.leave),
                              ("", "DELETE", lifecycle.cancel), ("/reclaim", "POST", lifecycle.reclaim)):
    bp.add_url_rule(f"/v1/games/<uuid:game_id>{_rule}", _case.__name__, _requested(_case), methods=[_method])


@bp.post("/v1/games/<uuid:game_id>/votes")
def vote(game_id: uuid.UUID) -> ResponseReturnValue:
    who = _player()
    data = load(_vote_in, json_body())
    return _game(lifecycle.vote(api(), game_id, who[0], data["kind"], data["seat"]), who[0])


@bp.post("/v1/games/<uuid:game_id>/invitations")
def invite(game_id: uuid.UUID) -> ResponseReturnValue:
    who = _player()
    data = load(_invitation_in, json_body())
    cur, seat, invitee = lifecycle.invite(api(), game_id, who[0], data["player_id"], data["handle"])
    game = _game_out.dump(summary(cur.game, cur.version, cur.head) | {"your_seat": cur.game.seat_of(who[0])})
    return reply(_invitation_out, {"seat": seat, "player_id": invitee, "game": game}, 201,
                 {"ETag": f'"{cur.version}"'})


@bp.get("/v1/games/<uuid:game_id>/invite_code")
def invite_code(game_id: uuid.UUID) -> ResponseReturnValue:
    """Only the game's seated players may read its invite code."""
    who = _player()
    game = api().games.load(game_id).game
    if game.seat_of(who[0]) is None:
        raise Problem("forbidden", "only the game's seated players may read its invite code")
    return reply(_code_out, {"game_id": str(game_id), "invite_code": lobby.invite_code(api(), game_id)}, 200,
                 {"Cache-Control": "private, no-store"})


@bp.post("/v1/games/<uuid:game_id>/rematch")
def rematch(game_id: uuid.UUID) -> ResponseReturnValue:
    who = _player()
    cur = lifecycle.rematch(api(), game_id, who)
    out = summary(cur.game, cur.version, cur.head) | {"your_seat": cur.game.seat_of(who[0])}
    return reply(_game_out, out, 201, {"Location": f"/v1/games/{cur.game.id}", "ETag": f'"{cur.version}"'})
