"""Playing: a seat's command, and the server's own moves when a deadline passes.

Each use case reads *load → decide → append → present*: :meth:`GameRepository.update`
loads the game and appends what :func:`decide_command` decided on it (retrying on a stale
copy), and :func:`command_response` presents the result to the seat that sent it.

The server's own moves (:func:`play`), so that nobody can stall a game by not moving
(docs/rules/README.md):

* a seat replaced by a bot (after a vote) is played by the bot through the same rules, as
  the seat's ordinary commands with the bot named in their metadata (``"bot"``);
* a wait that has timed out on the game's own clock, or that awaits a resigned seat,
  gets the ruleset's system commands (``TurnTimedOut``, ``FinalWindowExpired``) with a
  null actor;
* before a seat times out, the player's vacation is looked at: one the game has not
  recorded yet is recorded (``ClockPaused``) and the seat's clock stands still.

Every move is an ordinary, version-checked append: a player who moves at the last moment
wins the race, and the game is looked at again. A command that leaves the game awaiting a
seat the server plays is followed by that seat's moves at once.
"""
from __future__ import annotations

import random
import uuid
from dataclasses import replace
from datetime import datetime
from typing import Any

from domain import bots, choices, codec, rules
from domain.errors import RuleError
from domain.messages import SYSTEM_COMMANDS, TurnTimedOut
from domain.orders import ORDER_KINDS
from domain.ruleset import Ruleset
from events import players
from events.store import NewEvent
from service.adapters.repository import Appended, Current, Decision, Idempotency, folded
from service.model.clock import bots_awaited, command_seats, due_commands, server_moves
from service.model.game import Game, advance, iso, metadata, moment
from service.model.problems import Problem
from service.model.view_patch import view_patch
from service.model.views import present_record, view
from service.usecases.dependencies import Dependencies

_RULE_SLUGS = {"not_your_turn": "not-your-turn", "wrong_phase": "wrong-phase", "no_window": "no-window",
               "stale_window": "stale-window", "locked": "locked", "invalid": "invalid-command"}


def rule_problem(exc: RuleError, legal: list[Any] | None) -> Problem:
    """The problem+json of a ruleset's refusal (409 with the legal actions, or 422)."""
    slug = _RULE_SLUGS.get(exc.code) or ("invalid-command" if exc.status == 422 else "illegal-command")
    status = exc.status if exc.status in (409, 422) else 409
    extra: dict[str, Any] = {"code": exc.code}
    if status == 409:
        extra["legal_actions"] = legal or []
    return Problem(slug, exc.detail, status=status, **extra)


def run_command(deps: Dependencies, gid: uuid.UUID, player: str, body: Any, if_match: int | None,
                idem_key: str | None, path: str, answer: str = "view") -> dict[str, Any]:
    """A seat's command: load → decide → append → present. ``answer`` says what the answer
    carries of the seat's view (:func:`command_response`)."""
    idem = Idempotency.of_request(player, idem_key, "POST", path, body)
    decided: list[Current] = []  # the game the command was decided on (the last try's)

    def decide(cur: Current) -> Decision:
        decided[:] = [cur]
        return decide_command(deps, cur, player, body, if_match, idem_key)

    appended = deps.games.update(gid, decide, idem, optimistic=True)
    assert appended is not None
    out = command_response(deps, gid, player, appended, answer, decided[0] if decided else None)
    if appended.current is not None and server_moves(appended.current.game):
        play(deps, gid)  # a seat the server plays is awaited now: its move follows
    return out


def decide_command(deps: Dependencies, cur: Current, player: str, body: Any, if_match: int | None,
                   idem_key: str | None) -> Decision:
    """The events of ``player``'s command on the game at ``cur`` (a Problem if it is refused)."""
    game = cur.game
    seat = game.seat_of(player)
    if seat is None:
        raise Problem("forbidden", "you have no seat in this game; spectators cannot send commands")
    if game.seat_status(seat) != "playing":
        raise Problem("seat-not-playing", f"your seat is {game.seat_status(seat)}: the server plays it")
    rs = rules.get(game.ruleset)
    if isinstance(body, dict) and body.get("type") in SYSTEM_COMMANDS:
        raise Problem("invalid-command", f"{body['type']} is a system command: the server sends it when a "
                      "deadline passes; send one of your legal_actions", code="invalid")
    try:  # a malformed command is refused as such whatever the version (422 before 412)
        command = rs.parse_command(body)
    except RuleError as exc:
        raise rule_problem(exc, None) from exc
    if if_match is not None and if_match != cur.version:
        raise Problem("precondition-failed", f"the game is at version {cur.version}, not {if_match}",
                      version=cur.version)
    status = game.status
    if status != "active":
        raise Problem("game-not-active", f"the game is {status}")
    try:
        produced = rs.decide(game.rules, seat, command, deps.games.chance_key(game))
    except RuleError as exc:
        legal = rs.legal_actions(game.rules, seat) if exc.status != 422 else None
        raise rule_problem(exc, legal) from exc
    at = deps.now()
    # the command as the log keeps it: an entry of legal_actions sent as it is leaves its choices behind
    meta = metadata(at, seat, player, choices.command(body), idem_key)
    return outcome(deps, game, rs, [(e, meta) for e in produced], at)


