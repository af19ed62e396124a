"""A game's clock (docs/rules/README.md): its own time control, vacation pauses, automatic seats.

Each wait (a turn, the seats of an initial peek, a final window) starts at an event's
``at`` (``service.model.game.advance``). A system command of the ruleset falls due when
the seats it names have had the game's ``turn_seconds`` (``final_window_seconds`` for a
final window) of clock time since then, where the time a seat's player spends on vacation
(a ``ClockPaused`` interval of the game's log) does not count. A seat played by the server
(resigned, or replaced by a bot) waits for nobody: its commands fall due at once.

The game holds its time control and pauses as values (``service.model.game``); this module
reads a game, never the other way round. Everything here is computed from the game's events
alone, so the audit replays it exactly. Nothing here does I/O.
"""
from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from domain import rules
from domain.messages import FinalWindowExpired, TurnTimedOut
from service.model.caches import per_object
from service.model.game import Game, iso, moment

#: seats the server plays: their waits fall due at once
AUTOMATIC = frozenset({"resigned", "bot"})


def run_out(since: datetime, seconds: float, pauses: Iterable[tuple[datetime, datetime]]) -> datetime:
    """When ``seconds`` of running clock have passed since ``since``, the clock standing
    still inside every pause interval."""
    t, left = since, timedelta(seconds=seconds)
    for start, until in sorted(pauses):
        if until <= t:
            continue
        if start > t:
            if start - t >= left:
                break
            left -= start - t
        t = max(t, until)
    return t + left


def command_seats(game: Game, command: Any) -> tuple[int, ...]:
    """The seats whose clock a system command waits on: a turn's seat, or every seat a
    final window still waits for."""
    if isinstance(command, TurnTimedOut):
        return (command.seat,)
    if game.rules is None:
        return ()
    return tuple(rules.get(game.ruleset).awaiting(game.rules))


def command_due(game: Game, command: Any) -> datetime | None:
    """When the service sends ``command`` of the game's current wait (None: never, no clock)."""
    d = game.deadline
    if d is None:
        return None
    seats = command_seats(game, command)
    since = moment(d.since)
    if seats and all(game.seat_status(s) in AUTOMATIC for s in seats):
        return since
    tc = game.time_control
    if tc is None:
        return None
    seconds = tc.final_window_seconds if isinstance(command, FinalWindowExpired) else tc.turn_seconds
    humans = {s for s in seats if game.seat_status(s) not in AUTOMATIC}
    paused = [(moment(p.start), moment(p.until)) for p in game.pauses if p.seat in humans]
    return run_out(since, seconds, paused)


def due_commands(game: Game) -> list[tuple[Any, datetime | None]]:
    """Every system command of the current wait with the moment it falls due."""
    d = game.deadline
    return [] if d is None else [(c, command_due(game, c)) for c in d.commands]


def bots_awaited(game: Game) -> tuple[int, ...]:
    """Awaited seats that a server bot plays (they move at once, instead of timing out)."""
    if game.rules is None or game.status != "active" or not any(s and s.status == "bot" for s in game.seats):
        return ()
    return tuple(s for s in rules.get(game.ruleset).awaiting(game.rules) if game.seat_status(s) == "bot")


@per_object
def next_due(game: Game) -> datetime | None:
    """The earliest moment the server has something to do in this game (the sweeper's index)."""
    if game.status != "active":
        return None
    if bots_awaited(game):
        return moment(game.deadline.since if game.deadline else game.updated_at)
    times = [at for _, at in due_commands(game) if at is not None]
    return min(times) if times else None


def seat_deadlines(game: Game) -> list[dict[str, Any]]:
    """Each awaited seat's deadline, as every summary, list and view shows it."""
    out: dict[int, datetime | None] = {}
    for command, at in due_commands(game):
        for seat in command_seats(game, command):
            prev = out.get(seat)
            out[seat] = at if prev is None else prev if at is None else min(prev, at)
    return [{"seat": s, "at": iso(at) if at is not None else None,
             "automatic": game.seat_status(s) in AUTOMATIC,
             "vacation_until": vacation_until(game, s)} for s, at in sorted(out.items())]


def vacation_until(game: Game, seat: int) -> str | None:
    """The end of the latest vacation recorded for the seat (compare it with the time now)."""
    ends = [p.until for p in game.pauses if p.seat == seat]
    return max(ends, key=moment) if ends else None



def server_moves(game: Game) -> bool:
    """The server has a move to make now: an awaited seat is resigned or a bot's."""
    if not any(s is not None and s.status != "playing" for s in game.seats):
        return False
    due = next_due(game)
    return due is not None and due <= moment(game.updated_at)
