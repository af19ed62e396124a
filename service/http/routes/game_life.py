"""Routes of a game's life: resign, leave, cancel, vote, take a seat back, invitations,
the invite code, rematch."""
from __future__ import annotations

import uuid
from collections.abc import Callable

from flask import Blueprint
from flask.typing import ResponseReturnValue

from service.adapters.repository import Current
from service.http.requests import caller, deps, json_body, load, reply
from service.http.schemas import games as s
from service.model.views import summary
from service.usecases import game_life, lobby
from service.usecases.dependencies import Dependencies
from service.usecases.transparency import checkpoint_at

bp = Blueprint("game_life", __name__)
_vote_in, _invitation_in = s.VoteIn(), s.InvitationIn()
_game_out, _invitation_out, _code_out = s.GameOut(), s.InvitationOut(), s.InviteCodeOut()



def _player() -> tuple[str, str]:
    who = caller()
    assert who is not None
    return who


def _game(cur: Current, player: str, status: int = 200) -> ResponseReturnValue:
    return reply(_game_out, _changed(cur, player), status, {"ETag": f'"{cur.version}"'})


def _changed(cur: Current, player: str) -> dict[str, object]:
    """The game after a change the player asked for: its summary, the seat, its checkpoint."""
    checkpoint = checkpoint_at(deps(), uuid.UUID(cur.game.id), cur.version)
    return summary(cur.game, cur.version, cur.head) | {"your_seat": cur.game.seat_of(player), "checkpoint": checkpoint}


UseCase = Callable[[Dependencies, uuid.UUID, str], Current]


def _requested(use_case: UseCase) -> Callable[[uuid.UUID], ResponseReturnValue]:
    """A route that sends the caller's request to a use case and answers with the game."""

    def route(game_id: uuid.UUID) -> ResponseReturnValue:
        who = _player()
        return _game(use_case(deps(), game_id, who[0]), who[0])

    return route


# resign an active game, leave an open one, cancel one (its creator), take a seat back from a bot
for _rule, _method, _case in (("/resign", "POST", game_life.resign), ("/leave", "POST", game_life.leave),
                              ("", "DELETE", game_life.cancel), ("/reclaim", "POST", game_life.reclaim)):
    bp.add_url_rule(f"/v1/games/<uuid:game_id>{_rule}", _case.__name__, _requested(_case), methods=[_method])


@bp.post("/v1/games/<uuid:game_id>/votes")
def vote(game_id: uuid.UUID) -> ResponseReturnValue:
    who = _player()
    data = load(_vote_in, json_body())
    return _game(game_life.vote(deps(), game_id, who[0], data["kind"], data["seat"]), who[0])


@bp.post("/v1/games/<uuid:game_id>/invitations")
def invite(game_id: uuid.UUID) -> ResponseReturnValue:
    who = _player()
    data = load(_invitation_in, json_body())
    cur, seat, invitee = game_life.invite(deps(), game_id, who[0], data["player_id"], data["handle"])
    game = _game_out.dump(_changed(cur, who[0]))
    return reply(_invitation_out, {"seat": seat, "player_id": invitee, "game": game}, 201,
                 {"ETag": f'"{cur.version}"'})


@bp.get("/v1/games/<uuid:game_id>/invite_code")
def invite_code(game_id: uuid.UUID) -> ResponseReturnValue:
    """Only the game's seated players may read its invite code."""
    who = _player()
    code = lobby.invite_code_for(deps(), game_id, who[0])
    return reply(_code_out, {"game_id": str(game_id), "invite_code": code}, 200,
                 {"Cache-Control": "private, no-store"})


@bp.post("/v1/games/<uuid:game_id>/rematch")
def rematch(game_id: uuid.UUID) -> ResponseReturnValue:
    who = _player()
    cur = game_life.rematch(deps(), game_id, who)
    headers = {"Location": f"/v1/games/{cur.game.id}", "ETag": f'"{cur.version}"'}
    return reply(_game_out, _changed(cur, who[0]), 201, headers)
