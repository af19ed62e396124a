"""4 Cartas: ``decide(state, seat, command, key) -> events``, the dispatch of every command.

The turn commands are in :mod:`domain.rules.cuatro_cartas.turn`, the round flow they lead to
in :mod:`domain.rules.cuatro_cartas.flow`, the matches (blind claims) and the final window in
:mod:`domain.rules.cuatro_cartas.claims`.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain import orders
from domain.errors import InvalidCommand, WrongPhase
from domain.messages import Draw, FinalWindowExpired, Pass, SkipTurn, TimeoutApplied, TurnTimedOut
from domain.orders import CancelOrder, PlaceOrder
from domain.rules.cuatro_cartas import claims, flow, turn
from domain.rules.cuatro_cartas.model import (
    ChoosePeek, Close, DiscardDrawn, Look, Match, MatchGroup, MatchRival, NoSwap, Replace, SkipPower, State, Swap,
)

_Handler = Callable[[flow.Emitter, "int | None", Any], None]

_HANDLERS: dict[type, _Handler] = {
    Close: lambda em, seat, c: turn.close(em, seat),
    Draw: lambda em, seat, c: turn.draw(em, seat, c.source),
    SkipTurn: lambda em, seat, c: turn.skip_turn(em, seat),
    DiscardDrawn: lambda em, seat, c: turn.discard_drawn(em, seat, c.close),
    Replace: lambda em, seat, c: turn.replace_card(em, seat, c.slot, c.close),
    Look: lambda em, seat, c: turn.look(em, seat, c.targets, c.close),
    SkipPower: lambda em, seat, c: turn.skip_power(em, seat, c.close),
    Swap: lambda em, seat, c: turn.swap(em, seat, c.a, c.b, c.close),
    NoSwap: lambda em, seat, c: turn.no_swap(em, seat, c.close),
    Match: claims.claim,
    MatchRival: claims.claim,
    MatchGroup: claims.claim,
    PlaceOrder: claims.place_order,
    CancelOrder: lambda em, seat, c: orders.cancel(em, turn.player(seat), c),
    Pass: lambda em, seat, c: claims.pass_final(em, seat, c.window_id),
    FinalWindowExpired: lambda em, seat, c: claims.final_window_expired(em, seat, c.window_id),
    ChoosePeek: lambda em, seat, c: turn.choose_peek(em, turn.player(seat), c.slots),
    TurnTimedOut: lambda em, seat, c: _timed_out(em, seat, c),
}


def _timed_out(em: flow.Emitter, seat: int | None, c: TurnTimedOut) -> None:
    """The automatic action of a deadline, sent by the service (seat None)."""
    s = em.s
    if seat is not None:
        raise InvalidCommand("TurnTimedOut is a system command")
    if s.phase == "INITIAL_PEEK":
        if c.turn_no != 0 or not 0 <= c.seat < s.players or c.seat in s.peeked:
            raise WrongPhase("this seat has no initial peek pending")
        em.emit(TimeoutApplied(c.seat, 0, "peek C and D"))
        turn.choose_peek(em, c.seat, ("C", "D"), automatic=True)
        return
    if s.phase not in flow.TURN_PHASES or c.seat != s.turn or c.turn_no != s.turn_no:
        raise WrongPhase("this turn is not the current one")
    em.emit(TimeoutApplied(c.seat, c.turn_no, f"automatic play in {s.step}"))
    turn.timeout_turn(em)


def decide(state: State, seat: int | None, command: Any, key: bytes) -> tuple[Any, ...]:
    if state.phase == "GAME_OVER":
        raise WrongPhase("the game is over")
    handler = _HANDLERS.get(type(command))
    if handler is None:
        raise InvalidCommand(f"unknown command {type(command).__name__}")
    if seat is not None and not 0 <= seat < state.players:
        raise InvalidCommand("no such seat")
    em = claims.Emitter(state, key)
    handler(em, seat, command)
    return tuple(em.events)
