"""No leak and no oracle (RULES §2.4, §2.5).

* NO LEAK: the test keeps its OWN record of which cards each seat was shown, this round,
  computed from the true events and the options (not from the code's notebook or flags),
  and checks that no view and no redacted event names any other card.
  In Pedro a drawn card (default) and a failed group (``failed_group_reveal = public``)
  are public; a peek, a 6 look, a private draw and a private failed group are not.
* NO ORACLE: permuting the face-down cards a seat cannot see changes neither its view, nor
  its legal actions, nor the errors (or acceptance) of its commands; every blind claim in
  legal_actions is accepted whether right or wrong.
"""
from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

import pytest

from domain import simulation
from domain.choices import commands
from domain.cards import is_card_code
from domain.errors import RuleError
from domain.rules.pedro import RULESET as R, State, with_ as update
from domain.table import Layout
from tests.sizes import sized

LEAK_OPTIONS: list[dict[str, Any]] = [
    {},
    {"show_drawn_card": False, "failed_group_reveal": "private"},
    {"failed_group_reveal": "none", "peek_timing": "before_own_first_turn", "penalty_card_peekable": True},
    {"common.memory": "strict", "show_drawn_card": False, "final_lap_after_call": True},
]


def card_strings(data: Any) -> set[str]:
    out: set[str] = set()
    if isinstance(data, str):
        if is_card_code(data):
            out.add(data)
    elif isinstance(data, dict):
        for v in data.values():
            out |= card_strings(v)
    elif isinstance(data, (list, tuple)):
        for v in data:
            out |= card_strings(v)
    return out


class Record:
    """What each seat (None = spectator) was shown this round, from the true events."""

    def __init__(self, players: int, options: dict[str, Any]) -> None:
        self.seats: list[int | None] = [*range(players), None]
        self.options = options
        self.shown: dict[int | None, set[str]] = {s: set() for s in self.seats}
        self.source = "stock"

    def to_all(self, cards: Iterable[str | None]) -> None:
        for s in self.seats:
            self.shown[s] |= {c for c in cards if c}

    def to(self, seat: int, cards: Iterable[str | None]) -> None:
        self.shown[seat] |= {c for c in cards if c}

    def drawn(self, seat: int, card: str | None) -> None:
        if self.source == "discard" or self.options.get("show_drawn_card", True):
            self.to_all([card])
        else:
            self.to(seat, [card])

    def see(self, e: Any) -> None:
        name = type(e).__name__
        if name == "RoundDealt":
            self.shown = {s: set() for s in self.seats}
            self.to_all([e.upcard])
        elif name == "CardsShown":
            self.to(e.seat, [c for _o, _s, c in e.cards])
        elif name == "CardDrawn":
            self.source = e.source
            self.drawn(e.seat, e.card)
        elif name == "CardKept":
            self.to_all([e.discarded])
            self.drawn(e.seat, e.card)
        elif name == "ClaimResolved":
            group = [c for _s, c in e.revealed]
            reveal = self.options.get("failed_group_reveal", "public")
            if e.outcome == "correct" or reveal == "public":
                self.to_all(group)
            elif reveal == "private":
                self.to(e.actor, group)
            self.drawn(e.actor, e.drawn_card)
        elif name == "CardReleased":
            self.to_all([e.card])
        elif name == "CardPeeked":
            self.to(e.seat, [e.card])
        elif name == "RoundRevealed":
            self.to_all(card_strings([e.layouts, [o["order"] for o in e.orders]]))


@pytest.mark.parametrize("options", LEAK_OPTIONS, ids=lambda o: ",".join(o) or "defaults")
@pytest.mark.parametrize("seeds", sized(4, 12))
def test_no_view_and_no_redacted_event_names_a_card_the_seat_was_not_shown(options: dict[str, Any], seeds: int) -> None:
    checked = 0
    for seed in range(seeds):
        players = 2 + seed % 4
        result = simulation.play(R, players, options, seed, bot="random" if seed % 2 else "greedy")
        record = Record(players, options)
        state = None
        for e in result.events:
            state = R.evolve(state, e)
            record.see(e)
            for seat in record.seats:
                if type(e).__name__ != "GameStarted":
                    leaked = card_strings(R.redact(e, seat)) - record.shown[seat]
                    assert not leaked, (type(e).__name__, seat, leaked)
                leaked = card_strings(R.view(state, seat)) - record.shown[seat]
                assert not leaked, ("view", type(e).__name__, seat, leaked)
                checked += 1
    assert checked > 1000


def test_the_record_catches_a_leak() -> None:
    """The check above can fail: a redaction that forgot the stock order would be caught."""
    result = simulation.play(R, 3, {}, 1, bot="random")
    dealt = next(e for e in result.events if type(e).__name__ == "RoundDealt")
    record = Record(3, {})
    record.see(dealt)
    assert card_strings({"order": dealt.order}) - record.shown[0]


