"""Corte: ``evolve(state, event) -> state``. It never validates; it only applies facts.

Knowledge (the notebook) is updated here too, so that replay rebuilds the
same view: a seat learns what an event showed it, and knowledge follows public moves.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain import order_evolve, orders
from domain.frozen import tuple_setter
from domain.memo import EvolveMemo
from domain.messages import (
    CardDrawn,
    GameEnded,
    GameStarted,
    Passed,
    TimeoutApplied,
    WindowClosed,
    WindowOpened,
)
from domain.rules.corte.events import (
    CallMade,
    CardDiscarded,
    CardGiven,
    CardsPeeked,
    CardsSwapped,
    ClaimResolved,
    DrawSkipped,
    FinalWindowEnded,
    FinalWindowStarted,
    KingKept,
    PeekChosen,
    PenaltyCardDealt,
    PowerSkipped,
    RoundDealt,
    RoundRevealed,
    RoundScored,
    StockReshuffled,
    TurnEnded,
    TurnSkipped,
    WindowWon,
)
from domain.rules.corte.model import (
    AWAIT_ACTION,
    FINAL_LAP,
    FINAL_WINDOW,
    GAME_OVER,
    HOLDING,
    INITIAL_PEEK,
    KING_DECIDE,
    POWER,
    ORDER_CLAIMS,
    ROUND_SETUP,
    TURNS,
    Opts,
    State,
    with_,
)
from domain.table import BASE_SLOTS, Layout, Notebook, Window


def _started(_: State | None, e: GameStarted) -> State:
    opts = Opts.of(e.options, e.players)
    n = e.players
    return State(
        players=n, opts=opts, options=tuple(sorted(e.options.items())), first_dealer=e.first_dealer,
        round=0, dealer=e.first_dealer, scores=(0,) * n, last_scores=None, phase=ROUND_SETUP, turn=None,
        step=None, turn_no=0, held=None, power=None, king=None, layouts=(), stock=(), pile=(), window=None,
        window_seq=0, notebook=Notebook(), peeked=frozenset(), caller=None, own_turns=(0,) * n, skips=0,
        shuffles=(), winners=None, book=orders.new_book(n))


def _dealt(s: State, e: RoundDealt) -> State:
    n = s.players
    order = e.order or ()
    # Round-robin from the first player, as at a table: the k-th card dealt goes to the
    # (k mod n)-th seat after the dealer, into slot k div n.
    seats = [(e.first_player + s.opts.direction * i) % n for i in range(n)]
    hands: list[list[str]] = [[] for _ in range(n)]
    for k in range(4 * n):
        hands[seats[k % n]].append(order[k])
    rest = order[4 * n:]
    pile: tuple[str, ...] = ()
    if e.upcard is not None:
        pile, rest = (rest[0],), rest[1:]
    return with_(
        s, round=e.round, dealer=e.dealer, phase=INITIAL_PEEK, turn=e.first_player, step=None, turn_no=0,
        held=None, power=None, king=None, layouts=tuple(Layout.dealt(h, BASE_SLOTS) for h in hands),
        stock=rest, pile=pile, window=None, notebook=Notebook(), peeked=frozenset(), caller=None,
        own_turns=(0,) * n, skips=0, shuffles=((0, order, e.salt or "", e.commitment),),
        book=orders.new_round(s.book))


_set_peeked = tuple_setter(State, "notebook", "peeked")


def _peek(s: State, e: PeekChosen) -> State:
    nb = s.notebook
    for slot in e.slots:
        nb = nb.learn(e.seat, e.seat, slot)
    peeked = s.peeked | {e.seat}
    if len(peeked) < s.players:
        return _set_peeked(s, notebook=nb, peeked=peeked)
    return with_(s, notebook=nb, peeked=peeked, phase=TURNS, step=AWAIT_ACTION, turn_no=1)


def _call(s: State, e: CallMade) -> State:
    return with_(s, caller=e.seat, phase=FINAL_LAP, skips=0)


def _reshuffled(s: State, e: StockReshuffled) -> State:
    order = e.order or ()
    return with_(s, stock=order, pile=s.pile[-1:],
                   shuffles=s.shuffles + ((e.shuffle_no, order, e.salt or "", e.commitment),))


# Setters for the steps of every turn (domain.frozen.tuple_setter: cheaper than with_).
_set_drawn = tuple_setter(State, "held", "stock", "step")
_set_window = tuple_setter(State, "window")
_set_discarded = tuple_setter(State, "layouts", "notebook", "pile", "held", "power", "step", "skips")
_set_power_done = tuple_setter(State, "step", "power", "king")
_set_opened = tuple_setter(State, "window", "window_seq")
_set_turn = tuple_setter(State, "turn", "turn_no", "step", "held", "power", "king", "own_turns")


def _drawn(s: State, e: CardDrawn) -> State:
    return _set_drawn(s, held=s.stock[0], stock=s.stock[1:], step=HOLDING)


def _skipped(s: State, e: TurnSkipped) -> State:
    return with_(s, skips=s.skips + 1)


def _window_closed(s: State, e: WindowClosed) -> State:
    return _set_window(s, window=None)


def _discarded(s: State, e: CardDiscarded) -> State:
    layouts, nb = s.layouts, s.notebook
    if e.slot is not None:  # Replace: the drawn card goes face down where the discarded one was
        layouts = _put(layouts, e.seat, e.slot, s.held)
        nb = nb.forget(e.seat, e.slot).learn(e.seat, e.seat, e.slot)
    step = POWER if e.power is not None else None  # None: the turn is ending (until TurnEnded)
    return _set_discarded(s, layouts=layouts, notebook=nb, pile=s.pile + (e.card,), held=None, power=e.power,
                          step=step, skips=0)


def _peeked(s: State, e: CardsPeeked) -> State:
    nb = s.notebook
    for owner, slot in e.targets:
        nb = nb.learn(e.seat, owner, slot)
    if e.power == "K":
        (_, own_slot), (rival, rival_slot) = e.targets
        return with_(s, notebook=nb, step=KING_DECIDE, king=(own_slot, rival, rival_slot))
    return with_(s, notebook=nb, step=None, power=None)


def _swapped(s: State, e: CardsSwapped) -> State:
    (oa, sa), (ob, sb) = e.a, e.b
    ca, cb = s.layouts[oa].card(sa), s.layouts[ob].card(sb)
    layouts = _put(_put(s.layouts, oa, sa, cb), ob, sb, ca)
    return with_(s, layouts=layouts, notebook=s.notebook.swap((oa, sa), (ob, sb)), step=None, power=None,
                   king=None)


def _power_done(s: State, e: KingKept | PowerSkipped) -> State:
    return _set_power_done(s, step=None, power=None, king=None)


def _window_opened(s: State, e: WindowOpened) -> State:
    return _set_opened(s, window=Window(e.window_id, e.card), window_seq=e.window_id)


def _turn_ended(s: State, e: TurnEnded) -> State:
    own = s.own_turns
    own = own[:e.seat] + (own[e.seat] + 1,) + own[e.seat + 1:]
    return _set_turn(s, turn=e.next_seat, turn_no=e.turn_no, step=AWAIT_ACTION, held=None, power=None,
                     king=None, own_turns=own)


def _claim(s: State, e: ClaimResolved) -> State:
    if e.outcome == "correct":
        owner, slot = e.targets[0]
        card = s.layouts[owner].card(slot)
        return with_(s, layouts=_put(s.layouts, owner, slot, None), pile=s.pile + (card,),
                       notebook=s.notebook.forget(owner, slot))
    nb = s.notebook
    for owner, slot in e.targets:
        if e.reveal == "public":
            nb = nb.learn_all(range(s.players), owner, slot)
        elif e.reveal == "snapper_only":
            nb = nb.learn(e.actor, owner, slot)
    return with_(s, notebook=nb)


def _won(s: State, e: WindowWon) -> State:
    return _set_window(s, window=s.window.won(e.seat) if s.window else None)


def _given(s: State, e: CardGiven) -> State:
    dst = (e.rival, e.rival_slot)
    if e.source == "layout" and e.from_slot is not None:
        card = s.layouts[e.snapper].card(e.from_slot)
        layouts = _put(_put(s.layouts, e.snapper, e.from_slot, None), e.rival, e.rival_slot, card)
        return with_(s, layouts=layouts, notebook=s.notebook.move((e.snapper, e.from_slot), dst))
    layouts = _put(s.layouts, e.rival, e.rival_slot, s.stock[0])
    return with_(s, layouts=layouts, stock=s.stock[1:], notebook=s.notebook.forget(*dst))


def _penalty(s: State, e: PenaltyCardDealt) -> State:
    card = s.stock[0]
    lay = s.layouts[e.seat]
    lay = lay.add(card, e.slot)[0] if e.new_slot else lay.put(e.slot, card)
    nb = s.notebook.forget(e.seat, e.slot)
    if e.visible_to_owner:
        nb = nb.learn(e.seat, e.seat, e.slot)
    return with_(s, layouts=s.layouts[:e.seat] + (lay,) + s.layouts[e.seat + 1:], stock=s.stock[1:],
                   notebook=nb)


def _final_started(s: State, e: FinalWindowStarted) -> State:
    w = s.window
    return with_(s, phase=FINAL_WINDOW, turn=None, step=None,
                   window=w.as_final() if w is not None else None)


def _passed(s: State, e: Passed) -> State:
    return _set_window(s, window=s.window.pass_(e.seat) if s.window else None)


def _final_ended(s: State, e: FinalWindowEnded) -> State:
    return _set_window(s, window=None)


def _revealed(s: State, e: RoundRevealed) -> State:
    return with_(s, window=None, turn=None, step=None, held=None, power=None, king=None)


def _scored(s: State, e: RoundScored) -> State:
    return with_(s, scores=e.cumulative, last_scores=e.round_scores)


def _ended(s: State, e: GameEnded) -> State:
    return with_(s, phase=GAME_OVER, winners=e.winners, turn=None, step=None)


def _noop(s: State, e: Any) -> State:
    return s


def _put(layouts: tuple[Layout, ...], owner: int, slot: str, card: str | None) -> tuple[Layout, ...]:
    return layouts[:owner] + (layouts[owner].put(slot, card),) + layouts[owner + 1:]


_EVOLVERS: dict[type, Callable[[Any, Any], State]] = {
    GameStarted: _started, RoundDealt: _dealt, PeekChosen: _peek, TimeoutApplied: _noop, CallMade: _call,
    StockReshuffled: _reshuffled, CardDrawn: _drawn, TurnSkipped: _skipped, WindowClosed: _window_closed,
    CardDiscarded: _discarded, CardsPeeked: _peeked, CardsSwapped: _swapped, KingKept: _power_done,
    PowerSkipped: _power_done, WindowOpened: _window_opened, TurnEnded: _turn_ended, ClaimResolved: _claim,
    WindowWon: _won, CardGiven: _given, PenaltyCardDealt: _penalty, DrawSkipped: _noop,
    FinalWindowStarted: _final_started, Passed: _passed, FinalWindowEnded: _final_ended,
    RoundRevealed: _revealed, RoundScored: _scored, GameEnded: _ended,
    **order_evolve.evolvers(ORDER_CLAIMS, tuple_setter(State, "book")),
}


# decide folds its own events as it goes (flow.Out) and the caller folds the same
# objects again (see domain.memo); only the last command's events are ever looked up again.
MEMO: EvolveMemo[State] = EvolveMemo(_EVOLVERS)
evolve = MEMO.evolve  # the state after ``event`` (``state`` is ``None`` before ``GameStarted``)
