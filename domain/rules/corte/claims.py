"""Corte: snaps, standing orders, the final window's Pass, and the system commands.

A snap is a blind claim: every public check runs (and may refuse) in :func:`check_claim`
before the claimed card is read in :func:`judge`, and a wrong claim is accepted and
penalised, never refused. A standing order (:mod:`domain.orders`) is placed on the same
checks but the window's, and when it fires it goes through the same two functions.
"""
from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from domain import orders
from domain.cards import rank
from domain.errors import (
    InvalidCommand,
    Locked,
    NoWindow,
    WrongPhase,
)
from domain.messages import (
    FinalWindowExpired,
    Pass,
    Passed,
    TimeoutApplied,
    TurnTimedOut,
)
from domain.rules.corte import view as corte_view
from domain.rules.corte.events import (
    CardGiven,
    ClaimResolved,
    FinalWindowEnded,
    KingKept,
    PenaltyCardDealt,
    PowerSkipped,
    TurnSkipped,
    WindowWon,
)
from domain.orders import CancelOrder, PlaceOrder
from domain.rules.corte.flow import Out as FlowOut
from domain.rules.corte.flow import (
    end_round,
    end_turn,
    final_window_done,
    finish_turn,
    refill,
)
from domain.rules.corte.model import (
    AWAIT_ACTION,
    FINAL_LAP,
    FINAL_WINDOW,
    GAME_OVER,
    HOLDING,
    INITIAL_PEEK,
    KING_DECIDE,
    ORDER_CLAIMS,
    POWER,
    TURNS,
    Draw,
    SnapOwn,
    SnapRival,
    State,
)
from domain.rules.corte.turn import deliver_peek, discard, draw, rival_seat, seat_ok
from domain.windows import occupied_slot, parse_penalty_to, require_window


class Out(FlowOut):
    """The emitter of ``decide``: it also fires the standing orders of a window as it opens."""

    __slots__ = ()

    def window_opened(self, first: int) -> None:
        orders.fire(self, first, self.s.opts.direction, check_claim, judge)


# ---------------------------------------------------------------- snaps


def _claim_window(s: State, seat: int, window_id: int) -> None:
    if s.phase == GAME_OVER:
        raise WrongPhase("the game is over")
    if s.phase == INITIAL_PEEK:
        raise NoWindow("there are no windows during the initial peek")
    require_window(s.window, window_id, in_power=s.step in (POWER, KING_DECIDE), passed_by=seat,
                   reject_won=s.opts.late_snap == "reject")
    if seat == s.locked():
        raise Locked("the caller may not snap")


# What judge needs of a snap: (kind, target, give_slot, penalty_to, (penalty slot, is new)).
Judged = tuple[str, tuple[int, str], "str | None", str, tuple[str, bool]]


def _own_target(s: State, seat: int, c: SnapOwn) -> Judged:
    lay = s.layouts[seat]
    occupied_slot(lay, c.slot)
    pen = parse_penalty_to(lay, c.penalty_to)
    return "SnapOwn", (seat, c.slot), None, c.penalty_to, pen


def _rival_target(s: State, seat: int, c: SnapRival) -> Judged:
    rival_seat(s, seat, c.rival)
    if c.rival == s.locked():
        raise Locked("the caller's grid is locked")
    occupied_slot(s.layouts[c.rival], c.rival_slot, "rival_slot")
    lay = s.layouts[seat]
    if lay.has_cards():
        if c.give_slot is None:
            raise InvalidCommand("give_slot must name one of your occupied slots")
        occupied_slot(lay, c.give_slot, "give_slot")
    elif c.give_slot is not None:
        raise InvalidCommand("you have no card to give: omit give_slot")
    elif s.opts.zero_card_rival_snap == "forbid":
        raise InvalidCommand("a player with no cards may not snap a rival (corte.zero_card_rival_snap = forbid)")
    pen = parse_penalty_to(lay, c.penalty_to)
    return "SnapRival", (c.rival, c.rival_slot), c.give_slot, c.penalty_to, pen


_TARGETS: dict[type, Callable[[State, int, Any], Judged]] = {SnapOwn: _own_target, SnapRival: _rival_target}


def check_claim(s: State, seat: int, c: SnapOwn | SnapRival) -> Judged:
    """Every public check of a snap, in the order a refusal is chosen; then what judge needs."""
    _claim_window(s, seat, c.window_id)
    return _TARGETS[type(c)](s, seat, c)


def _snap(out: Out, seat: int, c: SnapOwn | SnapRival) -> None:
    judge(out, seat, check_claim(out.s, seat, c))


def check_order(s: State, seat: int, c: SnapOwn | SnapRival) -> None:
    """The public checks of a standing order for the snap ``c``: the snap's own but the window's."""
    if s.phase not in (INITIAL_PEEK, TURNS, FINAL_LAP):
        raise WrongPhase("orders are for the windows still to open in this round")
    if seat == s.locked():
        raise Locked("the caller may not snap")
    _TARGETS[type(c)](s, seat, c)


_APPLIED = ("late_snap", "failed_snap_reveal", "penalty_card_visible_to_owner", "zero_card_rival_snap")


@lru_cache(maxsize=64)  # a game's options never change: picked out once, not on every claim
def _applied(options: tuple[tuple[str, Any], ...]) -> tuple[tuple[str, Any], ...]:
    return tuple(o for o in options if o[0] in _APPLIED)


