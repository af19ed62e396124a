"""Use cases of a game's life around its rules: resign, leave, cancel, vote, take a seat
back, invite, rematch. Each is *load → decide (service.model.seating) → append* on the game's
stream, recorded with the request in its metadata so that the audit decides it again;
the server's moves that follow (a resigned seat's turn, a bot's) are appended after it.
"""
from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from domain import choices, rules
from events import players
from events.store import NewEvent
from service.adapters.repository import Current, Decision, folded
from service.model import seating
from service.model.clock import server_moves
from service.model.game import Game, metadata
from service.model.problems import Problem
from service.usecases import lobby, playing
from service.usecases.dependencies import Dependencies
from service.usecases.lobby import Opening

ENDED = frozenset({"finished", "aborted", "cancelled"})
_REMATCH_NS = uuid.UUID("6b1f0d2e-9a4c-4f57-8e3b-2c7d5a9e1f40")  # a rematch's id: uuid5(its game)



def _apply(deps: Dependencies, gid: uuid.UUID, pid: str, command: dict[str, Any],
           make: Callable[[Game], seating.Events]) -> Current:
    """Append the service events ``make`` decides on the game (the secret's reveal with
    them if they end it), then the server's moves they make due."""

    def decide(cur: Current) -> Decision:
        game = cur.game
        made = make(game)
        at = deps.now()
        meta = metadata(at, game.seat_of(pid), pid, command)
        events = [NewEvent(t, d, meta) for t, d in made]
        new = folded(game, events, gid)
        if new.status in ENDED and new.secret is None:
            secret = deps.games.secret(gid).hex()  # revealed however a game ends: anyone may check the deal
            events.append(NewEvent("SecretRevealed", {"secret": secret}, metadata(at, None, None)))
            new = replace(new, secret=secret)
        return Decision(new, events)

    appended = deps.games.update(gid, decide)
    assert appended is not None
    cur = appended.current or deps.games.load(gid)
    if server_moves(cur.game):
        playing.play(deps, gid)
        cur = deps.games.load(gid)
    return cur


def resign(deps: Dependencies, gid: uuid.UUID, pid: str) -> Current:
    """Resign; the seat's standing orders are cancelled first (its player's own commands), so
    that nothing the player left behind plays on for them."""
    game = deps.games.load(gid).game
    seat = game.seat_of(pid)
    if seat is not None and game.status == "active" and game.seat_status(seat) == "playing":
        for listed in rules.get(game.ruleset).legal_actions(game.rules, seat):
            if listed["type"] == "CancelOrder":  # one entry names every live order
                for action in choices.commands(listed):
                    playing.run_command(deps, gid, pid, action, None, None, f"/v1/games/{gid}/resign")
    return _apply(deps, gid, pid, {"type": "Resign"}, lambda g: seating.resign(g, pid))


def leave(deps: Dependencies, gid: uuid.UUID, pid: str) -> Current:
    return _apply(deps, gid, pid, {"type": "Leave"}, lambda g: seating.leave(g, pid))


def cancel(deps: Dependencies, gid: uuid.UUID, pid: str) -> Current:
    return _apply(deps, gid, pid, {"type": "Cancel"}, lambda g: seating.cancel(g, pid))


def vote(deps: Dependencies, gid: uuid.UUID, pid: str, kind: str, seat: int | None) -> Current:
    command: dict[str, Any] = {"type": "Vote", "kind": kind, "seat": seat}
    return _apply(deps, gid, pid, command, lambda g: seating.vote(g, pid, kind, seat))


def reclaim(deps: Dependencies, gid: uuid.UUID, pid: str) -> Current:
    return _apply(deps, gid, pid, {"type": "Reclaim"}, lambda g: seating.reclaim(g, pid))


def invite(deps: Dependencies, gid: uuid.UUID, pid: str, invitee: str | None, handle: str | None
           ) -> tuple[Current, int | None, str]:
    """Keep a seat for a named player (by id or handle). The ``SeatReserved`` event is what
    an ``invited`` notification reacts to; the invitee's list wakes at once."""
    row = None
    if invitee is not None:
        try:
            row = players.by_id(deps.db, uuid.UUID(invitee))
        except ValueError:
            row = None
    elif handle is not None:
        row = players.by_handle(deps.db, handle.strip())
    if row is None:
        raise Problem("validation", "no such player to invite", errors={"player_id": ["no such player"]})
    who = str(row.id)
    cur = _apply(deps, gid, pid, {"type": "Invite", "player_id": who, "name": row.name},
                 lambda g: seating.invite(g, pid, who, row.name))
    deps.live.hint(who, 0)
    seat = cur.game.reserved_seat(who)
    return cur, cur.game.seat_of(who) if seat is None else seat, who


def rematch(deps: Dependencies, gid: uuid.UUID, player: tuple[str, str]) -> Current:
    """A new game with the same ruleset, options, time control, visibility and players, the
    caller in their seat and every other player invited; both games link to each other.
    Asked twice (or by two players), it is the same game."""
    pid = player[0]
    game = deps.games.load(gid).game
    seat = game.seat_of(pid)
    if seat is None:
        raise Problem("forbidden", "you have no seat in this game")
    if game.status not in ("finished", "aborted"):
        raise Problem("game-not-over", f"the game is {game.status}: a rematch follows a game that was played")
    new_id = uuid.UUID(game.next_game) if game.next_game else uuid.uuid5(_REMATCH_NS, str(gid))
    if game.next_game is None:
        def link(cur: Current) -> Decision | None:
            if cur.game.next_game is not None:
                return None
            events = [NewEvent("RematchOpened", {"next_game": str(new_id), "by": pid},
                               metadata(deps.now(), cur.game.seat_of(pid), pid, {"type": "Rematch"}))]
            return Decision(folded(cur.game, events, gid), events)

        deps.games.update(gid, link)
    if deps.store.head(new_id) is None:
        invited = [(s, info.player_id, info.name) for s, info in enumerate(game.seats)
                   if info is not None and s != seat]
        opening = Opening(game.time_control, game.visibility, invited, new_id, str(gid), seat, game.rated)
        try:
            return lobby.create_game(deps, player, game.ruleset, len(game.seats), game.options, game.name, True,
                                     None, opening=opening)[0]
        except Problem as exc:
            if exc.slug != "idempotency-key-reused":  # another request created it first
                raise
    return deps.games.load(new_id)