# --------------------------------------------------------------------------- no oracle


def hidden_positions(state: State, seat: int) -> list[tuple[str, Any]]:
    """Where the seat's view shows no card although there is one: layouts, stock, held card."""
    view = R.view(state, seat)
    out: list[tuple[str, Any]] = []
    for owner, player in enumerate(view["players"]):
        for cell in player["cards"]:
            if not cell["empty"] and cell["card"] is None:
                out.append(("slot", (owner, cell["slot"])))
    out.extend(("stock", i) for i in range(len(state.stock)))
    if state.held is not None and view["held"]["card"] is None:
        out.append(("held", None))
    return out


def permuted(state: State, seat: int, rng: random.Random) -> State:
    positions = hidden_positions(state, seat)
    cards = [_get(state, p) for p in positions]
    rng.shuffle(cards)
    layouts = [list(l.cards) for l in state.layouts]
    stock = list(state.stock)
    held = state.held
    for (kind, where), card in zip(positions, cards):
        if kind == "slot":
            owner, slot = where
            layouts[owner][state.layouts[owner].slots.index(slot)] = card
        elif kind == "stock":
            stock[where] = card
        else:
            held = card
    return update(state, layouts=tuple(Layout(l.slots, tuple(c)) for l, c in zip(state.layouts, layouts)),
                  stock=tuple(stock), held=held)


def _get(state: State, position: tuple[str, Any]) -> Any:
    kind, where = position
    if kind == "slot":
        return state.layouts[where[0]].card(where[1])
    return state.stock[where] if kind == "stock" else state.held


def _outcome(state: State, seat: int, command: dict[str, Any]) -> tuple[str, ...]:
    try:
        R.decide(state, seat, R.parse_command(command), b"o" * 32)
    except RuleError as exc:
        return (type(exc).__name__, exc.code, str(exc.status))
    return ("accepted",)


PROBES = [
    {"type": "Draw", "source": "stock"}, {"type": "Draw", "source": "discard"}, {"type": "CallPedro"},
    {"type": "SkipTurn"}, {"type": "Release"}, {"type": "SkipPower"}, {"type": "PeekBottom"},
    {"type": "Keep", "replace": "A", "also_discard": ["B", "C"]}, {"type": "Keep", "replace": "E1", "also_discard": []},
    {"type": "UsePower6", "target": [1, "D"]}, {"type": "UsePower5", "own": "A", "other": [1, "A"]},
    {"type": "UsePower5", "a": [0, "A"], "b": [1, "B"]},
]


@pytest.mark.parametrize("options", LEAK_OPTIONS[:3], ids=lambda o: ",".join(o) or "defaults")
def test_shuffling_unseen_cards_changes_no_view_action_or_error_of_that_seat(options: dict[str, Any]) -> None:
    rng = random.Random(11)
    compared = changed = 0
    for seed in range(14):
        result = simulation.play(R, 3, options, seed, bot="random")
        state = None
        for e in result.events:
            state = R.evolve(state, e)
            if R.is_terminal(state) or state.turn is None or rng.random() > 0.15:
                continue
            for seat in range(3):
                other = permuted(state, seat, rng)
                changed += other != state
                assert R.view(other, seat) == R.view(state, seat)
                actions = R.legal_actions(state, seat)
                assert R.legal_actions(other, seat) == actions
                for command in [c for a in actions for c in commands(a)] + PROBES:
                    assert _outcome(other, seat, command) == _outcome(state, seat, command), command
                compared += 1
    assert compared > 50 and changed > 20


def test_every_blind_claim_listed_is_accepted_right_or_wrong() -> None:
    outcomes: set[str] = set()
    calls: set[bool] = set()
    for seed in range(30):
        result = simulation.play(R, 3, {}, seed, bot="random")
        state = None
        for e in result.events:
            state = R.evolve(state, e)
            if state.turn is None or state.step not in ("HOLDING", "AWAIT_ACTION"):
                continue
            for action in (c for a in R.legal_actions(state, state.turn) for c in commands(a)):
                if action["type"] == "Keep" and action["also_discard"]:
                    events = R.decide(state, state.turn, R.parse_command(action), b"c" * 32)
                    outcomes.add(next(x.outcome for x in events if type(x).__name__ == "ClaimResolved"))
                elif action["type"] == "CallPedro":
                    events = R.decide(state, state.turn, R.parse_command(action), b"c" * 32)
                    calls.add(next(x.caller_won for x in events if type(x).__name__ == "RoundScored"))
    assert outcomes == {"correct", "wrong"} and calls == {True, False}
