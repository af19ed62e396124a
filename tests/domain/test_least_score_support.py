"""Helpers for the Least Score tests: given states built by folding events, and an
independent record of what each seat was shown (used by the no-leak and no-oracle tests).

The record here is written from the rules, not from the code under test: it follows
the true events (hands dealt, cards discarded and taken) and nothing else.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from domain.cards import french_pack, is_card_code, packs
from domain.errors import RuleError
from domain.messages import GameStarted
from domain.rules.least_score import RULESET as R
from domain.rules.least_score import LeastState, RoundDealt, RoundRevealed, RoundScored, SetPlayed

VALUES = {"A": 1, "J": 10, "Q": 10, "K": 10, "JK": 0}


def points(card: str) -> int:
    """Card value written out again from RULES §4.1 (independent of the code under test)."""
    r = card if card == "JK" else card[:-1]
    return VALUES[r] if r in VALUES else int(r)


def total(cards: Any) -> int:
    return sum(points(c) for c in cards)


def game(hands: list[list[str]], upcard: str | None = "KD", options: dict[str, Any] | None = None,
         stock_top: list[str] | None = None, dealer: int | None = None, starter: int = 0,
         cumulative: list[int] | None = None) -> LeastState:
    """A state in round 1 (or 2 if ``cumulative`` is given) folded from events."""
    players = len(hands)
    resolved = R.resolve_options(options or {}, players)
    opts_jokers, decks = resolved["jokers"], resolved["common.decks"]
    decks = (1 if players <= 6 else 2) if decks == "auto" else decks
    rest = Counter(packs(french_pack(opts_jokers), decks))
    used = [c for h in hands for c in h] + ([upcard] if upcard else []) + list(stock_top or [])
    rest.subtract(used)
    assert not -rest, f"cards not in the pack: {-rest}"
    stock = tuple(stock_top or []) + tuple(sorted(rest.elements()))
    dealer = (starter - 1) % players if dealer is None else dealer
    events: list[Any] = [GameStarted("least-score", players, resolved, dealer)]
    round_no = 1
    if cumulative is not None:
        events.append(RoundScored(1, "declare", None, None, None, "given", tuple(cumulative),
                                  tuple(cumulative), "given", {}, "given"))
        round_no = 2
    order = tuple(c for h in hands for c in h) + ((upcard,) if upcard else ()) + stock
    events.append(RoundDealt(round_no, dealer, starter, tuple(range(players)), tuple(len(h) for h in hands),
                             upcard, "c0", tuple(tuple(h) for h in hands), stock, order, "00"))
    state = None
    for e in events:
        state = R.evolve(state, e)
    assert isinstance(state, LeastState)
    return state


KEY = b"least-score-test-key-32-bytes!!!"


def send(state: LeastState, seat: int | None, command: dict[str, Any]) -> tuple[tuple[Any, ...], LeastState]:
    """Parse, decide and fold one command: (events, new state)."""
    events = R.decide(state, seat, R.parse_command(command), KEY)
    for e in events:
        state = R.evolve(state, e)
    return events, state


def play(discard: list[str], take: str = "stock") -> dict[str, Any]:
    return {"type": "Play", "discard": discard, "take": take}


def refused(state: LeastState, seat: int | None, command: dict[str, Any]) -> RuleError:
    with pytest.raises(RuleError) as info:
        send(state, seat, command)
    return info.value


def lap(state: LeastState, discards: list[str]) -> LeastState:
    """Each seat in turn discards one card and takes the previous open card."""
    for card in discards:
        _, state = send(state, state.turn, play([card], "open:" + state.open_set[0]))
    return state


def of_type(events: Any, name: str) -> list[Any]:
    return [e for e in events if type(e).__name__ == name]


def cards_named(data: Any) -> list[str]:
    """Every card code in a JSON value (including the card of an ``open:<card>`` take)."""
    out: list[str] = []
    if isinstance(data, dict):
        for v in data.values():
            out += cards_named(v)
    elif isinstance(data, (list, tuple)):
        for v in data:
            out += cards_named(v)
    elif isinstance(data, str):
        if data.startswith("open:"):
            data = data[5:]
        if is_card_code(data):
            out.append(data)
    return out


class Shown:
    """What each seat was shown, kept from the true events by the rules alone.

    ``hand[p]`` is p's true hand; ``taken[p]`` the multiset of cards p took from an open
    set and surely still holds; ``open`` the open set; ``public`` every card that was ever
    face up this round (open sets, dead cards, the reveal).
    """

    def __init__(self, players: int) -> None:
        self.players = players
        self.hand: list[Counter[str]] = [Counter() for _ in range(players)]
        self.taken: list[Counter[str]] = [Counter() for _ in range(players)]
        self.drawn: list[Counter[str]] = [Counter() for _ in range(players)]
        self.open: list[str] = []
        self.public: Counter[str] = Counter()

    def allowed_in_event(self, event: Any, seat: int | None) -> set[str]:
        """Cards the redacted ``event`` may name for ``seat`` (call before :meth:`apply`)."""
        if isinstance(event, RoundDealt):
            own = set(event.hands[seat]) if seat is not None else set()
            return own | ({event.upcard} if event.upcard else set())
        if isinstance(event, SetPlayed):
            out = set(event.discard) | set(event.open_set) | set(event.dead)
            if event.take != "stock" or event.seat == seat:
                out.add(event.card or "")
            return out
        if isinstance(event, RoundRevealed):
            return {c for h in event.hands for c in h} | {c for o in event.orders for c in o["order"]}
        return set()

    def apply(self, event: Any) -> None:
        if isinstance(event, RoundDealt):
            self.hand = [Counter(h) for h in event.hands]
            self.taken = [Counter() for _ in range(self.players)]
            self.open = [event.upcard] if event.upcard else []
            self.public = Counter(self.open)
        elif isinstance(event, SetPlayed):
            p = event.seat
            self.hand[p].subtract(event.discard)
            self.hand[p] = +self.hand[p]
            self.taken[p].subtract(event.discard)
            self.taken[p] = +self.taken[p]
            self.hand[p][event.card] += 1
            if event.take != "stock":
                self.taken[p][event.card] += 1
            self.open = list(event.discard)
            self.public.update(event.discard)

    def allowed_in_view(self, seat: int | None) -> Counter[str]:
        """The multiset of cards the seat's view may name."""
        out = Counter(self.open)
        if seat is not None:
            out |= self.hand[seat]
        for q in range(self.players):
            if q != seat:
                out |= self.taken[q]
        return out


def test_the_given_state_deals_the_hands_asked_for() -> None:
    state = game([["AS", "2S", "3S", "4S", "5S"], ["AH", "2H", "3H", "4H", "5H"]], upcard="9C")
    assert state.hands[0] == ("AS", "2S", "3S", "4S", "5S")
    assert state.open_set == ("9C",)
    assert Counter(R.cards_in_play(state)) == Counter(R.full_pack(state))


def test_points_follow_rules_4_1() -> None:
    assert [points(c) for c in ("AS", "7H", "10D", "JC", "QS", "KH", "JK")] == [1, 7, 10, 10, 10, 10, 0]
