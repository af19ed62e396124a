"""Corte: snaps, the final window's Pass, and the system commands (RULES §6.4, §2.6, §2.11).

A snap is a blind claim: every public check runs (and may refuse) before the claimed
card is read in :func:`_judge`, and a wrong claim is accepted and penalised, never refused.
"""
from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

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
from domain.rules import corte_view
from domain.rules.corte_events import (
    CardGiven,
    ClaimResolved,
    FinalWindowEnded,
    KingKept,
    PenaltyCardDealt,
    PowerSkipped,
    TurnSkipped,
    WindowWon,
)
from domain.rules.corte_flow import (
    Out,
    end_round,
    end_turn,
    final_window_done,
    finish_turn,
    refill,
)
from domain.rules.corte_model import (
    AWAIT_ACTION,
    FINAL_LAP,
    FINAL_WINDOW,
    GAME_OVER,
    HOLDING,
    INITIAL_PEEK,
    KING_DECIDE,
    POWER,
    TURNS,
    Draw,
    SnapOwn,
    SnapRival,
    State,
)
from domain.rules.corte_turn import deliver_peek, discard, draw, rival_seat, seat_ok
from domain.windows import occupied_slot, parse_penalty_to, require_window

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


def _snap_own(out: Out, seat: int, c: SnapOwn) -> None:
    s = out.s
    _claim_window(s, seat, c.window_id)
    lay = s.layouts[seat]
    occupied_slot(lay, c.slot)
    pen = parse_penalty_to(lay, c.penalty_to)
    _judge(out, seat, "SnapOwn", (seat, c.slot), None, c.penalty_to, pen)


def _snap_rival(out: Out, seat: int, c: SnapRival) -> None:
    s = out.s
    _claim_window(s, seat, c.window_id)
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
    _judge(out, seat, "SnapRival", (c.rival, c.rival_slot), c.give_slot, c.penalty_to, pen)


_APPLIED = ("late_snap", "failed_snap_reveal", "penalty_card_visible_to_owner", "zero_card_rival_snap")


@lru_cache(maxsize=64)  # a game's options never change: picked out once, not on every claim
def _applied(options: tuple[tuple[str, Any], ...]) -> tuple[tuple[str, Any], ...]:
    return tuple(o for o in options if o[0] in _APPLIED)


def _judge(out: Out, seat: int, kind: str, target: tuple[int, str], give_slot: str | None, penalty_to: str,
           pen: tuple[str, bool]) -> None:
    """Every public check passed: only now read the card, and apply the outcome (RULES §6.4)."""
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
    """The automatic action of RULES §2.11; never a call or a claim."""
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


CLAIM_HANDLERS: dict[type, Callable[[Out, int, Any], None]] = {SnapOwn: _snap_own, SnapRival: _snap_rival, Pass: _pass}
