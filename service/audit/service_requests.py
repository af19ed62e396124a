"""The ``lifecycle`` check: the service's own events, replayed with the service's own code.

The log is folded as the service folds it (``service.model.game.evolve``), one request at
a time (the events that share its metadata), and each request is judged on the game as
it was just before:

* a system command (``TurnTimedOut``, ``FinalWindowExpired``, null actor) is one of the
  current wait's and was sent no earlier than it fell due on the game's own clock (its
  time control, the vacations its log records, at once for a seat the server plays);
* a seat's command came from the player in that seat while they played it, a bot's
  (metadata ``bot``) only while a vote had given the seat to the bot;
* a resignation, departure, cancellation, invitation, vote or return to a seat produces
  exactly what ``service.model.seating`` decides on that request;
* a vacation's pause names the seat's player; the secret is revealed only once the game
  is over.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain import rules
from domain.errors import RuleError
from service.model import seating
from service.model.problems import Problem
from service.audit.log import GameLog
from service.audit.report import Checker, Report
from service.model.clock import due_commands, moment
from service.model.game import Game, evolve

SYSTEM = frozenset({"TurnTimedOut", "FinalWindowExpired"})
ENDED = frozenset({"finished", "aborted", "cancelled"})


def _groups(events: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    out: list[list[dict[str, Any]]] = []
    for e in events:
        if out and out[-1][0].get("metadata") == e.get("metadata"):
            out[-1].append(e)
        else:
            out.append([e])
    return out


def _system(c: Checker, game: Game, command: Mapping[str, Any], at: str, v: int) -> None:
    try:
        sent = rules.get(game.ruleset).parse_command(dict(command))
    except (RuleError, KeyError) as exc:
        c.fail(f"the system command cannot be read: {exc}", v)
        return
    due = dict(due_commands(game))
    if sent not in due:
        c.fail(f"{command.get('type')} is not a deadline of the wait at this point", v)
    elif due[sent] is None:
        c.fail("a system command in a game without a clock, for a seat its player plays", v)
    elif moment(at) < due[sent]:
        c.fail(f"{command.get('type')} was sent at {at}, before its deadline {due[sent].isoformat()}", v)


def _seat_command(c: Checker, game: Game, meta: Mapping[str, Any], v: int) -> None:
    seat = meta.get("actor")
    if not isinstance(seat, int) or not 0 <= seat < len(game.seats) or game.seats[seat] is None:
        c.fail(f"a command from seat {seat!r}, which nobody holds", v)
        return
    info = game.seats[seat]
    assert info is not None
    if meta.get("bot") is not None:
        if info.status != "bot":
            c.fail(f"a bot played seat {seat}, which no vote had given to a bot", v)
    elif info.status != "playing" or meta.get("player") != info.player_id:
        c.fail(f"a command for seat {seat} from someone who did not play it then", v)


def _service_request(c: Checker, game: Game, group: list[dict[str, Any]], meta: Mapping[str, Any], v: int) -> None:
    command = meta.get("command") or {}
    try:
        decided = seating.decide(game, str(meta.get("player")), command)
    except Problem as r:
        c.fail(f"the service refuses this {command.get('type')} request: {r.detail}", v)
        return
    stored = [(e["type"], e["data"]) for e in group]
    if decided != stored:
        at = next((int(e["version"]) for e, d in zip(group, decided) if (e["type"], e["data"]) != d),
                  int(group[min(len(group), len(decided)) - 1]["version"]))
        c.fail(f"{command.get('type')} made {[t for t, _ in stored]}, the service decides "
               f"{[t for t, _ in decided]} on it", at)


def _judge(c: Checker, game: Game, group: list[dict[str, Any]]) -> None:
    meta: Mapping[str, Any] = group[0].get("metadata") or {}
    v = int(group[0]["version"])
    command = meta.get("command") if isinstance(meta.get("command"), Mapping) else {}
    assert isinstance(command, Mapping)
    kinds = {e["type"] for e in group}
    if kinds == {"SecretRevealed"}:
        if game.status not in ENDED:
            c.fail(f"the secret is revealed while the game is {game.status}", v)
    elif command.get("type") in seating.COMMANDS:
        _service_request(c, game, group, meta, v)
    elif kinds & {"ClockPaused", "ClockResumed"}:
        for e in group:
            seat = e["data"].get("seat")
            info = game.seats[seat] if isinstance(seat, int) and 0 <= seat < len(game.seats) else None
            if info is None or info.player_id != e["data"].get("player_id"):
                c.fail("a vacation recorded for a seat its player does not hold", int(e["version"]))
    elif game.rules is not None and not kinds & {"SeatTaken", "RematchOpened"}:
        if meta.get("actor") is None and command.get("type") in SYSTEM:
            _system(c, game, command, str(meta.get("at")), v)
        elif meta.get("actor") is not None:
            _seat_command(c, game, meta, v)


def check_lifecycle(log: GameLog, report: Report) -> None:
    """See the module docstring."""
    c = Checker(report, "lifecycle")
    game: Game | None = None
    game_id = ""  # the fold needs none: no check here reads the game's id
    for group in _groups(log.events):
        if game is not None:
            _judge(c, game, group)
        try:
            for e in group:
                game = evolve(game, e["type"], e["data"], e.get("metadata") or {}, game_id)
        except Exception as exc:  # a tampered event may not even fold
            c.fail(f"the event cannot be folded: {type(exc).__name__}: {exc}", int(e["version"]))
            break
        report.checked["requests judged"] = report.checked.get("requests judged", 0) + 1
    c.done()
