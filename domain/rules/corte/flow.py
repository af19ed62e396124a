"""Corte: the parts of ``decide`` shared by several commands (turn flow, draws, round end).

Each helper appends events to an :class:`Out`, which folds them into its own copy of
the state as it goes, so a later helper always reads the state the earlier events made.
"""
from __future__ import annotations

from typing import Any

from domain import orders, table
from domain.cards import french_pack, rank
from domain.messages import GameEnded, WindowClosed, WindowOpened
from domain.rules.corte.events import (
    CardDiscarded,
    CardGiven,
    CardsSwapped,
    ClaimResolved,
    DrawSkipped,
    FinalWindowEnded,
    FinalWindowStarted,
    PenaltyCardDealt,
    RoundDealt,
    RoundRevealed,
    RoundScored,
    StockReshuffled,
    TurnEnded,
    TurnSkipped,
)
from domain.rules.corte.evolve import MEMO
from domain.rules.corte.model import FINAL_WINDOW, POWER_RANKS, State, value
from domain.rules.corte.view import can_call, can_draw, has_claim
from domain.tiebreak import break_tie

# The slots whose card each event changes: the standing orders naming them are cancelled.
_MOVES: dict[type, Any] = {
    CardDiscarded: lambda e: () if e.slot is None else ((e.seat, e.slot),),
    CardsSwapped: lambda e: (tuple(e.a), tuple(e.b)),
    ClaimResolved: lambda e: tuple(map(tuple, e.targets)) if e.outcome == "correct" else (),
    CardGiven: lambda e: ((e.rival, e.rival_slot),) + (() if e.from_slot is None else ((e.snapper, e.from_slot),)),
    PenaltyCardDealt: lambda e: ((e.seat, e.slot),),
}


class Out(orders.OrderEmitter):
    """Corte's events so far, folded (and remembered) as they are emitted (decide's own, which
    also fires the standing orders, is :class:`domain.rules.corte.claims.Out`)."""

    __slots__ = ()
    memo = MEMO
    hooks = orders.cancelling(_MOVES)


# ---------------------------------------------------------------- drawing


def must_skip(s: State, seat: int) -> bool:
    """The turn cannot draw and the seat cannot call: it is skipped at once.

    Under ``end_round`` an empty stock never skips: the draw itself ends the round.
    """
    if can_draw(s) or s.opts.stock_exhausted == "end_round":
        return False
    return not can_call(s, seat)


def refill(out: Out, seat: int, purpose: str) -> bool:
    """Make sure the stock has a card for a penalty or give draw; ``False`` if it cannot.

    Under ``common.stock_exhausted = end_round`` such draws never reshuffle.
    """
    s = out.s
    if s.stock:
        return True
    if s.opts.stock_exhausted == "reshuffle" and len(s.pile) > 1:
        reshuffle(out)
        return True
    out.emit(DrawSkipped(seat, purpose, "stock_empty"))
    return False


def reshuffle(out: Out) -> None:
    """Every discard but the top becomes the new stock."""
    s = out.s
    shuffle_no = len(s.shuffles)
    order = table.reshuffle(out.key, s.round, shuffle_no, s.pile[:-1])
    commitment, salt = table.commitment(out.key, s.round, shuffle_no, order)
    out.emit(StockReshuffled(s.round, shuffle_no, order, salt, commitment, len(order)))


# ---------------------------------------------------------------- powers


def power_has_target(s: State, seat: int, card: str) -> bool:
    """Whether the power of ``card`` has any legal target now (else it fizzles)."""
    r = rank(card)
    own = s.layouts[seat].has_cards()
    locked = s.locked()
    rivals = [p for p in range(s.players) if p != seat and s.layouts[p].has_cards()]
    if r == "5":
        return own
    if r == "6":
        return bool(rivals)
    if r == "Q":
        return own and any(p != locked for p in rivals)
    if r == "K":
        return own and bool(rivals)
    return False


def fires(card: str) -> str | None:
    r = rank(card)
    return r if r in POWER_RANKS else None


# ---------------------------------------------------------------- turn flow


def finish_turn(out: Out, seat: int) -> None:
    """The in-turn discard is settled: open its window (its orders fire), then pass the turn."""
    s = out.s
    out.emit(WindowOpened(s.window_seq + 1, s.pile[-1]))
    out.window_opened(table.next_seat(seat, s.players, s.opts.direction))
    end_turn(out, seat)


def end_turn(out: Out, seat: int) -> None:
    """Pass the turn on; or end the round (turn limit, a lap of skips); or start the final window."""
    while True:
        s = out.s
        if s.opts.turn_limit is not None and s.turn_no >= s.opts.turn_limit:
            end_round(out, "turn_limit")
            return
        if s.skips >= s.players:
            end_round(out, "no_card")
            return
        nxt = table.next_seat(seat, s.players, s.opts.direction)
        if s.caller is not None and nxt == s.caller:
            final_window(out)
            return
        out.emit(TurnEnded(seat, nxt, s.turn_no + 1))
        if not must_skip(out.s, nxt):
            return
        out.emit(TurnSkipped(nxt, "no_card", out.s.turn_no))
        seat = nxt


