"""Corte: the in-turn commands (peek, call, draw, discard, replace, powers).

Each handler runs the public checks first, then appends its events to an ``Out``.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.errors import (
    InvalidCommand,
    Locked,
    NotYourTurn,
    WrongPhase,
)
from domain.messages import CardDrawn, SkipPower, SkipTurn, WindowClosed, WindowOpened
from domain.moments import Moments, no_turn
from domain.rules.corte import view as corte_view
from domain.rules.corte.events import (
    CallMade,
    CardDiscarded,
    CardsPeeked,
    CardsSwapped,
    KingKept,
    PeekChosen,
    PowerSkipped,
    TurnSkipped,
)
from domain.rules.corte.flow import (
    Out,
    end_round,
    end_turn,
    finish_turn,
    fires,
    power_has_target,
    reshuffle,
)
from domain.rules.corte.model import (
    AWAIT_ACTION,
    FINAL_LAP,
    HOLDING,
    INITIAL_PEEK,
    KING_DECIDE,
    POWER,
    TURNS,
    BlindSwap,
    CallCorte,
    ChoosePeek,
    DiscardDrawn,
    Draw,
    KingKeep,
    KingLook,
    KingSwap,
    PeekOwn,
    PeekRival,
    Replace,
    State,
)
from domain.windows import occupied_slot

# ---------------------------------------------------------------- public checks


def seat_ok(s: State, p: int, what: str = "player") -> int:
    if not 0 <= p < s.players:
        raise InvalidCommand(f"{what} {p} is not a seat of this game")
    return p


#: The steps of a Corte turn beyond the draw, in the words of docs/rules/corte.md.
_MOMENTS = Moments(
    needs={POWER: "while you use the power of a 5, 6, Q or K",
           KING_DECIDE: "after the King's look, to swap the two cards or keep them"},
    now={HOLDING: "you hold the card you drew: discard it or replace one of your cards with it first",
         POWER: "the power of the card you discarded comes first",
         KING_DECIDE: "after the King's look, swap the two cards or keep them first"})


def my_turn(s: State, seat: int, step: str) -> None:
    if s.phase not in (TURNS, FINAL_LAP):
        raise no_turn(s.phase)
    if s.turn != seat:
        raise NotYourTurn(f"it is seat {s.turn}'s turn")
    if s.step != step:
        raise _MOMENTS.wrong_step((step,), s.step)


def _power(s: State, seat: int, r: str) -> None:
    my_turn(s, seat, POWER)
    if s.power != r:
        raise WrongPhase(f"the power being resolved is the {s.power}'s, not the {r}'s")


def rival_seat(s: State, seat: int, p: int) -> int:
    seat_ok(s, p, "rival")
    if p == seat:
        raise InvalidCommand("the rival must be another seat")
    return p


# ---------------------------------------------------------------- the peek and the turn


def _choose_peek(out: Out, seat: int, c: ChoosePeek) -> None:
    s = out.s
    if s.phase != INITIAL_PEEK:
        raise WrongPhase("the initial peek is over")
    if seat in s.peeked:
        raise WrongPhase("you already chose your peek")
    lay = s.layouts[seat]
    if len(c.slots) != 2 or len(set(c.slots)) != 2 or not all(lay.is_occupied(x) for x in c.slots):
        raise InvalidCommand("choose two distinct slots of your grid")
    deliver_peek(out, seat, tuple(c.slots), False)


def deliver_peek(out: Out, seat: int, slots: tuple[str, ...], timed_out: bool) -> None:
    lay = out.s.layouts[seat]
    out.emit(PeekChosen(seat, slots, tuple(lay.card(x) for x in slots), timed_out))
    s = out.s
    if s.phase == TURNS and s.pile:  # the last peek ends INITIAL_PEEK: W0 opens on the up-card
        out.emit(WindowOpened(s.window_seq + 1, s.pile[-1]))
        assert s.turn is not None
        out.window_opened(s.turn)  # its orders fire from the first player on


def _call(out: Out, seat: int, c: CallCorte) -> None:
    s = out.s
    my_turn(s, seat, AWAIT_ACTION)
    if s.caller is not None:
        raise WrongPhase("¡Corte! was already called this round")
    if s.own_turns[seat] < s.opts.min_own_turns:
        raise WrongPhase(f"you may call after {s.opts.min_own_turns} own turns")
    out.emit(CallMade(seat, "corte"))
    end_turn(out, seat)


def draw(out: Out, seat: int, c: Draw) -> None:
    s = out.s
    my_turn(s, seat, AWAIT_ACTION)
    if not s.stock:
        if s.opts.stock_exhausted == "end_round":
            end_round(out, "stock_exhausted")
            return
        if len(s.pile) <= 1:
            raise WrongPhase("no card can be drawn; send SkipTurn")
        reshuffle(out)
    out.emit(CardDrawn(seat, "stock", out.s.stock[0]))


def _skip_turn(out: Out, seat: int, c: SkipTurn) -> None:
    s = out.s
    my_turn(s, seat, AWAIT_ACTION)
    if corte_view.can_draw(s) or s.opts.stock_exhausted == "end_round":
        raise WrongPhase("a card can be drawn; SkipTurn is only for an empty stock")
    out.emit(TurnSkipped(seat, "no_card", s.turn_no))
    end_turn(out, seat)


def discard(out: Out, seat: int, card: str, slot: str | None, powered: bool) -> None:
    """An in-turn discard lands: supersede the window, then the power or the end of the turn."""
    s = out.s
    if s.window is not None:
        out.emit(WindowClosed(s.window.id, "superseded"))
    power = fires(card) if powered else None
    placed = s.held if slot is not None else None
    out.emit(CardDiscarded(seat, card, "drawn" if slot is None else "replaced", slot, placed, power))
    if power is None:
        finish_turn(out, seat)
    elif not power_has_target(out.s, seat, card):
        out.emit(PowerSkipped(seat, power, "no_target"))
        finish_turn(out, seat)


def _discard_drawn(out: Out, seat: int, c: DiscardDrawn) -> None:
    s = out.s
    my_turn(s, seat, HOLDING)
    assert s.held is not None
    discard(out, seat, s.held, None, True)


def _replace(out: Out, seat: int, c: Replace) -> None:
    s = out.s
    my_turn(s, seat, HOLDING)
    occupied_slot(s.layouts[seat], c.slot)
    card = s.layouts[seat].card(c.slot)
    assert card is not None
    discard(out, seat, card, c.slot, s.opts.replaced_card_power)


# ---------------------------------------------------------------- powers


def _peek_own(out: Out, seat: int, c: PeekOwn) -> None:
    s = out.s
    _power(s, seat, "5")
    occupied_slot(s.layouts[seat], c.slot)
    out.emit(CardsPeeked(seat, "5", ((seat, c.slot),), (s.layouts[seat].card(c.slot),)))
    finish_turn(out, seat)


def _peek_rival(out: Out, seat: int, c: PeekRival) -> None:
    s = out.s
    _power(s, seat, "6")
    rival_seat(s, seat, c.player)
    occupied_slot(s.layouts[c.player], c.slot)
    out.emit(CardsPeeked(seat, "6", ((c.player, c.slot),), (s.layouts[c.player].card(c.slot),)))
    finish_turn(out, seat)


def _pair(s: State, seat: int, own_slot: str, rival: int, rival_slot: str) -> None:
    occupied_slot(s.layouts[seat], own_slot, "own_slot")
    rival_seat(s, seat, rival)
    occupied_slot(s.layouts[rival], rival_slot, "rival_slot")


def _blind_swap(out: Out, seat: int, c: BlindSwap) -> None:
    s = out.s
    _power(s, seat, "Q")
    _pair(s, seat, c.own_slot, c.rival, c.rival_slot)
    if c.rival == s.locked():
        raise Locked("the caller's grid is locked")
    out.emit(CardsSwapped(seat, "Q", (seat, c.own_slot), (c.rival, c.rival_slot)))
    finish_turn(out, seat)


def _king_look(out: Out, seat: int, c: KingLook) -> None:
    s = out.s
    _power(s, seat, "K")
    _pair(s, seat, c.own_slot, c.rival, c.rival_slot)
    cards = (s.layouts[seat].card(c.own_slot), s.layouts[c.rival].card(c.rival_slot))
    out.emit(CardsPeeked(seat, "K", ((seat, c.own_slot), (c.rival, c.rival_slot)), cards))


def _king_swap(out: Out, seat: int, c: KingSwap) -> None:
    s = out.s
    my_turn(s, seat, KING_DECIDE)
    assert s.king is not None
    own_slot, rival, rival_slot = s.king
    if rival == s.locked():
        raise Locked("the caller's grid is locked: only KingKeep")
    out.emit(CardsSwapped(seat, "K", (seat, own_slot), (rival, rival_slot)))
    finish_turn(out, seat)


def _king_keep(out: Out, seat: int, c: KingKeep) -> None:
    my_turn(out.s, seat, KING_DECIDE)
    out.emit(KingKept(seat))
    finish_turn(out, seat)


def _skip_power(out: Out, seat: int, c: SkipPower) -> None:
    s = out.s
    my_turn(s, seat, POWER)
    if not s.opts.powers_optional:
        raise WrongPhase("powers are mandatory (corte.powers_optional = false)")
    assert s.power is not None
    out.emit(PowerSkipped(seat, s.power, "declined"))
    finish_turn(out, seat)


TURN_HANDLERS: dict[type, Callable[[Out, int, Any], None]] = {
    ChoosePeek: _choose_peek, CallCorte: _call, Draw: draw, SkipTurn: _skip_turn, DiscardDrawn: _discard_drawn,
    Replace: _replace, PeekOwn: _peek_own, PeekRival: _peek_rival, BlindSwap: _blind_swap, KingLook: _king_look,
    KingSwap: _king_swap, KingKeep: _king_keep, SkipPower: _skip_power,
}
