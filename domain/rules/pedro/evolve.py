"""Pedro: ``evolve(state, event) -> state``. It never validates (decide already did)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.frozen import tuple_setter
from domain.memo import EvolveMemo
from domain.messages import CardsSwapped, GameStarted, TurnSkipped, TurnStarted
from domain.rules.pedro.messages import (
    CallJudged, CallMade, CardDrawn, CardKept, CardPeeked, CardReleased, CardsShown, ClaimResolved, GameEnded,
    PowerSkipped, RoundDealt, RoundRevealed, RoundScored, StockReshuffled, TimeoutApplied,
)
from domain.rules.pedro.model import (
    AWAIT, BETWEEN, HOLDING, OVER, POWER, PUBLIC, REVEAL, State, deal_from, make_config,
)
from domain.rules.pedro.model import with_ as replace
from domain.table import Layout, Notebook


def _finish_turn(s: State, seat: int, skipped: bool = False, **changes: Any) -> State:
    """The active seat's turn is over: count it (turn limit, calls, skipped laps)."""
    own = s.own_turns
    return replace(
        s, step=BETWEEN, held=None, source=None, power=None, turns_done=s.turns_done + 1,
        own_turns=own[:seat] + (own[seat] + 1,) + own[seat + 1:],
        skip_streak=s.skip_streak + 1 if skipped else 0, **changes)


def _with_seat(seats: frozenset[int], seat: int) -> frozenset[int]:
    """``seats | {seat}``, or ``seats`` itself when it is there already (after the first lap)."""
    return seats if seat in seats else seats | {seat}


def _set_layout(layouts: tuple[Layout, ...], seat: int, layout: Layout) -> tuple[Layout, ...]:
    return layouts[:seat] + (layout,) + layouts[seat + 1:]


def _placed(nb: Notebook, seat: int, slot: str, public: bool) -> Notebook:
    """A card whose identity ``seat`` (or everyone) knows was put face down at (seat, slot)."""
    return nb.forget(seat, slot).learn(PUBLIC if public else seat, seat, slot)


def _started(_: State | None, e: GameStarted) -> State:
    n = e.players
    return State(cfg=make_config(e.options, n), options=dict(e.options), players=n,
                 dealer=e.first_dealer, scores=(0,) * n, round_wins=(0,) * n)


# Setters for the steps of every turn (domain.frozen.tuple_setter: cheaper than replace).
_set_turn = tuple_setter(State, "step", "turn", "turn_no")
_set_drawn = tuple_setter(State, "step", "held", "source", "stock", "pile", "acted")


def _turn_started(s: State, e: TurnStarted) -> State:
    return _set_turn(s, step=AWAIT, turn=e.seat, turn_no=e.turn_no)


def _drawn(s: State, e: CardDrawn) -> State:
    if e.source == "stock":
        card, stock, pile = s.stock[0], s.stock[1:], s.pile
    else:
        card, stock, pile = s.pile[-1], s.stock, s.pile[:-1]
    return _set_drawn(s, step=HOLDING, held=card, source=e.source, stock=stock, pile=pile,
                      acted=_with_seat(s.acted, e.seat))


def _kept(s: State, e: CardKept) -> State:
    lay = s.layouts[e.seat]
    old = lay.card(e.slot)
    assert old is not None and s.held is not None
    layouts = _set_layout(s.layouts, e.seat, lay.put(e.slot, s.held))
    nb = _placed(s.notebook, e.seat, e.slot, e.public)
    return _finish_turn(s, e.seat, layouts=layouts, pile=s.pile + (old,), notebook=nb)


def _released(s: State, e: CardReleased) -> State:
    s2 = replace(s, pile=s.pile + (e.card,), held=None)
    if e.power is not None:
        return replace(s2, step=POWER, power=e.power)
    return _finish_turn(s2, e.seat)


def _peeked(s: State, e: CardPeeked) -> State:
    return _finish_turn(s, e.seat, notebook=s.notebook.learn(e.seat, e.target[0], e.target[1]))


def _swapped(s: State, e: CardsSwapped) -> State:
    (pa, sa), (pb, sb) = e.a, e.b
    ca, cb = s.layouts[pa].card(sa), s.layouts[pb].card(sb)
    layouts = _set_layout(s.layouts, pa, s.layouts[pa].put(sa, cb))
    layouts = _set_layout(layouts, pb, layouts[pb].put(sb, ca))
    return _finish_turn(s, e.seat, layouts=layouts, notebook=s.notebook.swap((pa, sa), (pb, sb)))