def claim_seats(s: State) -> list[int]:
    """Seats that have at least one claim to make on the current window (eligible for the final window)."""
    return [p for p in range(s.players) if has_claim(s, p)]


def final_window(out: Out) -> None:
    """The turn would return to the caller: the final window F, or straight to the reveal."""
    s = out.s
    w = s.window
    if w is not None and w.won_by is None:
        eligible = claim_seats(s)
        if eligible:
            out.emit(FinalWindowStarted(w.id, tuple(eligible)))
            return
    end_round(out, "call")


def final_window_done(out: Out) -> None:
    """After a claim or a pass on F: end F once it is won or every eligible seat has passed."""
    s = out.s
    w = s.window
    if s.phase != FINAL_WINDOW or w is None:
        return
    if w.won_by is not None:
        out.emit(FinalWindowEnded(w.id, "won"))
        end_round(out, "call")
    elif all(p in w.passed for p in claim_seats(s)):
        out.emit(FinalWindowEnded(w.id, "all_passed"))
        end_round(out, "call")


# ---------------------------------------------------------------- round end and scoring


def totals(s: State) -> tuple[int, ...]:
    return tuple(lay.total(value) for lay in s.layouts)


def round_scores(totals_: tuple[int, ...], caller: int | None, penalty: int) -> tuple[tuple[int, ...], str | None]:
    """Each seat scores its total; a caller who is not strictly lowest adds ``penalty``."""
    if caller is None:
        return totals_, None
    tc = totals_[caller]
    won = all(tc < t for p, t in enumerate(totals_) if p != caller)
    if won:
        return totals_, "won"
    return tuple(t + penalty if p == caller else t for p, t in enumerate(totals_)), "failed"


def winners(cumulative: tuple[int, ...], last: tuple[int, ...], tiebreak: str) -> tuple[int, ...] | None:
    """The winners once the game is over, or ``None`` to play another round."""
    low = min(cumulative)
    return break_tie([p for p, c in enumerate(cumulative) if c == low], last, tiebreak)


_REASONS = {
    "call": "the final lap after the call is over",
    "no_card": "every seated player's turn was skipped in one lap (no card to draw)",
    "turn_limit": "the round reached common.round_turn_limit",
    "stock_exhausted": "a turn draw found the stock empty (common.stock_exhausted = end_round)",
}


def end_round(out: Out, reason: str) -> None:
    """Reveal, score, then end the game or deal the next round at once."""
    if out.s.window is not None:
        out.emit(WindowClosed(out.s.window.id, "final"))
    orders.close_round(out)
    s = out.s
    tot = totals(s)
    shuffles = tuple({"shuffle_no": no, "order": tuple(order), "salt": salt, "commitment": com}
                     for no, order, salt, com in s.shuffles)
    out.emit(RoundRevealed(s.round, tuple(tuple(zip(lay.slots, lay.cards)) for lay in s.layouts), tot, shuffles))
    caller = s.caller if reason != "stock_exhausted" else None
    scores, outcome = round_scores(tot, caller, s.opts.failed_call_penalty)
    cumulative = tuple(a + b for a, b in zip(s.scores, scores))
    if caller is None:
        why = f"The round ended because {_REASONS[reason]}; everyone scores their own total."
    elif outcome == "won":
        why = (f"Seat {caller} called ¡Corte! with {tot[caller]}, strictly the lowest total, "
               f"and scores it unchanged.")
    else:
        why = (f"Seat {caller} called ¡Corte! with {tot[caller]}, not strictly the lowest total, "
               f"and scores {tot[caller]} + {s.opts.failed_call_penalty}.")
    out.emit(RoundScored(s.round, reason, tot, scores, cumulative, caller, outcome, "RULES §6.6", why))
    if max(cumulative) >= s.opts.target_score:
        win = winners(cumulative, scores, s.opts.tiebreak)
        if win is not None:
            out.emit(GameEnded(win, cumulative, f"Someone reached {s.opts.target_score}; "
                                                f"the lowest cumulative score wins ({s.opts.tiebreak} ties)."))
            return
    deal(out, s.round + 1, table.next_seat(s.dealer, s.players, s.opts.direction))


def deal(out: Out, round_no: int, dealer: int) -> None:
    s = out.s
    order = table.deal(out.key, round_no, french_pack() * s.opts.decks)
    commitment, salt = table.commitment(out.key, round_no, 0, order)
    upcard = order[4 * s.players] if s.opts.initial_upcard else None
    first = table.next_seat(dealer, s.players, s.opts.direction)
    out.emit(RoundDealt(round_no, dealer, first, order, salt, commitment, upcard))
