"""Table mechanics shared by the layout games (Pedro, 4 Cartas, Corte).

* A **layout** is an ordered list of slots ``A B C D`` then ``E1, E2, …``; each slot
  holds one face-down card or is empty (``None``). Slots never move.
* The **notebook** records which seat can still locate which face-down card: a seat
  learns a location when it is shown the card there, the knowledge follows the card
  through public moves (swaps), and is lost when the card leaves unseen or is
  replaced. It is what ``common.memory = notebook`` shows.
* A **window** is a reaction window keyed to one discard.
* Stock and discard pile are tuples; index 0 of the stock is its top, the last item
  of the discard pile is its top.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from domain import chance
from domain.cards import Card
from domain.frozen import fast_init

BASE_SLOTS: tuple[str, ...] = ("A", "B", "C", "D")

Location = tuple[int, str]  # (owner seat, slot)


@fast_init
@dataclass(frozen=True, slots=True)
class Layout:
    """One player's slots, in slot order, each a card or ``None`` (empty)."""

    slots: tuple[str, ...]
    cards: tuple[Card | None, ...]

    @staticmethod
    def dealt(cards: Sequence[Card], slots: Sequence[str] = BASE_SLOTS) -> Layout:
        return Layout(tuple(slots), tuple(cards))

    def card(self, slot: str) -> Card | None:
        return self.cards[self.slots.index(slot)]

    def has_slot(self, slot: str) -> bool:
        return slot in self.slots

    def is_occupied(self, slot: str) -> bool:
        return slot in self.slots and self.cards[self.slots.index(slot)] is not None

    # A full grid (the usual case) answers occupied/empty/present without a loop.

    def occupied(self) -> tuple[str, ...]:
        if None not in self.cards:
            return self.slots
        return tuple([s for s, c in zip(self.slots, self.cards) if c is not None])

    def has_cards(self) -> bool:
        """At least one slot holds a card (``bool(occupied())`` without listing them)."""
        return self.cards.count(None) < len(self.cards)

    def empty(self) -> tuple[str, ...]:
        if None not in self.cards:
            return ()
        return tuple([s for s, c in zip(self.slots, self.cards) if c is None])

    def put(self, slot: str, card: Card | None) -> Layout:
        i = self.slots.index(slot)
        return Layout(self.slots, self.cards[:i] + (card,) + self.cards[i + 1:])

    def next_extra_slot(self) -> str:
        """The next unused ``E<k>`` slot name."""
        k = 1
        while f"E{k}" in self.slots:
            k += 1
        return f"E{k}"

    def add(self, card: Card | None, slot: str | None = None) -> tuple[Layout, str]:
        """Append a new slot (the next ``E<k>`` unless named) holding ``card``."""
        name = slot or self.next_extra_slot()
        return Layout(self.slots + (name,), self.cards + (card,)), name

    def present(self) -> tuple[Card, ...]:
        if None not in self.cards:
            return self.cards  # type: ignore[return-value]
        return tuple([c for c in self.cards if c is not None])

    def total(self, value: Callable[[Card], int]) -> int:
        return sum(map(value, self.present()))


