"""Corte: the events (past tense), frozen dataclasses of JSON-typed fields.

Fields marked "server-only" or "private(x)" are stripped per seat by
:func:`domain.rules.corte.view.redact`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain import orders
from domain.frozen import fast_init
from domain.messages import (
    CardDrawn,
    GameEnded,
    GameStarted,
    Passed,
    TimeoutApplied,
    WindowClosed,
    WindowOpened,
)

Target = tuple[int, str]  # (owner seat, slot)


@fast_init
@dataclass(frozen=True, slots=True)
class RoundDealt:
    round: int
    dealer: int
    first_player: int
    order: tuple[str, ...] | None  # server-only: the shuffled stock, index 0 = top
    salt: str | None  # server-only until RoundRevealed
    commitment: str
    upcard: str | None


@fast_init
@dataclass(frozen=True, slots=True)
class PeekChosen:
    seat: int
    slots: tuple[str, ...]
    cards: tuple[str | None, ...]  # private(seat)
    timed_out: bool


@fast_init
@dataclass(frozen=True, slots=True)
class CallMade:
    seat: int
    kind: str


@fast_init
@dataclass(frozen=True, slots=True)
class StockReshuffled:
    round: int
    shuffle_no: int
    order: tuple[str, ...] | None  # server-only
    salt: str | None  # server-only until RoundRevealed
    commitment: str
    count: int


@fast_init
@dataclass(frozen=True, slots=True)
class TurnSkipped:
    seat: int
    reason: str
    turn_no: int


@fast_init
@dataclass(frozen=True, slots=True)
class CardDiscarded:
    seat: int
    card: str
    source: str  # drawn | replaced
    slot: str | None  # the grid slot for a replace
    placed: str | None  # private(seat): the drawn card now face down in ``slot``
    power: str | None  # the rank whose power fires, or None


@fast_init
@dataclass(frozen=True, slots=True)
class CardsPeeked:
    seat: int
    power: str
    targets: tuple[Target, ...]
    cards: tuple[str | None, ...]  # private(seat)


@fast_init
@dataclass(frozen=True, slots=True)
class CardsSwapped:
    seat: int
    power: str
    a: Target
    b: Target


@fast_init
@dataclass(frozen=True, slots=True)
class KingKept:
    seat: int


@fast_init
@dataclass(frozen=True, slots=True)
class PowerSkipped:
    seat: int
    power: str
    reason: str  # declined | no_target | timeout


@fast_init
@dataclass(frozen=True, slots=True)
class TurnEnded:
    seat: int
    next_seat: int
    turn_no: int  # the number of the turn that now begins


@fast_init
@dataclass(frozen=True, slots=True)
class ClaimResolved:
    kind: str  # SnapOwn | SnapRival
    actor: int
    window_id: int
    window_card: str
    targets: tuple[Target, ...]
    outcome: str  # correct | wrong | late
    revealed: tuple[str | None, ...]  # per target; public if correct, else per ``reveal``
    reveal: str  # public | snapper_only | none
    give_slot: str | None
    penalty_to: str
    rule: str
    options_applied: dict[str, Any]
    explanation: str


@fast_init
@dataclass(frozen=True, slots=True)
class WindowWon:
    window_id: int
    seat: int


@fast_init
@dataclass(frozen=True, slots=True)
class CardGiven:
    snapper: int
    from_slot: str | None
    rival: int
    rival_slot: str
    source: str  # layout | stock
    card: str | None  # server-only


@fast_init
@dataclass(frozen=True, slots=True)
class PenaltyCardDealt:
    seat: int
    slot: str
    new_slot: bool
    card: str | None  # server-only; private(seat) if visible_to_owner
    visible_to_owner: bool


@fast_init
@dataclass(frozen=True, slots=True)
class DrawSkipped:
    seat: int
    purpose: str  # penalty | give
    reason: str


@fast_init
@dataclass(frozen=True, slots=True)
class FinalWindowStarted:
    window_id: int
    eligible: tuple[int, ...]


@fast_init
@dataclass(frozen=True, slots=True)
class FinalWindowEnded:
    window_id: int
    reason: str  # expired | all_passed | won


@fast_init
@dataclass(frozen=True, slots=True)
class RoundRevealed:
    round: int
    layouts: tuple[tuple[tuple[str, str | None], ...], ...]
    totals: tuple[int, ...]
    orders: tuple[dict[str, Any], ...]


@fast_init
@dataclass(frozen=True, slots=True)
class RoundScored:
    round: int
    reason: str  # call | no_card | turn_limit | stock_exhausted
    totals: tuple[int, ...]
    round_scores: tuple[int, ...]
    cumulative: tuple[int, ...]
    caller: int | None
    call_outcome: str | None  # won | failed
    rule: str
    explanation: str


EVENT_TYPES: dict[str, type] = {c.__name__: c for c in (
    GameStarted, RoundDealt, PeekChosen, TimeoutApplied, CallMade, StockReshuffled, CardDrawn, TurnSkipped,
    WindowClosed, CardDiscarded, CardsPeeked, CardsSwapped, KingKept, PowerSkipped, WindowOpened, TurnEnded,
    ClaimResolved, WindowWon, CardGiven, PenaltyCardDealt, DrawSkipped, FinalWindowStarted, Passed,
    FinalWindowEnded, RoundRevealed, RoundScored, GameEnded, *orders.EVENTS)}
