"""4 Cartas: the in-turn commands (initial peek, Fechei, draw, discard, replace, the K/J/Q
powers) and the automatic play of a timed-out turn.

:mod:`domain.rules.cuatro_cartas.decide` dispatches each of these commands to a function here.
Every check that can refuse a command runs on public facts first; the events go through the
:class:`domain.rules.cuatro_cartas.flow.Emitter`, and the end of each turn, the final lap and the
round's end are in :mod:`domain.rules.cuatro_cartas.flow`.
"""
from __future__ import annotations

from domain.cards import rank
from domain.errors import InvalidCommand, Locked, NotYourTurn, WrongPhase
from domain.messages import CardDrawn, CardsSwapped, TurnSkipped, WindowClosed
from domain.moments import Moments, no_turn
from domain.rules.cuatro_cartas.events import (
    CallMade, CardDiscarded, CardReplaced, CardsLooked, PeekChosen, PowerFizzled, PowerSkipped, PowerStarted,
    SwapDeclined,
)
from domain.rules.cuatro_cartas.flow import (
    TURN_PHASES, Emitter, after_turn, any_occupied, any_swap, begin_turns, can_draw, end_round, finish_turn,
    look_ends_turn, must_replace, pile_can_supply, reshuffle, stock_can_supply,
)
from domain.rules.cuatro_cartas.model import LOOKS, POWER_RANKS, State

# -- checks ------------------------------------------------------------------------------------


def player(seat: int | None) -> int:
    if seat is None:
        raise InvalidCommand("this command is sent by a player, not by the system")
    return seat


#: The steps of a 4 Cartas turn beyond the draw, in the words of docs/rules/cuatro-cartas.md.
_MOMENTS = Moments(
    needs={"POWER_LOOK": "while you use the power of a K, J or Q, for its look",
           "POWER_SWAP": "after the look of a K or J, to swap or not"},
    now={"HOLDING": "you hold the card you drew: discard it or put it in place of one of yours first",
         "POWER_LOOK": "the look of the power comes first",
         "POWER_SWAP": "after the power's look, swap two cards or decline first"})


def require_turn(s: State, seat: int | None, *steps: str) -> int:
    me = player(seat)
    if s.phase not in TURN_PHASES:
        raise no_turn(s.phase)
    if me != s.turn:
        raise NotYourTurn(f"it is seat {s.turn}'s turn")
    if s.step not in steps:
        raise _MOMENTS.wrong_step(steps, s.step)
    return me


def check_close(s: State, close: bool, ends_turn: bool) -> None:
    if not close:
        return
    if s.opts.close_timing != "after_turn":
        raise InvalidCommand("close: true is only used with close_timing = after_turn; send Close")
    if s.closer is not None:
        raise WrongPhase("somebody has already closed this round")
    if not ends_turn:
        raise InvalidCommand("this command does not end the turn, so it cannot carry close: true")


# -- turn commands -------------------------------------------------------------------------------


def close(em: Emitter, seat: int | None) -> None:
    me = require_turn(em.s, seat, "AWAIT_ACTION")
    if em.s.opts.close_timing != "instead_of_turn":
        raise InvalidCommand("with close_timing = after_turn, close with close: true on your turn's last command")
    if em.s.closer is not None:
        raise WrongPhase("somebody has already closed this round")
    em.emit(CallMade(me, "fechei", "instead_of_turn"))
    after_turn(em)


def draw(em: Emitter, seat: int | None, source: str) -> None:
    s = em.s
    me = require_turn(s, seat, "AWAIT_ACTION")
    if source == "stock":
        if not stock_can_supply(s):
            raise WrongPhase("the stock is empty and the pile has no card to reshuffle")
        if not reshuffle(em):
            end_round(em, "stock_exhausted")  # common.stock_exhausted = end_round
            return
        em.emit(CardDrawn(me, "stock", em.s.stock[0]))
        return
    if not s.pile:
        raise WrongPhase("the discard pile is empty")
    if not pile_can_supply(s, me):
        raise WrongPhase("with allow_rediscard = false and no card in your layout you could not play a pile card")
    if s.window is not None:
        em.emit(WindowClosed(s.window.id, "taken"))
    em.emit(CardDrawn(me, "discard", s.pile[-1]))


def skip_turn(em: Emitter, seat: int | None) -> None:
    me = require_turn(em.s, seat, "AWAIT_ACTION")
    if can_draw(em.s, me):
        raise WrongPhase("a card can be drawn; SkipTurn is only for a turn with no card to draw")
    em.emit(TurnSkipped(me, "no_card"))
    after_turn(em)


def discard_drawn(em: Emitter, seat: int | None, close_flag: bool, power: bool = True) -> None:
    s = em.s
    me = require_turn(s, seat, "HOLDING")
    if must_replace(s, me):
        raise InvalidCommand("allow_rediscard = false: a card taken from the pile must replace a layout card")
    check_close(s, close_flag, True)
    card, source = s.held, s.held_source
    assert card is not None and source is not None
    em.emit(CardDiscarded(me, card, source))
    if s.window is not None:
        em.emit(WindowClosed(s.window.id, "superseded"))
    if power and (source == "stock" or s.opts.rediscard_power) and rank(card) in POWER_RANKS:
        start_power(em, rank(card), close_flag, returns=False)
    else:
        finish_turn(em, close_flag)


