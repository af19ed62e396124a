"""Cards, packs and card codes.

A card is written as ``"<rank><suit>"``: rank ``A 2 … 10 J Q K``, suit ``S H D C``
(``"10H"``, ``"KD"``); a joker is ``"JK"``. The Spanish pack of Pedro's ``spanish50``
profile uses ranks ``1``–``12`` and suits ``O C E B``. A card the viewer does not
know is ``None`` (``null`` in JSON). Cards are plain strings: identical copies from
two packs are interchangeable, and no card carries an identity beyond its code.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import cache

Card = str

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
JOKER: Card = "JK"
SPANISH_RANKS: tuple[str, ...] = tuple(str(n) for n in range(1, 13))
SPANISH_SUITS: tuple[str, ...] = ("O", "C", "E", "B")


@cache  # every deal asks for it again; the tuple is immutable
def french_pack(jokers: int = 0) -> tuple[Card, ...]:
    """One 52-card French pack in canonical order (suit-major, S H D C; A..K), plus jokers."""
    return tuple(r + s for s in SUITS for r in RANKS) + (JOKER,) * jokers


@cache
def spanish_pack(jokers: int = 0) -> tuple[Card, ...]:
    """One 48-card Spanish pack (1–12 in O C E B), plus jokers (comodines)."""
    return tuple(r + s for s in SPANISH_SUITS for r in SPANISH_RANKS) + (JOKER,) * jokers


def packs(one_pack: tuple[Card, ...], count: int) -> tuple[Card, ...]:
    """``count`` full copies of a pack, concatenated in canonical order."""
    return one_pack * count


def is_joker(card: Card) -> bool:
    return card == JOKER


def rank(card: Card) -> str:
    """The rank part of a card code (``"10H"`` → ``"10"``); a joker's rank is ``"JK"``."""
    return card if card == JOKER else card[:-1]


def suit(card: Card) -> str | None:
    """The suit letter, or ``None`` for a joker."""
    return None if card == JOKER else card[-1]


def rank_index(card: Card) -> int:
    """Position of a French rank, A = 1 … K = 13 (jokers raise ``ValueError``)."""
    return RANKS.index(rank(card)) + 1


def is_card_code(value: object) -> bool:
    """True for any well-formed French or Spanish card code, or the joker."""
    if not isinstance(value, str):
        return False
    if value == JOKER:
        return True
    r, s = value[:-1], value[-1:]
    return (r in RANKS and s in SUITS) or (r in SPANISH_RANKS and s in SPANISH_SUITS)


def same_multiset(a: Iterable[Card], b: Iterable[Card]) -> bool:
    """Card conservation is checked as a multiset: identical copies are interchangeable."""
    return Counter(a) == Counter(b)
