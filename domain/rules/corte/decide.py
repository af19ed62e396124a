"""Corte: ``decide(state, seat, command, key) -> events``, the dispatch of every command.

The in-turn commands are handled in :mod:`domain.rules.corte.turn`, the snaps, the final
window and the system commands in :mod:`domain.rules.corte.claims`.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.errors import InvalidCommand, RuleError, WrongPhase
from domain.messages import FinalWindowExpired, TurnTimedOut
from domain.rules.corte.claims import CLAIM_HANDLERS, Out, expired, timed_out
from domain.rules.corte.model import GAME_OVER, State
from domain.rules.corte.turn import TURN_HANDLERS

_HANDLERS: dict[type, Callable[[Out, int, Any], None]] = {**TURN_HANDLERS, **CLAIM_HANDLERS}


def decide(state: State, seat: int | None, command: Any, key: bytes) -> tuple[Any, ...]:
    if state is None:
        raise WrongPhase("the game has not started")
    if state.phase == GAME_OVER:
        raise WrongPhase("the game is over")
    out = Out(state, key)
    if seat is None:
        if isinstance(command, TurnTimedOut):
            timed_out(out, command)
        elif isinstance(command, FinalWindowExpired):
            expired(out, command)
        else:
            raise InvalidCommand("only system commands come without a seat")
        return tuple(out.events)
    handler = _HANDLERS.get(type(command))
    if handler is None:
        raise RuleError("system commands come from the service", code="forbidden", status=403) \
            if type(command) in (TurnTimedOut, FinalWindowExpired) else InvalidCommand("unknown command")
    if not 0 <= seat < state.players:  # turn.seat_ok, inline: every command asks it
        raise InvalidCommand(f"seat {seat} is not a seat of this game")
    handler(out, seat, command)
    return tuple(out.events)
