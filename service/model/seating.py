"""The life of a seat, decided: resign, leave, cancel, invite, vote, take a seat back.

Each function takes the game as folded (``service.model.game.Game``) and a player's
request, and returns the service events it makes as ``(type, data)`` pairs, or raises a
:class:`~service.model.problems.Problem` on what every player can see. The rulesets know
nothing of this; where a ruleset must act for a seat (a resigned seat's turns), the service
sends its system commands. Pure: the service appends what these return, and the audit decides every
recorded request again with them (``service.audit.service_requests``).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain import rules
from service.model.game import Game
from service.model.problems import Problem

VOTE_KINDS = ("replace_with_bot", "abort")
BOT = "greedy"  # the policy that plays a replaced seat (domain.bots)

Events = list[tuple[str, dict[str, Any]]]


def _seated(game: Game, player: str) -> int:
    seat = game.seat_of(player)
    if seat is None:
        raise Problem("forbidden", "you have no seat in this game")
    return seat


def _active(game: Game) -> None:
    if game.status != "active":
        raise Problem("game-not-active", f"the game is {game.status}")


def ranking(game: Game, resigned: tuple[int, ...] | None = None) -> list[int]:
    """Seats from first to last: the winners, the others by score (lowest first), then the
    seats that resigned, the last to resign first."""
    gone = game.resigned if resigned is None else resigned
    left = [s for s in range(len(game.seats)) if s not in gone]
    winners = game.winners() or ()
    scores = rules.get(game.ruleset).scores(game.rules) if game.rules is not None else (0,) * len(game.seats)
    left.sort(key=lambda s: (s not in winners, scores[s], s))
    return left + list(reversed(gone))


def resign(game: Game, player: str) -> Events:
    """Leave an active game: the rules' automatic action plays the seat from now on; the
    game ends when one player is left, and the resigner ranks last."""
    seat = _seated(game, player)
    _active(game)
    if game.seat_status(seat) == "resigned":
        raise Problem("already-resigned", "you have resigned from this game")
    events: Events = [("SeatResigned", {"seat": seat, "player_id": player})]
    gone = (*game.resigned, seat)
    left = [s for s in range(len(game.seats)) if s not in gone]
    if len(left) == 1:
        events.append(("GameConcluded", {"reason": "resignation", "winners": left,
                                         "ranking": left + list(reversed(gone))}))
    return events


def leave(game: Game, player: str) -> Events:
    """Leave an open game (an invited player declines their seat)."""
    seat = game.seat_of(player)
    if seat is None:
        kept = game.reserved_seat(player)
        if kept is not None and game.status == "open":
            return [("InvitationDeclined", {"seat": kept, "player_id": player})]
        raise Problem("forbidden", "you have no seat in this game")
    if game.status != "open":
        raise Problem("game-not-open", f"the game is {game.status}: resign from an active game instead")
    if player == game.creator:
        raise Problem("creator-cannot-leave", "the creator cancels an open game (DELETE) instead of leaving it")
    return [("SeatLeft", {"seat": seat, "player_id": player})]


def cancel(game: Game, player: str) -> Events:
    """The creator cancels an open game."""
    if player != game.creator:
        raise Problem("forbidden", "only the game's creator may cancel it")
    if game.status != "open":
        raise Problem("game-not-open", f"the game is {game.status}: only an open game can be cancelled")
    return [("GameCancelled", {"by": player})]


def invite(game: Game, player: str, invitee: str, name: str) -> Events:
    """A seated player keeps a free seat of an open game for a named player."""
    _seated(game, player)
    if game.status != "open":
        raise Problem("game-not-open", f"the game is {game.status}")
    if game.seat_of(invitee) is not None:
        raise Problem("already-seated", "that player already has a seat in this game")
    if game.reserved_seat(invitee) is not None:
        raise Problem("already-invited", "that player is already invited to this game")
    seat = game.free_seat()
    if seat is None:
        raise Problem("game-not-open", "no free seat is left to keep")
    return [("SeatReserved", {"seat": seat, "player_id": invitee, "name": name, "by": player})]


def vote_target(game: Game, voter: int, seat: int | None) -> int:
    """The seat a vote is about: the one named, or the only one that may be voted on."""
    threshold = game.timeouts_before_vote
    open_ = [s for s in game.playing() if s != voter and game.timeouts_of(s) >= threshold]
    if seat is None:
        if not open_:
            raise Problem("vote-not-open", f"no other seat has timed out {threshold} turns in a row")
        if len(open_) > 1:
            raise Problem("validation", "several seats may be voted on: name one",
                          errors={"seat": [f"one of {open_}"]})
        return open_[0]
    if not 0 <= seat < len(game.seats) or seat == voter:
        raise Problem("validation", "not a seat you may vote on", errors={"seat": ["another player's seat"]})
    if seat not in open_:
        raise Problem("vote-not-open", f"seat {seat} has not timed out {threshold} turns in a row")
    return seat


def vote(game: Game, player: str, kind: str, seat: int | None = None) -> Events:
    """A seated player votes on a seat that timed out too often; a majority of the other
    players still playing decides (a bot takes the seat, or the game is aborted)."""
    voter = _seated(game, player)
    _active(game)
    if game.seat_status(voter) != "playing":
        raise Problem("forbidden", "only a seat its player still plays may vote")
    if kind not in VOTE_KINDS:
        raise Problem("validation", "unknown kind of vote", errors={"kind": [f"one of {list(VOTE_KINDS)}"]})
    target = vote_target(game, voter, seat)
    if any(v.seat == target and v.voter == voter and v.kind == kind for v in game.votes):
        raise Problem("already-voted", f"you have voted {kind} on seat {target}")
    events: Events = [("VoteCast", {"seat": target, "voter": voter, "kind": kind})]
    electorate = [s for s in game.playing() if s != target]
    ayes = {v.voter for v in game.votes if v.seat == target and v.kind == kind and v.voter in electorate} | {voter}
    if 2 * len(ayes) > len(electorate):
        if kind == "abort":
            events.append(("GameAborted", {"reason": "vote", "seat": target}))
        else:
            events.append(("SeatReplaced", {"seat": target, "bot": BOT, "reason": "vote"}))
    return events


def reclaim(game: Game, player: str) -> Events:
    """A player whose seat a bot plays takes it back."""
    seat = _seated(game, player)
    _active(game)
    if game.seat_status(seat) != "bot":
        raise Problem("seat-not-replaced", "your seat is not played by a bot")
    return [("SeatReclaimed", {"seat": seat, "player_id": player})]


def decide(game: Game, player: str, command: Mapping[str, Any]) -> Events:
    """A recorded request decided again (the audit's re-adjudication of service events)."""
    kind = command.get("type")
    if kind == "Resign":
        return resign(game, player)
    if kind == "Leave":
        return leave(game, player)
    if kind == "Cancel":
        return cancel(game, player)
    if kind == "Invite":
        return invite(game, player, str(command["player_id"]), str(command["name"]))
    if kind == "Vote":
        return vote(game, player, str(command["kind"]), command.get("seat"))
    if kind == "Reclaim":
        return reclaim(game, player)
    raise Problem("validation", f"unknown service command {kind!r}")


COMMANDS = frozenset({"Resign", "Leave", "Cancel", "Invite", "Vote", "Reclaim"})
