"""Playing: a seat's command and the server's own when a deadline passes.

Each use case reads *load → decide → append → present*: :meth:`GameRepository.update`
loads the game and appends what :func:`decide_command` decided on it (retrying on a stale
copy), and :func:`command_response` presents the result to the seat that sent it.
"""
from __future__ import annotations

import uuid
from dataclasses import replace
from typing import Any

from domain import choices, codec, rules
from domain.messages import SYSTEM_COMMANDS
from domain.errors import RuleError
from domain.ruleset import Ruleset
from events.store import NewEvent
from service.usecases.dependencies import Api
from service.model.game import Game, advance, metadata
from service.usecases.lobby import request_hash
from service.model.views import present_record, view
from service.model.problems import Problem
from service.adapters.repository import Appended, Current, Decision, Idempotency

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


def run_command(api: Api, gid: uuid.UUID, player: str, body: Any, if_match: int | None,
                idem_key: str | None, path: str) -> dict[str, Any]:
    """A seat's command: load → decide → append → present."""
    idem = Idempotency.scoped(player, idem_key, request_hash("POST", path, player, body)) if idem_key else None
    appended = api.games.update(gid, lambda cur: decide_command(api, cur, player, body, if_match, idem_key),
                                idem, optimistic=True)
    assert appended is not None
    out = command_response(api, gid, player, appended)
    if appended.current is not None and appended.current.game.server_moves():
        from service.usecases.autoplay import play  # a seat the server plays is awaited now: its move follows

        play(api, gid)
    return out


def decide_command(api: Api, cur: Current, player: str, body: Any, if_match: int | None,
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
        produced = rs.decide(game.rules, seat, command, api.games.chance_key(game))
    except RuleError as exc:
        legal = rs.legal_actions(game.rules, seat) if exc.status != 422 else None
        raise rule_problem(exc, legal) from exc
    at = api.now()
    # the command as the log keeps it: an entry of legal_actions sent as it is leaves its choices behind
    meta = metadata(at, seat, player, choices.command(body), idem_key)
    return outcome(api, game, rs, [(e, meta) for e in produced], at)


def outcome(api: Api, game: Game, rs: Ruleset, produced: list[tuple[Any, dict[str, Any]]], at: str) -> Decision:
    """The game after the ruleset's events (each with its command's metadata), folded one by
    one as a cold load would fold them, and the events to append: the server's secret is
    revealed with the last event of a game."""
    events = [NewEvent(type(e).__name__, codec.to_json(e), meta) for e, meta in produced]
    new = game
    for e, meta in produced:
        new = advance(new, rs, rs.evolve(new.rules, e), at, meta, e)
    if rs.is_terminal(new.rules) and game.secret is None:
        secret = api.games.secret(uuid.UUID(game.id))
        events.append(NewEvent("SecretRevealed", {"secret": secret.hex()}, metadata(at, None, None)))
        new = replace(new, secret=secret.hex())
    return Decision(new, events, [e for e, _ in produced])


def command_response(api: Api, gid: uuid.UUID, player: str, appended: Appended) -> dict[str, Any]:
    """What the seat that sent a command sees of it: its events and its view after them. A
    replayed duplicate is rebuilt from the stored events, exactly as first answered."""
    if appended.current is None:
        game = api.games.load_at(gid, appended.last)
        records: Any = api.store.read(gid, appended.first - 1, upto=appended.last)
        head = records[-1].hash if records else b"\0" * 32
    else:
        game, records, head = appended.current.game, appended.records, appended.current.head
    seat = game.seat_of(player)
    if seat is None:
        raise Problem("forbidden", "you have no seat in this game")
    rs = rules.get(game.ruleset)
    shown = [p for p in (present_record(rs, r, seat) for r in records) if p is not None]
    return {"version": appended.last, "chain_head": head.hex(), "events": shown,
            "view": view(game, appended.last, head, seat, api.timeouts)}