@fast_init
@dataclass(frozen=True, slots=True)
class Notebook:
    """Which seat can locate which face-down card: a set of (seat, owner, slot)."""

    entries: frozenset[tuple[int, int, str]] = frozenset()

    def knows(self, seat: int, owner: int, slot: str) -> bool:
        return (seat, owner, slot) in self.entries

    def learn(self, seat: int, owner: int, slot: str) -> Notebook:
        entry = (seat, owner, slot)
        return self if entry in self.entries else Notebook(self.entries | {entry})

    def learn_all(self, seats: Iterable[int], owner: int, slot: str) -> Notebook:
        new = {(s, owner, slot) for s in seats}
        return self if new <= self.entries else Notebook(self.entries | new)

    def _at(self, owner: int, slot: str) -> set[tuple[int, int, str]]:
        """The entries about (owner, slot); slot first: it rules out most entries."""
        return {e for e in self.entries if e[2] == slot and e[1] == owner}

    # The changes below take out (and put back) only the entries they touch, with set
    # operations, rather than rebuilding every entry in a loop; a change that touches
    # nothing returns the notebook itself.

    def forget(self, owner: int, slot: str) -> Notebook:
        """Nobody can locate what is now at (owner, slot): the card there changed unseen."""
        gone = self._at(owner, slot)
        return Notebook(self.entries - gone) if gone else self

    def move(self, src: Location, dst: Location) -> Notebook:
        """A card moved publicly from ``src`` to ``dst``: whoever knew it still does.

        What was known about ``dst`` is dropped (its old card is gone).
        """
        at_dst = self._at(*dst)
        at_src = self._at(*src) if src != dst else set()
        if not at_src and not at_dst:
            return self
        owner, slot = dst
        return Notebook((self.entries - at_src - at_dst) | {(seat, owner, slot) for seat, _, _ in at_src})

    def swap(self, a: Location, b: Location) -> Notebook:
        """Two cards exchanged publicly: knowledge follows each card."""
        if a == b:
            return self
        at_a, at_b = self._at(*a), self._at(*b)
        if not at_a and not at_b:
            return self
        return Notebook((self.entries - at_a - at_b) | {(seat, b[0], b[1]) for seat, _, _ in at_a}
                        | {(seat, a[0], a[1]) for seat, _, _ in at_b})


@fast_init
@dataclass(frozen=True, slots=True)
class Window:
    """A reaction window on one discard. ``won_by`` is set once a claim wins it."""

    id: int
    card: Card
    won_by: int | None = None
    final: bool = False
    passed: frozenset[int] = frozenset()

    # Built field by field: evolve runs these on every claim and pass, and
    # dataclasses.replace costs about ten times as much.
    def won(self, seat: int) -> Window:
        return Window(self.id, self.card, seat, self.final, self.passed)

    def pass_(self, seat: int) -> Window:
        return Window(self.id, self.card, self.won_by, self.final, self.passed | {seat})

    def as_final(self) -> Window:
        """The same window, now the final window F of the round."""
        return Window(self.id, self.card, self.won_by, True, self.passed)


def deal(key: bytes, round_no: int, pack: Sequence[Card]) -> tuple[Card, ...]:
    """The round's stock order: the canonical pack shuffled by the round's deal label."""
    return chance.shuffle(key, chance.shuffle_label(round_no, 0), pack)


def reshuffle(key: bytes, round_no: int, shuffle_no: int, cards: Sequence[Card]) -> tuple[Card, ...]:
    """A new stock from ``cards`` (the pile without its top), as the ``shuffle_no``-th reshuffle."""
    return chance.shuffle(key, chance.shuffle_label(round_no, shuffle_no), sorted(cards))


def commitment(key: bytes, round_no: int, shuffle_no: int, order: Sequence[Card]) -> tuple[str, str]:
    """(commitment hex, salt hex) for a shuffled order."""
    s = chance.salt(key, chance.shuffle_label(round_no, shuffle_no))
    return chance.commit(order, s), s.hex()


def next_seat(seat: int, players: int, direction: int, seated: Sequence[int] | None = None) -> int:
    """The next seat in ``direction`` (+1 clockwise, −1 counter-clockwise), skipping unseated."""
    nxt = (seat + direction) % players
    if seated is not None:
        while nxt not in seated:
            nxt = (nxt + direction) % players
    return nxt


def cards_on_table(stock: Sequence[Card], pile: Sequence[Card], layouts: Iterable[Layout],
                   held: Card | None) -> list[Card]:
    """Every card of a layout game, wherever it is: for the conservation check."""
    out = list(stock) + list(pile)
    for lay in layouts:
        out.extend(lay.present())
    if held is not None:
        out.append(held)
    return out
