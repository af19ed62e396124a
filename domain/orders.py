"""Standing snap orders: claims a seat leaves in advance, for the games with reaction windows.

A seat may leave private orders: "when a card of rank R lands on the discard pile, send this
claim". An order names the claim it will send (Corte ``SnapOwn`` / ``SnapRival``, 4 Cartas
``Match`` / ``MatchRival``) with the same fields, but no ``window_id``: ``PlaceOrder{rank,
claim, slot | rival + rival_slot, give_slot, penalty_to}``. How they work:

* **Blind.** Placing an order is checked on public facts only (the phase, the caller lock,
  the slots it names), like the claim it stands for; it is accepted whatever the cards, and
  it reveals nothing. Its ``order_id`` counts the seat's own orders over the game, so that
  an id tells its owner nothing of other seats' orders. One live order per claimed slot.
* **Firing.** When a window opens, in the same ``decide`` step, every live order whose rank
  is the window card's rank fires, in a fair order: the seats after the discarder in the
  direction of play (the discarder last; for the up-card's window, from the first player),
  each seat's orders in the order it placed them. A fired order is judged by the very code
  of a hand-sent claim, so right, wrong and late work as usual; it is then used up. An order
  whose claim would be refused on public facts now (a locked caller, a won window under a
  ``reject`` option) is cancelled instead. Orders fire before any hand-sent claim can arrive.
* **Cancelled** (with a private event to the owner): by ``CancelOrder{order_id}``; when a
  slot it names changes card (swap, replace, snap, a given card, a penalty card placed);
  when the round ends.
* **Private until the round ends.** Every order event is shown to its owner only (others
  get nothing, though they can see that the game's version moved); at the end of the
  round ``OrdersRevealed`` tells everyone which seats had orders, and the stored event,
  which the audit exports with the round, tells what each order was and what it did.

A ruleset keeps an :class:`OrderBook` in its state (field ``book``), emits through an
:class:`OrderEmitter`, and supplies its own claim classes and public checks.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from domain.cards import RANKS, rank
from domain.choices import entry, one_of
from domain.emitter import Emitter
from domain.errors import InvalidCommand, RuleError
from domain.frozen import fast_init
from domain.table import Location
from domain.windows import EMPTY_PREFIX

ORDER_KINDS = frozenset({"PlaceOrder", "CancelOrder"})
#: The claim fields an order may carry, in the order legal actions and views list them.
CLAIM_FIELDS = ("slot", "rival", "rival_slot", "give_slot", "penalty_to")

# -- commands ---------------------------------------------------------------------------------


@fast_init
@dataclass(frozen=True, slots=True)
class PlaceOrder:
    """Leave an order: ``claim`` (a claim type) with its fields, sent when ``rank`` is discarded."""

    rank: str
    claim: str
    slot: str | None = None
    rival: int | None = None
    rival_slot: str | None = None
    give_slot: str | None = None
    penalty_to: str | None = None


@fast_init
@dataclass(frozen=True, slots=True)
class CancelOrder:
    order_id: int


# -- events (each private to ``seat`` but OrdersRevealed) ----------------------------------------


@fast_init
@dataclass(frozen=True, slots=True)
class OrderPlaced:
    order_id: int
    seat: int
    rank: str
    claim: dict[str, Any]  # the claim it will send, without its window_id: {"type", ...fields}


@fast_init
@dataclass(frozen=True, slots=True)
class OrderCancelled:
    order_id: int
    seat: int
    reason: str  # by_owner | slot_changed | round_ended | not_claimable
    detail: str


@fast_init
@dataclass(frozen=True, slots=True)
class OrderFired:
    """The order sends its claim on ``window_id``; the events that follow judge it."""

    order_id: int
    seat: int
    window_id: int


@fast_init
@dataclass(frozen=True, slots=True)
class OrdersRevealed:
    round: int
    orders: tuple[dict[str, Any], ...]  # every order of the round; other seats see order_id and seat


EVENTS: tuple[type, ...] = (OrderPlaced, OrderCancelled, OrderFired, OrdersRevealed)
_PRIVATE = (OrderPlaced, OrderCancelled, OrderFired)

# -- state ----------------------------------------------------------------------------------------


@fast_init
@dataclass(frozen=True, slots=True)
class Order:
    """One order of the round; ``result`` is ``live`` until it fires or is cancelled."""

    order_id: int
    seat: int
    rank: str
    claim: Any  # the claim command, window_id 0 until it fires
    target: Location  # the slot it claims
    watches: tuple[Location, ...]  # every slot it names
    fields: tuple[tuple[str, Any], ...] = ()  # the claim's fields as placed (its JSON form, in order)
    result: str = "live"
    window_id: int | None = None


@fast_init
@dataclass(frozen=True, slots=True)
class OrderBook:
    """This round's orders: ``live`` ones in the order placed, ``done`` ones (fired or
    cancelled) for the round's end; and each seat's last order id."""

    live: tuple[Order, ...] = ()
    done: tuple[Order, ...] = ()
    seq: tuple[int, ...] = ()

    def live_of(self, seat: int) -> list[Order]:
        return [o for o in self.live if o.seat == seat]

    def find(self, seat: int, order_id: int) -> Order | None:
        return next((o for o in self.live if o.seat == seat and o.order_id == order_id), None)

    def due(self, card_rank: str, first: int, players: int, direction: int) -> list[Order]:
        """Live orders on ``card_rank`` in firing order: seats from ``first`` on, then by id."""
        hits = [o for o in self.live if o.rank == card_rank]
        if len(hits) > 1:
            hits.sort(key=lambda o: ((o.seat - first) * direction % players, o.order_id))
        return hits

    def watching(self, places: tuple[Location, ...]) -> list[Order]:
        where = set(places)
        return [o for o in self.live if not where.isdisjoint(o.watches)]

    def settle(self, seat: int, order_id: int, result: str, window_id: int | None = None) -> OrderBook:
        """The book once the live order ``order_id`` of ``seat`` has fired or been cancelled."""
        live = self.live
        i = 0
        for o in live:  # found in one pass, taken out by slicing (no second loop)
            if o.order_id == order_id and o.seat == seat:
                break
            i += 1
        else:
            raise ValueError(f"seat {seat} has no live order {order_id}")
        done = Order(o.order_id, o.seat, o.rank, o.claim, o.target, o.watches, o.fields, result, window_id)
        return OrderBook(live[:i] + live[i + 1:], self.done + (done,), self.seq)

    def round_orders(self) -> list[Order]:
        return sorted(self.live + self.done, key=lambda o: (o.seat, o.order_id))


def new_book(players: int) -> OrderBook:
    return OrderBook((), (), (0,) * players)


def new_round(book: OrderBook) -> OrderBook:
    return OrderBook((), (), book.seq)


# -- claims and their JSON forms ------------------------------------------------------------------


def order_json(o: Order) -> dict[str, Any]:
    """An order as its owner sees it in the view: its id and its ``PlaceOrder`` fields."""
    return {"order_id": o.order_id, "rank": o.rank, "claim": type(o.claim).__name__, **dict(o.fields)}


def claim_of(c: PlaceOrder, claim_types: Mapping[str, type]) -> tuple[Any, dict[str, Any]]:
    """The claim ``c`` stands for (window 0) and the fields it was given, or 422 for a rank, a
    type or fields that do not fit."""
    if c.rank not in RANKS:
        raise InvalidCommand(f"rank must be one of {list(RANKS)}, not {c.rank!r}")
    cls = claim_types.get(c.claim)
    if cls is None:
        raise InvalidCommand(f"an order sends one of {sorted(claim_types)}, not {c.claim!r}")
    given = {k: v for k in CLAIM_FIELDS if (v := getattr(c, k)) is not None}
    takes, needs = _shape(cls)
    if not needs <= given.keys() <= takes:
        extra, missing = sorted(given.keys() - takes), sorted(needs - given.keys())
        raise InvalidCommand(f"a {c.claim} order takes {sorted(takes)}"
                             + (f"; not {extra}" if extra else "") + (f"; {missing} missing" if missing else ""))
    return cls(0, **given), given


@cache
def _shape(cls: type) -> tuple[frozenset[str], frozenset[str]]:
    """The fields a claim class takes but its window, and those it needs."""
    fields = [f for f in dataclasses.fields(cls) if f.name != "window_id"]
    return frozenset(f.name for f in fields), frozenset(f.name for f in fields if f.default is dataclasses.MISSING)


def locations(seat: int, claim: Any) -> tuple[Location, tuple[Location, ...]]:
    """(the slot the claim claims, every slot it names: that one, a give_slot, a penalty_to slot)."""
    rival = getattr(claim, "rival", None)
    target = (seat, claim.slot) if rival is None else (rival, claim.rival_slot)
    named = [target]
    give = getattr(claim, "give_slot", None)
    if give is not None:
        named.append((seat, give))
    pen = getattr(claim, "penalty_to", None)
    if pen is not None and pen.startswith(EMPTY_PREFIX):
        named.append((seat, pen[len(EMPTY_PREFIX):]))
    return target, tuple(named)


# -- decide ---------------------------------------------------------------------------------------

Check = Callable[[Any, int, Any], Any]  # (state, seat, claim) -> the judge's arguments, or RuleError
Judge = Callable[[Any, int, Any], None]  # (emitter, seat, those arguments)


# (id of a PlaceOrder, seat) -> (it, its claim types, claim, fields given, target): the parser
# hands out the same command object for the same JSON, so most orders are built once
_PLACING: dict[tuple[int, int], tuple[Any, ...]] = {}


def place(em: Emitter, seat: int, c: PlaceOrder, claim_types: Mapping[str, type], check: Check) -> None:
    """Accept an order on its public checks alone (``check``, the claim's own but the window's)."""
    hit = _PLACING.get((id(c), seat))
    if hit is not None and hit[0] is c and hit[1] is claim_types:
        _, _, claim, given, target = hit
    else:
        claim, given = claim_of(c, claim_types)
        target = locations(seat, claim)[0]
        if len(_PLACING) >= 1024:
            _PLACING.clear()
        _PLACING[id(c), seat] = (c, claim_types, claim, given, target)  # holds c: its id stays its own
    check(em.s, seat, claim)
    book: OrderBook = em.s.book
    if any(o.target == target for o in book.live if o.seat == seat):
        raise InvalidCommand("you already have an order on that slot; cancel it first", code="order_exists")
    em.emit(OrderPlaced(book.seq[seat] + 1, seat, c.rank, {"type": c.claim, **given}))


def cancel(em: Emitter, seat: int, c: CancelOrder) -> None:
    if em.s.book.find(seat, c.order_id) is None:
        raise InvalidCommand(f"you have no live order {c.order_id}", code="no_order")
    em.emit(OrderCancelled(c.order_id, seat, "by_owner", "cancelled by its owner"))


def fire(em: Emitter, first: int, direction: int, check: Check, judge: Judge) -> None:
    """The window just opened: fire the orders on its rank, in the fair order (module docstring)."""
    s = em.s
    w = s.window
    if not s.book.live or w is None:
        return
    book = s.book
    for order in book.due(rank(w.card), first, s.players, direction):
        now = em.s.book
        if now is not book and not any(o is order for o in now.live):
            continue  # cancelled by what an earlier order did
        claim = _on_window(order.claim, w.id)
        try:
            args = check(em.s, order.seat, claim)
        except RuleError as exc:  # public facts only, as for a hand-sent claim
            em.emit(OrderCancelled(order.order_id, order.seat, "not_claimable", f"{exc.code}: {exc.detail}"))
            continue
        em.emit(OrderFired(order.order_id, order.seat, w.id))
        judge(em, order.seat, args)


def _on_window(claim: Any, window_id: int) -> Any:
    """The claim naming ``window_id`` (every claim class has ``window_id`` first)."""
    cls: Any = type(claim)
    return cls(window_id, *[getattr(claim, f) for f in _after_window(cls)])


@cache
def _after_window(cls: Any) -> tuple[str, ...]:
    names = tuple(f.name for f in dataclasses.fields(cls))
    assert names[0] == "window_id"
    return names[1:]


def close_round(em: Emitter) -> None:
    """The round ends: cancel what is live, then tell everyone which seats had orders."""
    book: OrderBook = em.s.book
    if not book.live and not book.done:
        return
    for o in book.live:
        em.emit(OrderCancelled(o.order_id, o.seat, "round_ended", "the round ended"))
    em.emit(OrdersRevealed(em.s.round, tuple(
        {"seat": o.seat, **order_json(o), "result": o.result, "window_id": o.window_id}
        for o in em.s.book.round_orders())))


Moved = Callable[[Any], tuple[Location, ...]]  # an event -> the slots whose card it changes


def cancelling(moves: Mapping[type, Moved]) -> dict[type, Callable[[Any, Any], None]]:
    """Emitter hooks (``Emitter.hooks``) that cancel the live orders naming a slot whose card
    the event changes; ``moves`` says which slots each event class changes."""

    def hook(moved: Moved) -> Callable[[Any, Any], None]:
        def cancel_watching(em: Any, event: Any) -> None:
            book: OrderBook = em.s.book
            if book.live and (places := moved(event)):  # most discards and claims move no slot
                for o in book.watching(places):
                    em.emit(OrderCancelled(o.order_id, o.seat, "slot_changed", "a slot it names changed card"))
        return cancel_watching

    return {cls: hook(moved) for cls, moved in moves.items()}


class OrderEmitter(Emitter):
    """An emitter whose ``hooks`` cancel the orders an event makes void (:func:`cancelling`),
    and which fires the orders of a window as it opens.

    :meth:`window_opened` is the ruleset's: it calls :func:`fire` with its claims' checks and
    judgement, which build on the module that opens windows.
    """

    __slots__ = ()

    def window_opened(self, first: int) -> None:
        """Fire the orders on the window that has just opened, from seat ``first`` on."""
        raise NotImplementedError("use the emitter of the ruleset's decide, which fires orders")


# -- view, redact, legal actions (the evolve steps: domain.order_evolve) ----------------------------------------------------------


def view_orders(book: OrderBook, seat: int | None) -> list[dict[str, Any]]:
    """The seat's own live orders (nobody else's)."""
    return [] if seat is None else [order_json(o) for o in book.live_of(seat)]


def redact(event: Any, seat: int | None, typed: dict[str, Any]) -> dict[str, Any] | None:
    """An order event as ``seat`` may see it (``typed`` is its JSON form)."""
    if isinstance(event, _PRIVATE):
        return typed if seat == event.seat else None
    typed["orders"] = [o if o["seat"] == seat else {"order_id": o["order_id"], "seat": o["seat"]}
                       for o in typed["orders"]]
    return typed


#: The fields of the order commands that ``legal_actions`` may list with choices (:mod:`domain.choices`).
CHOICE_FIELDS: dict[str, tuple[str, ...]] = {"PlaceOrder": ("rank", *CLAIM_FIELDS), "CancelOrder": ("order_id",)}
#: One ``PlaceOrder`` form a ruleset offers: the claim, its fields as listed, and their choices.
Form = tuple[str, dict[str, Any], dict[str, Any]]


def unclaimed(book: OrderBook, seat: int, owner: int, slots: Iterable[str]) -> list[str]:
    """``slots`` of ``owner`` that no live order of ``seat`` claims yet (one order per slot)."""
    taken = {o.target for o in book.live_of(seat)}
    return [x for x in slots if (owner, x) not in taken]


def actions(book: OrderBook, seat: int, forms: Iterable[Form]) -> list[dict[str, Any]]:
    """One ``PlaceOrder`` entry per form, on any rank (:mod:`domain.choices`), then one
    ``CancelOrder`` entry naming every live order of the seat."""
    out = [entry({"type": "PlaceOrder", "rank": RANKS[0], "claim": claim, **fields}, rank=one_of(RANKS), **picks)
           for claim, fields, picks in forms]
    live = [o.order_id for o in book.live_of(seat)]
    if live:
        out.append(entry({"type": "CancelOrder", "order_id": live[0]}, order_id=one_of(live)))
    return out