def _power_skipped(s: State, e: PowerSkipped) -> State:
    return _finish_turn(s, e.seat)


def _turn_skipped(s: State, e: TurnSkipped) -> State:
    return _finish_turn(s, e.seat, skipped=True, acted=_with_seat(s.acted, e.seat))


def _called(s: State, e: CallMade) -> State:
    return _finish_turn(s, e.seat, caller=e.seat, acted=_with_seat(s.acted, e.seat))


def _shown(s: State, e: CardsShown) -> State:
    nb = s.notebook
    for owner, slot, _card in e.cards:
        nb = nb.learn(e.seat, owner, slot)
    peeked = s.peeked | {e.seat} if e.reason == "peek_bottom" else s.peeked
    return replace(s, notebook=nb, peeked=peeked)


def _reshuffled(s: State, e: StockReshuffled) -> State:
    assert e.order is not None and e.salt is not None
    return replace(s, stock=e.order, pile=s.pile[-1:],
                   orders=s.orders + ((e.shuffle_no, e.order, e.salt, e.commitment),))


def _dealt(s: State, e: RoundDealt) -> State:
    assert e.order is not None and e.salt is not None
    n = s.players
    layouts, stock, pile = deal_from(e.order, n, e.first_player, s.cfg.direction, e.penalty_seat)
    return replace(
        s, round=e.round, dealer=e.dealer, step=BETWEEN, turn=None, layouts=layouts, stock=stock, pile=pile,
        held=None, source=None, power=None, notebook=Notebook(), caller=None, turns_done=0, skip_streak=0,
        own_turns=(0,) * n, acted=frozenset(), peeked=frozenset(), penalty_seat=e.penalty_seat,
        orders=((0, e.order, e.salt, e.commitment),))


def _unchanged(s: State, e: TimeoutApplied | CallJudged) -> State:
    return s


def _revealed(s: State, e: RoundRevealed) -> State:
    return replace(s, step=REVEAL, turn=None)


def _scored(s: State, e: RoundScored) -> State:
    return replace(s, scores=e.cumulative, round_wins=e.round_wins, last_round=e.round_scores)


def _ended(s: State, e: GameEnded) -> State:
    return replace(s, step=OVER, turn=None, winners=e.winners)


def _multi_discard(s: State, e: ClaimResolved) -> State:
    """Discard the group, or keep it all and add the drawn card in a new slot."""
    seat, lay, held = e.actor, s.layouts[e.actor], s.held
    assert held is not None
    replace_slot, extra = e.targets[0], e.targets[1:]
    nb = s.notebook
    if e.outcome == "correct":
        out = tuple(lay.card(x) for x in extra) + (lay.card(replace_slot),)
        for x in extra:
            lay = lay.put(x, None)
            nb = nb.forget(seat, x)
        lay = lay.put(replace_slot, held)
        nb = _placed(nb, seat, replace_slot, e.drawn_public)
        return _finish_turn(s, seat, layouts=_set_layout(s.layouts, seat, lay),
                            pile=s.pile + tuple(c for c in out if c is not None), notebook=nb)
    if e.reveal != "none":
        who = PUBLIC if e.reveal == "public" else seat
        for slot in e.targets:
            nb = nb.learn(who, seat, slot)
    lay, new_slot = lay.add(held, e.new_slot)
    nb = _placed(nb, seat, new_slot, e.drawn_public)
    return _finish_turn(s, seat, layouts=_set_layout(s.layouts, seat, lay), notebook=nb)


_EVOLVERS: dict[type, Callable[[Any, Any], State]] = {
    GameStarted: _started, TurnStarted: _turn_started, CardDrawn: _drawn, CardKept: _kept,
    ClaimResolved: _multi_discard, CardReleased: _released, CardPeeked: _peeked, CardsSwapped: _swapped,
    PowerSkipped: _power_skipped, TurnSkipped: _turn_skipped, CallMade: _called, CardsShown: _shown,
    StockReshuffled: _reshuffled, RoundDealt: _dealt, TimeoutApplied: _unchanged, RoundRevealed: _revealed,
    CallJudged: _unchanged, RoundScored: _scored, GameEnded: _ended,
}

# decide folds the events it emits and the caller (the service after an append, the
# simulator) folds the very same objects again: see domain.memo.
MEMO: EvolveMemo[State] = EvolveMemo(_EVOLVERS)
evolve = MEMO.evolve
