"""Pedro: ``decide(state, seat, command, key) -> events`` for every command.

The rules are in the package docstring, in the order :func:`decide` applies them; the
flow of a round (deal, turn ends, reveal, score) is in :mod:`domain.rules.pedro.flow`.
"""
from __future__ import annotations

from typing import Any

from domain import table
from domain.errors import InvalidCommand, NotYourTurn, RuleError, WrongPhase
from domain.messages import CardsSwapped, Draw, SkipPower, SkipTurn, TurnSkipped, TurnTimedOut
from domain.moments import Moments
from domain.rules.pedro import view as pv
from domain.rules.pedro.flow import (
    Emitter, bottom_cards, can_draw, end_round, end_turn, may_call, stock_can_supply,
)
from domain.rules.pedro.messages import (
    CallMade, CallPedro, CardDrawn, CardKept, CardPeeked, CardReleased, CardsShown, ClaimResolved, Keep,
    PeekBottom, PowerSkipped, Release, StockReshuffled, Target, TimeoutApplied, UsePower5, UsePower6,
)
from domain.rules.pedro.model import AWAIT, BETWEEN, HOLDING, OVER, POWER, REVEAL, State, identical, power_of


def decide(state: State, seat: int | None, command: Any, key: bytes) -> tuple[Any, ...]:
    s = state
    if s.step == OVER:
        raise WrongPhase("the game is over")
    if isinstance(command, TurnTimedOut):
        if seat is not None:
            raise InvalidCommand("TurnTimedOut is a system command")
        return _timed_out(s, command, key)
    if seat is None or not 0 <= seat < s.players:
        raise InvalidCommand("a player command needs a seat at this table")
    if isinstance(command, PeekBottom):
        return _peek_bottom(s, seat)
    if seat != s.turn:
        raise NotYourTurn(f"it is seat {s.turn}'s turn")
    em = Emitter(s)
    if isinstance(command, (Draw, CallPedro, SkipTurn)):
        _need(s, AWAIT)
        if isinstance(command, CallPedro):
            if not may_call(s, seat):
                raise WrongPhase("a call was already made" if s.caller is not None else
                                 f"a call needs {s.cfg.min_turns} own turns first")
            em(CallMade(seat, "Pedro", s.cfg.final_lap))
            end_turn(em, key)
        elif isinstance(command, SkipTurn):
            if can_draw(s):
                raise WrongPhase("SkipTurn only when no card can be drawn")
            em(TurnSkipped(seat, "no_card"))
            end_turn(em, key)
        else:
            _draw(em, seat, command.source, key)
    elif isinstance(command, (Keep, Release)):
        _need(s, HOLDING)
        if isinstance(command, Keep):
            _keep(em, seat, command)
        else:
            _release(em, seat, key)
            return tuple(em.events)
        end_turn(em, key)
    elif isinstance(command, (UsePower5, UsePower6, SkipPower)):
        _need(s, POWER)
        _power(em, seat, command)
        end_turn(em, key)
    else:
        raise InvalidCommand(f"unknown command {type(command).__name__}")
    return tuple(em.events)


#: The steps of a Pedro turn beyond the draw, in the words of docs/rules/pedro.md.
_MOMENTS = Moments(
    needs={POWER: "while you use the power of the 5 or 6 you put on the pile"},
    now={HOLDING: "you hold the card you drew: keep it or put it on the pile first",
         POWER: "the power of the card you put on the pile comes first",
         BETWEEN: "your turn is over", REVEAL: "the round is over"})


def _need(s: State, step: str) -> None:
    if s.step != step:
        raise _MOMENTS.wrong_step((step,), s.step)


def _draw(em: Emitter, seat: int, source: str, key: bytes) -> None:
    s = em.s
    if source == "discard":
        if not s.pile:
            raise InvalidCommand("the visible pile is empty")
        em(CardDrawn(seat, "discard", s.pile[-1], True))
        return
    if source != "stock":
        raise InvalidCommand("source is stock or discard")
    if not s.stock:
        if s.cfg.end_round_on_empty:
            return end_round(em, key, "stock_exhausted")
        if len(s.pile) <= 1:
            raise InvalidCommand("the stock is empty and the pile holds only its top card")
        k = len(s.orders)
        order = table.reshuffle(key, s.round, k, s.pile[:-1])
        commit, salt = table.commitment(key, s.round, k, order)
        s = em(StockReshuffled(s.round, k, len(order), commit, order, salt))
    em(CardDrawn(seat, "stock", s.stock[0], s.cfg.show_drawn))


def _keep(em: Emitter, seat: int, cmd: Keep) -> None:
    s = em.s
    lay = s.layouts[seat]
    extra = tuple(cmd.also_discard)
    if not lay.is_occupied(cmd.replace):
        raise InvalidCommand(f"replace: {cmd.replace!r} is not an occupied slot of yours")
    for x in extra:
        if not lay.is_occupied(x):
            raise InvalidCommand(f"also_discard: {x!r} is not an occupied slot of yours")
    if len(set(extra)) != len(extra) or cmd.replace in extra:
        raise InvalidCommand("also_discard: slots must be distinct and exclude replace")
    if extra and s.source != "stock" and not s.cfg.multi_any:
        raise InvalidCommand("a multi-discard needs a card drawn from the stock (multi_discard_sources)")
    held = s.held
    assert held is not None
    public = s.source == "discard" or s.cfg.show_drawn
    if not extra:
        old = lay.card(cmd.replace)
        assert old is not None
        em(CardKept(seat, cmd.replace, held, public, old))
        return
    extra = tuple(x for x in lay.slots if x in extra)  # slot order: the pile order of a multi-discard
    targets = (cmd.replace,) + extra
    group = tuple(lay.card(x) for x in targets)
    ok = identical(group, s.cfg)  # type: ignore[arg-type]
    reveal = "public" if ok else s.cfg.failed_reveal
    new_slot = None if ok else lay.next_extra_slot()
    em(ClaimResolved(
        "multi_discard", seat, None, None, targets, "correct" if ok else "wrong",
        tuple(zip(targets, group)), reveal, held, public, new_slot, "RULES §3.4",
        {"joker_groups": s.options["joker_groups"], "failed_group_reveal": s.options["failed_group_reveal"],
         "zero_card_matches_rank": s.options["zero_card_matches_rank"],
         "multi_discard_sources": s.options["multi_discard_sources"]},
        _group_sentence(seat, targets, group, ok, new_slot)))


