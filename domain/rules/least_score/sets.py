"""Least Score: card values and the legal discard sets.

Sets are judged on the player's own cards only, so this is ordinary validation
(422 when illegal), never a blind claim. Everything here is a pure function of a
tuple of card codes and the three options that shape sets; results are cached by the
sorted hand because a hand never holds more than 5 cards and the same hands recur.

Decisions where the rules on sets are silent (see also the package docstring):

* jokers (``least.jokers``) are wild only inside a run and need a natural card there;
  two jokers make a pair; a joker is never part of a pair with a natural card, a four
  of a kind, two pairs or a flush;
* two copies of one card (two packs) are a legal pair; a flush may hold two copies;
* five consecutive cards of one suit are a run *and* a flush; the set is called a
  run (so ``pickup_any_open_card = false`` restricts it to its ends);
* a run's order: jokers first fill the gaps, then extend the run upwards (up to the
  high ace), then downwards. The open set is stored in that order, so its ends are
  its first and last cards.
"""
from __future__ import annotations

from functools import cache, lru_cache
from itertools import combinations
from typing import NamedTuple

from domain.cards import JOKER, Card

RANK_NUM: dict[str, int] = {r: i for i, r in enumerate(
    ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"), start=1)}
SUIT_ORDER: dict[str, int] = {"S": 0, "H": 1, "D": 2, "C": 3}


@cache  # 54 card codes; the scoring adds up every hand at every round end
def value(card: Card) -> int:
    """Points of a card: A = 1, 2–10 face value, J Q K = 10, joker 0."""
    if card == JOKER:
        return 0
    return min(RANK_NUM[card[:-1]], 10)


def hand_total(cards: tuple[Card, ...]) -> int:
    return sum(map(value, cards))


def sort_key(card: Card) -> tuple[int, int]:
    """Canonical order inside a hand: by rank (A low), then ♠ ♥ ♦ ♣; jokers last."""
    if card == JOKER:
        return (99, 9)
    return (RANK_NUM[card[:-1]], SUIT_ORDER[card[-1]])


def timeout_key(card: Card) -> tuple[int, int, int]:
    """The highest value single, ties by higher rank, then ♠ ♥ ♦ ♣ first."""
    if card == JOKER:
        return (0, 0, 0)
    return (value(card), RANK_NUM[card[:-1]], -SUIT_ORDER[card[-1]])


class SetRules(NamedTuple):
    """The options that change which sets are legal.

    A ``NamedTuple``: it is half the key of the set caches below, looked up on every play,
    and a tuple hashes and compares in C (a dataclass's ``__hash__`` and ``__eq__`` are
    Python calls).
    """

    mixed_two_pairs: bool = False
    run_same_suit: bool = False


def arrange_run(cards: tuple[Card, ...], same_suit: bool) -> tuple[Card, ...] | None:
    """The cards in run order (low to high, jokers placed), or ``None`` if not a run."""
    size = len(cards)
    if size not in (3, 5):
        return None
    naturals = [c for c in cards if c != JOKER]
    jokers = size - len(naturals)
    if not naturals:
        return None
    if same_suit and len({c[-1] for c in naturals}) > 1:
        return None
    nums = [RANK_NUM[c[:-1]] for c in naturals]
    if len(set(nums)) != len(nums):
        return None
    # The ace is low or high, never both; try low first (A-2-3 before Q-K-A).
    for ace in (1, 14):
        vals = [ace if n == 1 else n for n in nums]
        lo, hi = min(vals), max(vals)
        span = hi - lo + 1
        if span > size:
            continue
        extra = size - span
        up = min(extra, 14 - hi)
        start = lo - (extra - up)
        if start < 1:
            continue
        slots: list[Card] = [JOKER] * size
        for v, c in zip(vals, naturals):
            slots[v - start] = c
        assert slots.count(JOKER) == jokers
        return tuple(slots)
    return None


def classify(cards: tuple[Card, ...], rules: SetRules) -> tuple[str, tuple[Card, ...]] | None:
    """``(kind, arranged cards)`` for a legal set, or ``None``. Kinds: single, pair,
    four, two_pairs, run, flush."""
    size = len(cards)
    if size == 1:
        return "single", cards
    jokers = cards.count(JOKER)
    ranks = [c[:-1] for c in cards if c != JOKER]
    if size == 2:
        if jokers == 2 or (jokers == 0 and ranks[0] == ranks[1]):
            return "pair", tuple(sorted(cards, key=sort_key))
        return None
    if size in (3, 5):
        run = arrange_run(cards, rules.run_same_suit)
        if run is not None:
            return "run", run
        if size == 5 and jokers == 0 and len({c[-1] for c in cards}) == 1:
            return "flush", tuple(sorted(cards, key=sort_key))
        return None
    if size == 4 and jokers == 0:
        distinct = set(ranks)
        if len(distinct) == 1:
            return "four", tuple(sorted(cards, key=sort_key))
        if rules.mixed_two_pairs and len(distinct) == 2 and ranks.count(ranks[0]) == 2:
            return "two_pairs", tuple(sorted(cards, key=sort_key))
    return None


@lru_cache(maxsize=1 << 16)
def classify_cached(sorted_cards: tuple[Card, ...], rules: SetRules) -> tuple[str, tuple[Card, ...]] | None:
    """:func:`classify` of a hand-sorted tuple, memoised (few distinct small sets recur)."""
    return classify(sorted_cards, rules)


@lru_cache(maxsize=1 << 14)
def legal_sets(hand: tuple[Card, ...], rules: SetRules) -> tuple[tuple[Card, ...], ...]:
    """Every distinct legal set of the hand (sorted by :func:`sort_key`), smallest first."""
    seen: set[tuple[Card, ...]] = set()
    out: list[tuple[Card, ...]] = []
    for size in range(1, min(len(hand), 5) + 1):
        for subset in combinations(hand, size):
            if subset not in seen:
                seen.add(subset)
                if classify_cached(subset, rules) is not None:
                    out.append(subset)
    return tuple(out)
