"""Helpers for the Corte tests: states built by folding events, and command shortcuts.

Values and the expected outcomes are written again from RULES §6 here, independently of
the code under test.
"""
from __future__ import annotations

import re
from collections import Counter
from typing import Any

from domain.cards import french_pack, is_card_code
from domain.messages import GameStarted
from domain.orders import ORDER_KINDS
from domain.rules.corte import RULESET as R, PeekChosen, RoundDealt, State

KEY = b"corte-test-key"
VALUES = {"A": 1, "J": 0, "Q": 20, "K": 20}


def points(card: str) -> int:
    """RULES §6.1 written out again: A = 1, 2-10 face value, J = 0, Q = K = 20."""
    r = card[:-1]
    return VALUES[r] if r in VALUES else int(r)


def game(layouts: list[list[str]], *, options: dict[str, Any] | None = None, stock_top: list[str] | None = None,
         first: int = 0, upcard: str | None = None, stock_size: int | None = None,
         pile: list[str] | None = None, peeks: bool = True, scores: list[int] | None = None) -> State:
    """A round-1 state with the given grids (A, B, C, D per seat) and the stock starting with ``stock_top``.

    ``stock_size`` truncates the stock; the cards cut off go to the discard pile under
    ``pile`` (so the pack is still complete). With ``peeks``, every seat peeks C and D.
    """
    n = len(layouts)
    opts = dict(options or {})
    if upcard is not None:
        opts["initial_upcard"] = True
    resolved = R.resolve_options(opts, n)
    decks = resolved["common.decks"]
    decks = (1 if n <= 6 else 2) if decks == "auto" else decks
    rest = Counter(french_pack() * decks)
    used = [c for lay in layouts for c in lay] + ([upcard] if upcard else []) + list(stock_top or [])
    used += list(pile or [])
    rest.subtract(used)
    assert not -rest, f"cards not in the pack: {-rest}"
    stock = list(stock_top or []) + sorted(rest.elements())
    under: list[str] = []
    if stock_size is not None:
        stock, under = stock[:stock_size], stock[stock_size:]
    dealer = (first - 1) % n
    deal = [layouts[(first + k % n) % n][k // n] for k in range(4 * n)]
    order = tuple(deal) + ((upcard,) if upcard else ()) + tuple(stock)
    events: list[Any] = [GameStarted("corte", n, resolved, dealer),
                         RoundDealt(1, dealer, first, order, "00", "c0", upcard)]
    state: Any = None
    for e in events:
        state = R.evolve(state, e)
    if under or pile:
        # Cards already discarded: below the up-card (if any), oldest first.
        state = state._replace(pile=tuple(under) + tuple(pile or ()) + state.pile)
    if scores is not None:
        state = state._replace(scores=tuple(scores))
    if peeks:
        for p in range(n):
            state = R.evolve(state, PeekChosen(p, ("C", "D"), (layouts[p][2], layouts[p][3]), False))
    assert sorted(R.cards_in_play(state)) == sorted(R.full_pack(state))
    return state  # type: ignore[no-any-return]


def act(state: State, seat: int | None, command: dict[str, Any], key: bytes = KEY) -> tuple[State, list[Any]]:
    """Send one command (JSON form); the new state and the events."""
    events = R.decide(state, seat, R.parse_command(command), key)
    for e in events:
        state = R.evolve(state, e)
    return state, list(events)


def names(events: list[Any]) -> list[str]:
    return [type(e).__name__ for e in events]


def of(events: list[Any], name: str) -> Any:
    found = [e for e in events if type(e).__name__ == name]
    assert found, f"no {name} in {names(events)}"
    return found[0]


def grid(state: State, seat: int) -> dict[str, str | None]:
    lay = state.layouts[seat]
    return dict(zip(lay.slots, lay.cards))


def turn(state: State, seat: int, *, replace: str | None = None) -> tuple[State, list[Any]]:
    """A plain turn: draw, then discard the drawn card (or replace ``replace``)."""
    state, ev = act(state, seat, {"type": "Draw", "source": "stock"})
    if replace is None:
        state, ev2 = act(state, seat, {"type": "DiscardDrawn"})
    else:
        state, ev2 = act(state, seat, {"type": "Replace", "slot": replace})
    return state, ev + ev2


# ---------------------------------------------------------------- an independent record of what each seat saw


def cards_in(value: Any) -> list[str]:
    """Every card code in a JSON value, including card codes written inside sentences."""
    out: list[str] = []
    if isinstance(value, dict):
        for v in value.values():
            out += cards_in(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            out += cards_in(v)
    elif isinstance(value, str):
        if is_card_code(value):
            out.append(value)
        else:
            out += [w for w in re.split(r"[^0-9A-Za-z]+", value) if is_card_code(w) and w not in ("JK",)]
    return out


class Record:
    """What each seat was shown, and which face-down locations it can still follow.

    Written from RULES §2.4, §6 and Appendix B, from the true events only; it shares no
    code with the ruleset's notebook or redaction.
    """

    def __init__(self, players: int, seats: list[int | None]) -> None:
        self.players = players
        self.seats = seats
        self.shown: dict[int | None, set[str]] = {s: set() for s in seats}
        self.known: dict[int | None, set[tuple[int, str]]] = {s: set() for s in seats}

    def event_shows(self, e: Any, seat: int | None) -> set[str]:
        """The cards this event itself shows ``seat`` (public ones to everyone)."""
        k = type(e).__name__
        mine = seat is not None and seat == getattr(e, "seat", None)
        if k == "RoundDealt":
            return {e.upcard} if e.upcard else set()
        if k in ("PeekChosen", "CardsPeeked"):
            return set(e.cards) if mine else set()
        if k == "CardDrawn":
            return {e.card} if mine else set()
        if k == "CardDiscarded":
            return {e.card} | ({e.placed} if mine and e.placed else set())
        if k == "WindowOpened":
            return {e.card}
        if k == "ClaimResolved":
            out = {e.window_card}
            if e.outcome == "correct" or e.reveal == "public" or (e.reveal == "snapper_only" and seat == e.actor):
                out |= set(e.revealed)
            return out
        if k == "PenaltyCardDealt":
            return {e.card} if mine and e.visible_to_owner else set()
        if k == "RoundRevealed":
            return {c for lay in e.layouts for _, c in lay if c} | {c for o in e.orders for c in o["order"]}
        return set()

    def apply(self, e: Any) -> None:
        k = type(e).__name__
        for seat in self.seats:
            self.shown[seat] |= self.event_shows(e, seat)
        everyone = [s for s in self.seats if s is not None]
        if k == "RoundDealt":
            for s in self.seats:
                self.known[s] = set()
        elif k == "PeekChosen":
            if e.seat in self.known:
                self.known[e.seat] |= {(e.seat, x) for x in e.slots}
        elif k == "CardsPeeked":
            if e.seat in self.known:
                self.known[e.seat] |= set(e.targets)
        elif k == "CardDiscarded" and e.slot is not None:
            self._drop((e.seat, e.slot))
            if e.seat in self.known:
                self.known[e.seat].add((e.seat, e.slot))
        elif k == "CardsSwapped":
            a, b = tuple(e.a), tuple(e.b)
            for s in self.seats:
                ka, kb = a in self.known[s], b in self.known[s]
                self.known[s] -= {a, b}
                if ka:
                    self.known[s].add(b)
                if kb:
                    self.known[s].add(a)
        elif k == "ClaimResolved":
            target = tuple(e.targets[0])
            if e.outcome == "correct":
                self._drop(target)
            elif e.reveal == "public":
                for s in everyone:
                    self.known[s].add(target)
            elif e.reveal == "snapper_only" and e.actor in self.known:
                self.known[e.actor].add(target)
        elif k == "CardGiven":
            dst = (e.rival, e.rival_slot)
            src = (e.snapper, e.from_slot)
            for s in self.seats:
                had = src in self.known[s] and e.source == "layout"
                self.known[s] -= {src, dst}
                if had:
                    self.known[s].add(dst)
        elif k == "PenaltyCardDealt":
            self._drop((e.seat, e.slot))
            if e.visible_to_owner and e.seat in self.known:
                self.known[e.seat].add((e.seat, e.slot))

    def _drop(self, loc: tuple[int, str]) -> None:
        for s in self.seats:
            self.known[s].discard(loc)


#: three seats' grids that several option tests deal
THREE = [["JS", "KH", "KD", "KC"], ["7H", "2H", "3H", "6H"], ["9C", "7C", "3C", "4C"]]


def kinds(state: State, seat: int) -> set[str]:
    """The kinds of command the seat may send, standing orders aside (they are offered all round)."""
    return {a["type"] for a in R.legal_actions(state, seat)} - ORDER_KINDS


def snap(s: State, seat: int, slot: str, pen: str = "new") -> tuple[State, list[Any]]:
    """The seat snaps its own ``slot`` on the current window (a penalty card to ``pen``)."""
    return act(s, seat, {"type": "SnapOwn", "window_id": s.window.id, "slot": slot, "penalty_to": pen})