def judge(out: Out, seat: int, judged: Judged) -> None:
    """Every public check passed (:func:`check_claim`): only now read the card, and apply the outcome."""
    kind, target, give_slot, penalty_to, pen = judged
    s = out.s
    w = s.window
    assert w is not None
    owner, slot = target
    card = s.layouts[owner].card(slot)
    assert card is not None
    o = s.opts
    if w.won_by is not None:
        outcome, why = "late", f"window {w.id} was already won by seat {w.won_by}, so the snap is late"
    elif rank(card) == rank(w.card):
        outcome, why = "correct", f"the card at seat {owner} {slot} has the rank of the {w.card}"
    else:
        outcome, why = "wrong", f"the card at seat {owner} {slot} does not have the rank of the {w.card}"
    tail = "" if outcome == "correct" else "; it is flipped and stays, and the snapper takes a penalty card"
    applied = dict(_applied(s.options))
    out.emit(ClaimResolved(kind, seat, w.id, w.card, (target,), outcome, (card,), o.failed_snap_reveal, give_slot,
                           penalty_to, "RULES §6.4", applied, f"Seat {seat}'s {kind}: {why}{tail}."))
    if outcome == "correct":
        out.emit(WindowWon(w.id, seat))
        if kind == "SnapRival":
            _give(out, seat, give_slot, owner, slot)
    elif refill(out, seat, "penalty"):
        top = out.s.stock[0]
        out.emit(PenaltyCardDealt(seat, pen[0], pen[1], top, o.penalty_visible))
    final_window_done(out)


def _give(out: Out, seat: int, give_slot: str | None, rival: int, rival_slot: str) -> None:
    """After a correct rival snap: fill the rival's hole (C11, C12)."""
    if give_slot is not None:
        card = out.s.layouts[seat].card(give_slot)
        out.emit(CardGiven(seat, give_slot, rival, rival_slot, "layout", card))
    elif out.s.opts.zero_card_rival_snap == "draw_then_give" and refill(out, seat, "give"):
        out.emit(CardGiven(seat, None, rival, rival_slot, "stock", out.s.stock[0]))


def _pass(out: Out, seat: int, c: Pass) -> None:
    s = out.s
    if s.phase != FINAL_WINDOW:
        raise WrongPhase("Pass is only for the final window")
    _claim_window(s, seat, c.window_id)
    if not corte_view.has_claim(s, seat):
        raise WrongPhase("you have no claim to pass on")
    out.emit(Passed(seat, c.window_id))
    final_window_done(out)


# ---------------------------------------------------------------- system commands


def timed_out(out: Out, c: TurnTimedOut) -> None:
    """The automatic action of a timed-out wait; never a call or a claim."""
    s = out.s
    seat_ok(s, c.seat, "seat")
    if s.phase == INITIAL_PEEK:
        if c.turn_no != 0 or c.seat in s.peeked:
            raise WrongPhase("stale deadline: this seat has chosen its peek")
        out.emit(TimeoutApplied(c.seat, 0, "peek C and D"))
        deliver_peek(out, c.seat, ("C", "D"), True)
        return
    if s.phase not in (TURNS, FINAL_LAP) or s.turn != c.seat or s.turn_no != c.turn_no:
        raise WrongPhase("stale deadline: that turn is over")
    seat = c.seat
    if s.step == AWAIT_ACTION:
        if not corte_view.can_draw(s) and s.opts.stock_exhausted == "reshuffle":
            out.emit(TimeoutApplied(seat, c.turn_no, "skip the turn (no card to draw)"))
            out.emit(TurnSkipped(seat, "no_card", s.turn_no))
            end_turn(out, seat)
            return
        out.emit(TimeoutApplied(seat, c.turn_no, "draw from the stock and discard it with no power"))
        draw(out, seat, Draw())
        if out.s.phase == GAME_OVER or out.s.step != HOLDING:
            return  # the empty stock ended the round (end_round)
    elif s.step == HOLDING:
        out.emit(TimeoutApplied(seat, c.turn_no, "discard the drawn card with no power"))
    elif s.step == POWER:
        assert s.power is not None
        out.emit(TimeoutApplied(seat, c.turn_no, "skip the power"))
        out.emit(PowerSkipped(seat, s.power, "timeout"))
        finish_turn(out, seat)
        return
    else:
        out.emit(TimeoutApplied(seat, c.turn_no, "keep (no King swap)"))
        out.emit(KingKept(seat))
        finish_turn(out, seat)
        return
    held = out.s.held
    assert held is not None
    discard(out, seat, held, None, False)


def expired(out: Out, c: FinalWindowExpired) -> None:
    s = out.s
    if s.phase != FINAL_WINDOW or s.window is None or s.window.id != c.window_id:
        raise WrongPhase("stale deadline: that final window is over")
    out.emit(FinalWindowEnded(c.window_id, "expired"))
    end_round(out, "call")


def _place(out: Out, seat: int, c: PlaceOrder) -> None:
    orders.place(out, seat, c, ORDER_CLAIMS, check_order)


CLAIM_HANDLERS: dict[type, Callable[[Any, int, Any], None]] = {
    SnapOwn: _snap, SnapRival: _snap, Pass: _pass, PlaceOrder: _place, CancelOrder: orders.cancel}
