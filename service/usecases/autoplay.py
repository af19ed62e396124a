"""The server's own moves in a game: nobody can stall a game by not moving (docs/rules/README.md).

* a seat replaced by a bot (after a vote) is played by the bot through the same rules, as
  the seat's ordinary commands with the bot named in their metadata (``"bot"``);
* a wait that has timed out on the game's own clock, or that awaits a resigned seat,
  gets the ruleset's system commands (``TurnTimedOut``, ``FinalWindowExpired``) with a
  null actor, as before;
* before a seat times out, the player's vacation is looked at: one the game has not
  recorded yet is recorded (``ClockPaused``) and the seat's clock stands still.

Every move is an ordinary, version-checked append: a player who moves at the last moment
wins the race, and the game is looked at again.
"""
from __future__ import annotations

import random
import uuid
from dataclasses import replace
from datetime import datetime

from domain import bots, choices, codec, rules
from domain.errors import RuleError
from domain.messages import TurnTimedOut
from domain.orders import ORDER_KINDS
from events import players
from events.store import NewEvent
from service.model.clock import bots_awaited, command_seats, due_commands, iso, moment
from service.usecases.playing import outcome
from service.usecases.dependencies import Api
from service.model.game import Game, metadata
from service.usecases.lobby import folded
from service.adapters.repository import Current, Decision

MAX_MOVES = 200  # per call: a game of bots alone finishes over several sweeps


def play(api: Api, gid: uuid.UUID, limit: int = MAX_MOVES) -> int:
    """Every move the server has to make in the game now; returns the commands sent."""
    sent = 0
    for _ in range(limit):
        count = [0]
        if api.games.update(gid, lambda cur: _decide(api, cur, count)) is None:
            break
        sent += count[0]
    return sent


def _decide(api: Api, cur: Current, count: list[int]) -> Decision | None:
    game = cur.game
    if game.status != "active":
        return None
    for seat in bots_awaited(game):
        moved = _bot_move(api, cur, seat)
        if moved is not None:
            count[0] = 1
            return moved
    now = api.clock()
    due = [c for c, at in due_commands(game) if at is not None and at <= now]
    if not due:
        return None
    paused = _unrecorded_vacations(api, game, due, now)
    if paused is not None:
        return paused
    return _system_commands(api, game, due, count)


def _bot_move(api: Api, cur: Current, seat: int) -> Decision | None:
    """The bot's choice among the seat's legal actions, seen through the seat's view only."""
    game = cur.game
    info = game.seats[seat]
    assert info is not None
    rs = rules.get(game.ruleset)
    # a move, never a standing order: those are the seat's player's to leave
    actions = [a for a in rs.legal_actions(game.rules, seat) if a["type"] not in ORDER_KINDS]
    if not actions:
        return None
    name = info.bot or "greedy"
    rng = random.Random(f"{game.id}/{cur.version}")  # any choice will do: the log records it
    action = choices.command(bots.policy(game.ruleset, name)(rs.view(game.rules, seat), actions, rng, True)
                             or actions[0])
    try:
        produced = rs.decide(game.rules, seat, rs.parse_command(action), api.games.chance_key(game))
    except RuleError:
        return None
    at = api.now()
    meta = {**metadata(at, seat, None, action), "bot": name}
    return outcome(api, game, rs, [(e, meta) for e in produced], at)


def _unrecorded_vacations(api: Api, game: Game, due: list[object], now: datetime) -> Decision | None:
    """A ``ClockPaused`` for each awaited player on a vacation the game has not recorded."""
    seats = {s for c in due for s in command_seats(game, c) if game.seat_status(s) == "playing"}
    by_player = {uuid.UUID(info.player_id): s for s in seats if (info := game.seats[s]) is not None}
    if not by_player:
        return None
    at = iso(now)
    events = []
    for pid, (start, until) in players.vacations(api.db, list(by_player), now).items():
        if any(p.player_id == str(pid) and moment(p.start) == start for p in game.pauses):
            continue
        events.append(NewEvent("ClockPaused", {"seat": by_player[pid], "player_id": str(pid), "from": iso(start),
                                               "until": iso(until)}, metadata(at, None, str(pid), {"type": "Vacation"})))
    return Decision(folded(game, events, uuid.UUID(game.id)), events) if events else None


def _system_commands(api: Api, game: Game, due: list[object], count: list[int]) -> Decision | None:
    rs = rules.get(game.ruleset)
    key = api.games.chance_key(game)
    at = api.now()
    state, produced = game.rules, []
    for command in due:  # several only in an initial peek: one per seat
        try:
            events = rs.decide(state, None, command, key)
        except RuleError:
            continue  # resolved by an earlier one of them
        meta = metadata(at, None, None, {"type": type(command).__name__, **codec.to_json(command)})
        for e in events:
            state = rs.evolve(state, e)
            produced.append((e, meta))
    if not produced:
        return None
    count[0] = len({id(meta) for _, meta in produced})
    # whose turns timed out: their players hear of it (not a seat that resigned)
    timed_out = tuple(sorted({c.seat for c in due if isinstance(c, TurnTimedOut) and game.seat_status(c.seat) == "playing"}))
    return replace(outcome(api, game, rs, produced, at), timed_out=timed_out)
