"""4 Cartas: ``evolve(state, event) -> state``. It never validates (decide did)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain import order_evolve, orders
from domain.frozen import tuple_setter
from domain.memo import EvolveMemo
from domain.messages import (
    CardDrawn, CardsSwapped, GameEnded, GameStarted, Passed, TimeoutApplied, TurnSkipped, TurnStarted,
    WindowClosed, WindowOpened,
)
from domain.rules.cuatro_cartas.events import (
    CallMade, CardDiscarded, CardReplaced, CardsLooked, ClaimResolved, FinalWindowOpened, PeekChosen,
    PenaltyCardDealt, PenaltySkipped, PowerFizzled, PowerSkipped, PowerStarted, RoundDealt, RoundRevealed,
    RoundScored, StockReshuffled, SwapDeclined, WindowWon,
)
from domain.rules.cuatro_cartas.model import BASE_SLOTS_N, ORDER_CLAIMS, Opts, State, with_
from domain.table import BASE_SLOTS, Layout, Window


def _game_started(_: State | None, e: GameStarted) -> State:
    return State(players=e.players, opts=Opts.of(e.options), options=dict(e.options), first_dealer=e.first_dealer,
                 scores=(0,) * e.players, book=orders.new_book(e.players))


def _round_dealt(s: State, e: RoundDealt) -> State:
    assert e.order is not None, "RoundDealt needs its order to be folded (server-side replay only)"
    n = s.players
    # One card at a time, clockwise from the dealer's left.
    hands: list[list[str]] = [[] for _ in range(n)]
    for i in range(BASE_SLOTS_N * n):
        hands[(e.dealer + 1 + i) % n].append(e.order[i])
    up = BASE_SLOTS_N * n
    return with_(s, round=e.round, dealer=e.dealer, phase="INITIAL_PEEK", step=None, turn=None, turn_no=0,
        layouts=tuple(Layout(BASE_SLOTS, tuple(h)) for h in hands), stock=e.order[up + 1:], pile=(e.order[up],),
        held=None, held_source=None, power=None, power_returns=False, close_pending=False, window=None,
        known=((0,) * BASE_SLOTS_N,) * n, peeked=frozenset(), closer=None, skip_run=0, shuffle_no=0,
        orders=((0, e.order, e.salt, e.commitment),), book=orders.new_round(s.book),
    )


# Setters for the steps of every turn (domain.frozen.tuple_setter: cheaper than with_).
_set_peeked = tuple_setter(State, "peeked", "known")
_set_turn = tuple_setter(State, "phase", "turn", "turn_no", "step", "held", "held_source", "power", "power_returns",
                         "close_pending")
_set_drawn_stock = tuple_setter(State, "step", "held", "held_source", "stock", "skip_run")
_set_drawn_pile = tuple_setter(State, "step", "held", "held_source", "pile", "skip_run")
_set_discarded = tuple_setter(State, "step", "held", "held_source", "pile")
_set_replaced = tuple_setter(State, "step", "held", "held_source", "pile", "layouts", "known")
_set_power = tuple_setter(State, "step", "power", "power_returns", "close_pending")
_set_power_over = tuple_setter(State, "step", "power", "power_returns")
_set_window = tuple_setter(State, "window")
_set_opened = tuple_setter(State, "window", "last_window_id")
_set_claimed = tuple_setter(State, "layouts", "known", "pile")


def _peek_chosen(s: State, e: PeekChosen) -> State:
    known = s.known
    for slot in e.slots:
        known = _learn(s, known, 1 << e.seat, e.seat, slot)
    return _set_peeked(s, peeked=s.peeked | {e.seat}, known=known)


def _turn_started(s: State, e: TurnStarted) -> State:
    phase = "FINAL_LAP" if s.closer is not None else "TURNS"
    return _set_turn(s, phase=phase, turn=e.seat, turn_no=e.turn_no, step="AWAIT_ACTION", held=None,
                     held_source=None, power=None, power_returns=False, close_pending=False)


def _timeout(s: State, _: TimeoutApplied) -> State:
    return s


def _card_drawn(s: State, e: CardDrawn) -> State:
    if e.source == "stock":
        return _set_drawn_stock(s, step="HOLDING", held=s.stock[0], held_source="stock", stock=s.stock[1:],
                                skip_run=0)
    return _set_drawn_pile(s, step="HOLDING", held=s.pile[-1], held_source="discard", pile=s.pile[:-1], skip_run=0)


def _card_discarded(s: State, e: CardDiscarded) -> State:
    return _set_discarded(s, step=None, held=None, held_source=None, pile=s.pile + (e.card,))


def _card_replaced(s: State, e: CardReplaced) -> State:
    seat, held = e.seat, s.held
    assert held is not None
    lay = s.layouts[seat].put(e.slot, held)
    # A card taken from the pile was seen by everyone; a stock card only by its drawer.
    mask = 1 << seat if s.held_source == "stock" else (1 << s.players) - 1
    known = _put(s.known, seat, lay.slots.index(e.slot), mask)
    return _set_replaced(s, step=None, held=None, held_source=None, pile=s.pile + (e.card,),
                         layouts=_set(s.layouts, seat, lay), known=known)


def _power_started(s: State, e: PowerStarted) -> State:
    return _set_power(s, step="POWER_LOOK", power=e.rank, power_returns=e.returns, close_pending=e.close_after)


def _power_over(s: State) -> State:
    return _set_power_over(s, step="AWAIT_ACTION" if s.power_returns else None, power=None, power_returns=False)


def _power_fizzled(s: State, _: PowerFizzled) -> State:
    return _power_over(s)


def _cards_looked(s: State, e: CardsLooked) -> State:
    known = s.known
    for owner, slot in e.targets:
        known = _learn(s, known, 1 << e.seat, owner, slot)
    s = with_(s, known=known)
    if s.power == "Q":
        return _power_over(s)
    return with_(s, step="POWER_SWAP")


def _power_skipped(s: State, _: PowerSkipped) -> State:
    return _power_over(s)


def _cards_swapped(s: State, e: CardsSwapped) -> State:
    (sa, la), (sb, lb) = e.a, e.b
    ia, ib = s.layouts[sa].slots.index(la), s.layouts[sb].slots.index(lb)
    ca, cb = s.layouts[sa].cards[ia], s.layouts[sb].cards[ib]
    lays = _set(s.layouts, sa, s.layouts[sa].put(la, cb))
    lays = _set(lays, sb, lays[sb].put(lb, ca))
    # Everyone watched the swap: knowledge follows each card.
    ka, kb = s.known[sa][ia], s.known[sb][ib]
    known = _put(_put(s.known, sa, ia, kb), sb, ib, ka)
    return _power_over(with_(s, layouts=lays, known=known))


def _swap_declined(s: State, _: SwapDeclined) -> State:
    return _power_over(s)


def _window_opened(s: State, e: WindowOpened) -> State:
    return _set_opened(s, window=Window(e.window_id, e.card), last_window_id=e.window_id)


def _window_closed(s: State, _: WindowClosed) -> State:
    return _set_window(s, window=None)


def _window_won(s: State, e: WindowWon) -> State:
    assert s.window is not None
    return _set_window(s, window=s.window.won(e.by))


def _final_window(s: State, _: FinalWindowOpened) -> State:
    assert s.window is not None
    return with_(s, phase="FINAL_WINDOW", turn=None, step=None, window=s.window.as_final())


def _passed(s: State, e: Passed) -> State:
    assert s.window is not None
    return _set_window(s, window=s.window.pass_(e.seat))


def _claim(s: State, e: ClaimResolved) -> State:
    lays, known, pile = s.layouts, s.known, s.pile
    if e.outcome == "correct":
        for owner, slot in e.targets:
            pile = pile + (lays[owner].card(slot),)  # type: ignore[operator]
            lays = _set(lays, owner, lays[owner].put(slot, None))
            known = _put(known, owner, lays[owner].slots.index(slot), 0)
        if e.kind == "match_rival" and e.give_slot is not None:
            (rival, rslot), me = e.targets[0], e.actor
            gi, ri = lays[me].slots.index(e.give_slot), lays[rival].slots.index(rslot)
            lays = _set(lays, rival, lays[rival].put(rslot, lays[me].cards[gi]))
            lays = _set(lays, me, lays[me].put(e.give_slot, None))
            known = _put(_put(known, rival, ri, known[me][gi]), me, gi, 0)  # knowledge follows the card
    elif e.revealed_to != "nobody":
        mask = (1 << s.players) - 1 if e.revealed_to == "all" else 1 << e.actor
        for owner, slot in e.targets:
            known = _learn(s, known, mask, owner, slot)
    return _set_claimed(s, layouts=lays, known=known, pile=pile)


def _penalty(s: State, e: PenaltyCardDealt) -> State:
    lay = s.layouts[e.seat]
    card = s.stock[0]
    mask = 1 << e.seat if e.visible_to_owner else 0
    if lay.has_slot(e.slot):
        lay = lay.put(e.slot, card)
        known = _put(s.known, e.seat, lay.slots.index(e.slot), mask)
    else:
        lay = lay.add(card, e.slot)[0]
        known = s.known[:e.seat] + (s.known[e.seat] + (mask,),) + s.known[e.seat + 1:]
    return with_(s, layouts=_set(s.layouts, e.seat, lay), stock=s.stock[1:], known=known)


def _penalty_skipped(s: State, _: PenaltySkipped) -> State:
    return s


def _reshuffled(s: State, e: StockReshuffled) -> State:
    assert e.order is not None
    return with_(s, stock=e.order, pile=s.pile[-1:], shuffle_no=e.shuffle_no,
                   orders=s.orders + ((e.shuffle_no, e.order, e.salt, e.commitment),))


def _call_made(s: State, e: CallMade) -> State:
    return with_(s, closer=e.seat, phase="FINAL_LAP", close_pending=False, skip_run=0)


def _turn_skipped(s: State, _: TurnSkipped) -> State:
    return with_(s, step=None, skip_run=s.skip_run + 1)


def _revealed(s: State, _: RoundRevealed) -> State:
    return with_(s, window=None, step=None, turn=None, phase="REVEAL")


def _scored(s: State, e: RoundScored) -> State:
    return with_(s, scores=e.cumulative, last_round=e.round_scores)


def _game_ended(s: State, e: GameEnded) -> State:
    return with_(s, phase="GAME_OVER", winners=e.winners)


def _set(lays: tuple[Layout, ...], seat: int, lay: Layout) -> tuple[Layout, ...]:
    return lays[:seat] + (lay,) + lays[seat + 1:]


def _put(known: tuple[tuple[int, ...], ...], owner: int, i: int, mask: int) -> tuple[tuple[int, ...], ...]:
    row = known[owner]
    return known[:owner] + (row[:i] + (mask,) + row[i + 1:],) + known[owner + 1:]


def _learn(s: State, known: tuple[tuple[int, ...], ...], mask: int, owner: int,
           slot: str) -> tuple[tuple[int, ...], ...]:
    i = s.layouts[owner].slots.index(slot)
    return _put(known, owner, i, known[owner][i] | mask)


_HANDLERS: dict[type, Callable[[Any, Any], State]] = {
    GameStarted: _game_started, RoundDealt: _round_dealt, PeekChosen: _peek_chosen, TurnStarted: _turn_started,
    TimeoutApplied: _timeout, CardDrawn: _card_drawn, CardDiscarded: _card_discarded, CardReplaced: _card_replaced,
    PowerStarted: _power_started, PowerFizzled: _power_fizzled, CardsLooked: _cards_looked,
    PowerSkipped: _power_skipped, CardsSwapped: _cards_swapped, SwapDeclined: _swap_declined,
    WindowOpened: _window_opened, WindowClosed: _window_closed, WindowWon: _window_won,
    FinalWindowOpened: _final_window, Passed: _passed, ClaimResolved: _claim, PenaltyCardDealt: _penalty,
    PenaltySkipped: _penalty_skipped, StockReshuffled: _reshuffled, CallMade: _call_made,
    TurnSkipped: _turn_skipped, RoundRevealed: _revealed, RoundScored: _scored, GameEnded: _game_ended,
    **order_evolve.evolvers(ORDER_CLAIMS, tuple_setter(State, "book")),
}


# decide() folds every event it emits and the caller folds the same objects again (see
# domain.memo: only the last command's steps are kept).
MEMO: EvolveMemo[State] = EvolveMemo(_HANDLERS)
evolve = MEMO.evolve  # the state after ``event``