def outcome(deps: Dependencies, game: Game, rs: Ruleset, produced: list[tuple[Any, dict[str, Any]]],
            at: str) -> Decision:
    """The game after the ruleset's events (each with its command's metadata), folded one by
    one as a cold load would fold them, and the events to append: the server's secret is
    revealed with the last event of a game."""
    events = [NewEvent(type(e).__name__, codec.to_json(e), meta) for e, meta in produced]
    new = game
    for e, meta in produced:
        new = advance(new, rs, rs.evolve(new.rules, e), at, meta, e)
    if rs.is_terminal(new.rules) and game.secret is None:
        secret = deps.games.secret(uuid.UUID(game.id))
        events.append(NewEvent("SecretRevealed", {"secret": secret.hex()}, metadata(at, None, None)))
        new = replace(new, secret=secret.hex())
    return Decision(new, events, [e for e, _ in produced])


def command_response(deps: Dependencies, gid: uuid.UUID, player: str, appended: Appended, answer: str = "view",
                     before: Current | None = None) -> dict[str, Any]:
    """What the seat that sent a command sees of it: its seat, its events, and its view after
    them (``answer="view"``), or a JSON Patch to it from the seat's view of ``before``, the
    game the command was decided on (``"patch"``; the whole view when a replayed duplicate
    has no ``before``), or nothing of it (``"none"``). A replayed duplicate is rebuilt from
    the stored events, exactly as first answered."""
    if appended.current is None:
        game = deps.games.load_at(gid, appended.last)
        records: Any = deps.store.read(gid, appended.first - 1, upto=appended.last)
        head = records[-1].hash if records else b"\0" * 32
    else:
        game, records, head = appended.current.game, appended.records, appended.current.head
    seat = game.seat_of(player)
    if seat is None:
        raise Problem("forbidden", "you have no seat in this game")
    rs = rules.get(game.ruleset)
    shown = [p for p in (present_record(rs, r, seat) for r in records) if p is not None]
    checkpoint = appended.checkpoint or deps.games.transparency.game_checkpoint(gid, appended.last)
    out = {"version": appended.last, "chain_head": head.hex(), "checkpoint": checkpoint, "events": shown,
           "seat": seat}
    if answer == "none":
        return out
    new = view(game, appended.last, head, seat)
    if answer == "patch" and before is not None:
        out["view_patch"] = view_patch(view(before.game, before.version, before.head, seat), new)
    else:
        out["view"] = new
    return out


# ------------------------------------------------------------------ the server's own moves

MAX_MOVES = 200  # per call: a game of bots alone finishes over several sweeps


def play(deps: Dependencies, gid: uuid.UUID, limit: int = MAX_MOVES) -> int:
    """Every move the server has to make in the game now; returns the commands sent."""
    sent = 0
    for _ in range(limit):
        count = [0]
        if deps.games.update(gid, lambda cur: _decide(deps, cur, count)) is None:
            break
        sent += count[0]
    return sent


def _decide(deps: Dependencies, cur: Current, count: list[int]) -> Decision | None:
    game = cur.game
    if game.status != "active":
        return None
    for seat in bots_awaited(game):
        moved = _bot_move(deps, cur, seat)
        if moved is not None:
            count[0] = 1
            return moved
    now = deps.clock()
    due = [c for c, at in due_commands(game) if at is not None and at <= now]
    if not due:
        return None
    paused = _unrecorded_vacations(deps, game, due, now)
    if paused is not None:
        return paused
    return _system_commands(deps, game, due, count)


def _bot_move(deps: Dependencies, cur: Current, seat: int) -> Decision | None:
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
        produced = rs.decide(game.rules, seat, rs.parse_command(action), deps.games.chance_key(game))
    except RuleError:
        return None
    at = deps.now()
    meta = {**metadata(at, seat, None, action), "bot": name}
    return outcome(deps, game, rs, [(e, meta) for e in produced], at)


def _unrecorded_vacations(deps: Dependencies, game: Game, due: list[object], now: datetime) -> Decision | None:
    """A ``ClockPaused`` for each awaited player on a vacation the game has not recorded."""
    seats = {s for c in due for s in command_seats(game, c) if game.seat_status(s) == "playing"}
    by_player = {uuid.UUID(info.player_id): s for s in seats if (info := game.seats[s]) is not None}
    if not by_player:
        return None
    at = iso(now)
    events = []
    for pid, (start, until) in players.vacations(deps.db, list(by_player), now).items():
        if any(p.player_id == str(pid) and moment(p.start) == start for p in game.pauses):
            continue
        events.append(NewEvent("ClockPaused", {"seat": by_player[pid], "player_id": str(pid), "from": iso(start),
                                               "until": iso(until)}, metadata(at, None, str(pid), {"type": "Vacation"})))
    return Decision(folded(game, events, uuid.UUID(game.id)), events) if events else None


def _system_commands(deps: Dependencies, game: Game, due: list[object], count: list[int]) -> Decision | None:
    rs = rules.get(game.ruleset)
    key = deps.games.chance_key(game)
    at = deps.now()
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
    return replace(outcome(deps, game, rs, produced, at), timed_out=timed_out)