def replace_card(em: Emitter, seat: int | None, slot: str, close_flag: bool, power: bool = True) -> None:
    s = em.s
    me = require_turn(s, seat, "HOLDING")
    if not s.layouts[me].is_occupied(slot):
        raise InvalidCommand(f"slot {slot!r} is not an occupied slot of yours")
    check_close(s, close_flag, True)
    out = s.layouts[me].card(slot)
    assert out is not None
    em.emit(CardReplaced(me, slot, out))
    if s.window is not None:
        em.emit(WindowClosed(s.window.id, "superseded"))
    if power and s.opts.replaced_card_power and rank(out) in POWER_RANKS:
        start_power(em, rank(out), close_flag, returns=False)
    else:
        finish_turn(em, close_flag)


def start_power(em: Emitter, power_rank: str, close_after: bool, returns: bool) -> None:
    me = em.s.turn
    assert me is not None
    em.emit(PowerStarted(me, power_rank, close_after, returns))
    if not any_occupied(em.s):
        em.emit(PowerFizzled(me, power_rank, "no face-down card on the table"))
        power_done(em, False)


def power_done(em: Emitter, close_flag: bool) -> None:
    """After the last step of a power: back to AWAIT_ACTION (in-turn match) or end of turn."""
    if em.s.step != "AWAIT_ACTION":
        finish_turn(em, close_flag)


def look(em: Emitter, seat: int | None, targets: tuple[tuple[int, str], ...], close_flag: bool) -> None:
    s = em.s
    me = require_turn(s, seat, "POWER_LOOK")
    assert s.power is not None
    if len(targets) > LOOKS[s.power] or len(set(targets)) != len(targets):
        raise InvalidCommand(f"{s.power} looks at up to {LOOKS[s.power]} distinct cards")
    for owner, slot in targets:
        if not 0 <= owner < s.players or not s.layouts[owner].is_occupied(slot):
            raise InvalidCommand(f"({owner}, {slot!r}) is not an occupied slot")
    ends = look_ends_turn(s)
    check_close(s, close_flag, ends)
    em.emit(CardsLooked(me, targets, tuple(s.layouts[o].card(sl) for o, sl in targets)))
    if em.s.step == "POWER_SWAP" and not any_swap(em.s, me):
        em.emit(PowerFizzled(me, s.power, "no legal swap"))
    if em.s.step != "POWER_SWAP":
        power_done(em, close_flag)


def skip_power(em: Emitter, seat: int | None, close_flag: bool) -> None:
    s = em.s
    me = require_turn(s, seat, "POWER_LOOK")
    check_close(s, close_flag, not s.power_returns)
    em.emit(PowerSkipped(me))
    power_done(em, close_flag)


def swap(em: Emitter, seat: int | None, a: tuple[int, str], b: tuple[int, str], close_flag: bool) -> None:
    s = em.s
    me = require_turn(s, seat, "POWER_SWAP")
    for owner, slot in (a, b):
        if not 0 <= owner < s.players or not s.layouts[owner].is_occupied(slot):
            raise InvalidCommand(f"({owner}, {slot!r}) is not an occupied slot")
    if a[0] == b[0]:
        raise InvalidCommand("a swap exchanges cards of two different players")
    if s.locked(a[0]) or s.locked(b[0]):
        raise Locked("the closer's layout is locked")
    if s.opts.swap_must_include_own and me not in (a[0], b[0]):
        raise InvalidCommand("swap_must_include_own: one of the two cards must be yours")
    check_close(s, close_flag, not s.power_returns)
    em.emit(CardsSwapped(me, a, b))
    power_done(em, close_flag)


def no_swap(em: Emitter, seat: int | None, close_flag: bool) -> None:
    s = em.s
    me = require_turn(s, seat, "POWER_SWAP")
    check_close(s, close_flag, not s.power_returns)
    em.emit(SwapDeclined(me))
    power_done(em, close_flag)


# -- initial peek ----------------------------------------------------------------------------------


def choose_peek(em: Emitter, seat: int, slots: tuple[str, ...], automatic: bool = False) -> None:
    s = em.s
    if s.phase != "INITIAL_PEEK":
        raise WrongPhase("the initial peek is over")
    if seat in s.peeked:
        raise WrongPhase("you have already chosen your two cards")
    if len(slots) != 2 or slots[0] == slots[1] or not all(s.layouts[seat].is_occupied(x) for x in slots):
        raise InvalidCommand("choose two distinct slots of your own layout")
    em.emit(PeekChosen(seat, slots, tuple(s.layouts[seat].card(x) for x in slots), automatic))
    if len(em.s.peeked) == s.players:
        begin_turns(em)


# -- timeouts --------------------------------------------------------------------------------------


def timeout_turn(em: Emitter) -> None:
    """The automatic action of a timed-out turn: never a call, a claim or a power."""
    s = em.s
    me, turn_no = s.turn, s.turn_no
    assert me is not None
    if s.step == "POWER_LOOK":
        em.emit(PowerSkipped(me))
        power_done(em, False)
    elif s.step == "POWER_SWAP":
        em.emit(SwapDeclined(me))
        power_done(em, False)
    if em.s.phase not in TURN_PHASES or em.s.turn_no != turn_no:
        return
    if em.s.step == "AWAIT_ACTION":
        s = em.s
        if stock_can_supply(s):
            draw(em, me, "stock")
        elif pile_can_supply(s, me):
            draw(em, me, "discard")
        else:
            em.emit(TurnSkipped(me, "no_card"))
            after_turn(em)
            return
        if em.s.step != "HOLDING":  # the round ended on an empty stock
            return
    s = em.s
    if must_replace(s, me):
        replace_card(em, me, s.layouts[me].occupied()[0], False, power=False)
    else:
        discard_drawn(em, me, False, power=False)