def _group_sentence(seat: int, targets: tuple[str, ...], group: tuple[Any, ...], ok: bool,
                    new_slot: str | None) -> str:
    slots = ", ".join(targets)
    if ok:
        return f"Seat {seat} claimed slots {slots} identical; they are (jokers wild), so all go face up " \
               f"and the drawn card goes into {targets[0]}."
    return f"Seat {seat} claimed slots {slots} identical; they are not, so every card stays and the drawn " \
           f"card goes into the new slot {new_slot}."


def _release(em: Emitter, seat: int, key: bytes) -> None:
    s = em.s
    if s.source == "discard" and not s.cfg.allow_return:
        raise InvalidCommand("a card taken from the pile must be kept (allow_return_discard_draw)")
    assert s.held is not None
    power = power_of(s.held) if s.source == "stock" else None
    s = em(CardReleased(seat, s.held, s.source or "stock", power))
    if power is None:
        end_turn(em, key)
    elif not pv.power_targets(s, seat):
        em(PowerSkipped(seat, power, "fizzled"))
        end_turn(em, key)


def _slot_of(s: State, target: Any, what: str) -> Target:
    if target is None or len(target) != 2:
        raise InvalidCommand(f"{what}: a (player, slot) pair is needed")
    player, slot = target
    if not 0 <= player < s.players or not s.layouts[player].is_occupied(slot):
        raise InvalidCommand(f"{what}: {slot!r} of seat {player} is not an occupied slot")
    return (player, slot)


def _power(em: Emitter, seat: int, cmd: Any) -> None:
    s = em.s
    power = s.power
    assert power is not None
    if isinstance(cmd, SkipPower):
        if not s.cfg.powers_optional:
            raise WrongPhase("the power must be used (powers_optional = false)")
        em(PowerSkipped(seat, power, "declined"))
        return
    if isinstance(cmd, UsePower6):
        if power != 6:
            raise InvalidCommand("the released card is a 5")
        player, slot = _slot_of(s, cmd.target, "target")
        em(CardPeeked(seat, (player, slot), s.layouts[player].card(slot)))
        return
    if power != 5:
        raise InvalidCommand("the released card is a 6")
    if cmd.own is not None or cmd.other is not None:
        if cmd.a is not None or cmd.b is not None:
            raise InvalidCommand("give either own/other or a/b")
        if cmd.own is None:
            raise InvalidCommand("own: a slot of yours is needed")
        a, b = _slot_of(s, (seat, cmd.own), "own"), _slot_of(s, cmd.other, "other")
    else:
        if not s.cfg.power5_any_two:
            raise InvalidCommand("UsePower5 takes own and other (power5_any_two = false)")
        a, b = _slot_of(s, cmd.a, "a"), _slot_of(s, cmd.b, "b")
    if a[0] == b[0]:
        raise InvalidCommand("the two cards must belong to two different players")
    if s.caller is not None and s.caller in (a[0], b[0]):
        raise RuleError("the caller's cards may not be swapped during the final lap", code="locked")
    em(CardsSwapped(seat, a, b))


def _peek_bottom(s: State, seat: int) -> tuple[Any, ...]:
    if s.cfg.peek_at_deal:
        raise WrongPhase("C and D were shown at the deal (peek_timing = at_deal)")
    if s.step not in (AWAIT, HOLDING, POWER):
        raise WrongPhase("no round is being played")
    if seat in s.acted or seat in s.peeked:
        raise WrongPhase("PeekBottom only once, before your first turn of the round (a turn the timeout played counts)")
    return (CardsShown(seat, bottom_cards(s, seat), "peek_bottom"),)


def _timed_out(s: State, cmd: TurnTimedOut, key: bytes) -> tuple[Any, ...]:
    """The automatic action; no power, no call, no blind claim."""
    if s.step not in (AWAIT, HOLDING, POWER) or cmd.seat != s.turn or cmd.turn_no != s.turn_no:
        raise WrongPhase("that turn is no longer running", code="stale_turn")
    seat = cmd.seat
    em = Emitter(s)
    em(TimeoutApplied(seat, cmd.turn_no, s.step))
    if s.step == POWER:
        assert s.power is not None
        em(PowerSkipped(seat, s.power, "timeout"))
        end_turn(em, key)
        return tuple(em.events)
    if s.step == AWAIT:
        if stock_can_supply(s):
            _draw(em, seat, "stock", key)
        elif s.pile:
            _draw(em, seat, "discard", key)
        else:
            em(TurnSkipped(seat, "no_card"))
            end_turn(em, key)
            return tuple(em.events)
    s = em.s
    assert s.held is not None
    if s.source == "discard" and not s.cfg.allow_return:
        first = s.layouts[seat].occupied()[0]
        old = s.layouts[seat].card(first)
        assert old is not None
        em(CardKept(seat, first, s.held, True, old))
    else:
        em(CardReleased(seat, s.held, s.source or "stock", None))
    end_turn(em, key)
    return tuple(em.events)
