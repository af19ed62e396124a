"""4 Cartas: the events (past tense), frozen dataclasses of JSON-typed fields.

Fields marked "server-only" or "private to ``seat``" are stripped per seat by
:func:`domain.rules.cuatro_cartas.view.redact`; the events shared with the other rulesets are
in :mod:`domain.messages`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.cards import Card
from domain.frozen import fast_init
from domain.messages import (
    CardDrawn, CardsSwapped, GameEnded, GameStarted, Passed, TimeoutApplied, TurnSkipped, TurnStarted, WindowClosed,
    WindowOpened,
)
from domain.orders import EVENTS as ORDER_EVENTS


@fast_init
@dataclass(frozen=True, slots=True)
class RoundDealt:
    """Server-only: ``order`` (the whole shuffled pack, index 0 on top) and ``salt``."""

    round: int
    dealer: int
    first_player: int
    upcard: Card
    commitment: str
    order: tuple[Card, ...] | None
    salt: str | None


@fast_init
@dataclass(frozen=True, slots=True)
class PeekChosen:
    seat: int
    slots: tuple[str, ...]
    cards: tuple[Card | None, ...]  # private to ``seat``
    automatic: bool = False


@fast_init
@dataclass(frozen=True, slots=True)
class CardDiscarded:
    seat: int
    card: Card
    source: str  # where the held card came from: stock | discard


@fast_init
@dataclass(frozen=True, slots=True)
class CardReplaced:
    seat: int
    slot: str
    card: Card  # the card that left the layout, now face up on the pile


@fast_init
@dataclass(frozen=True, slots=True)
class PowerStarted:
    seat: int
    rank: str
    close_after: bool = False
    returns: bool = False  # True after an in-turn match power: back to AWAIT_ACTION


@fast_init
@dataclass(frozen=True, slots=True)
class PowerFizzled:
    seat: int
    rank: str
    reason: str


@fast_init
@dataclass(frozen=True, slots=True)
class CardsLooked:
    seat: int
    targets: tuple[tuple[int, str], ...]
    cards: tuple[Card | None, ...]  # private to ``seat``


@fast_init
@dataclass(frozen=True, slots=True)
class PowerSkipped:
    seat: int


@fast_init
@dataclass(frozen=True, slots=True)
class SwapDeclined:
    seat: int


@fast_init
@dataclass(frozen=True, slots=True)
class WindowWon:
    window_id: int
    by: int


@fast_init
@dataclass(frozen=True, slots=True)
class FinalWindowOpened:
    window_id: int
    eligible: tuple[int, ...]


@fast_init
@dataclass(frozen=True, slots=True)
class ClaimResolved:
    """A judged match. ``revealed`` holds the named cards; ``revealed_to`` says who may see them."""

    kind: str  # match | match_rival | match_group
    actor: int
    window_id: int
    window_card: Card
    targets: tuple[tuple[int, str], ...]
    outcome: str  # correct | wrong
    revealed: tuple[Card, ...]
    revealed_to: str  # all | actor | nobody
    give_slot: str | None
    rule: str
    options_applied: dict[str, Any]
    explanation: str


@fast_init
@dataclass(frozen=True, slots=True)
class PenaltyCardDealt:
    seat: int
    slot: str
    card: Card | None  # server-only; private to ``seat`` when ``visible_to_owner``
    visible_to_owner: bool


@fast_init
@dataclass(frozen=True, slots=True)
class PenaltySkipped:
    seat: int
    reason: str


@fast_init
@dataclass(frozen=True, slots=True)
class StockReshuffled:
    round: int
    shuffle_no: int
    commitment: str
    order: tuple[Card, ...] | None  # server-only
    salt: str | None  # server-only


@fast_init
@dataclass(frozen=True, slots=True)
class CallMade:
    seat: int
    kind: str
    timing: str  # instead_of_turn | after_turn | automatic


@fast_init
@dataclass(frozen=True, slots=True)
class RoundRevealed:
    round: int
    reason: str  # final_window | no_window | all_skipped | turn_limit | stock_exhausted
    layouts: tuple[tuple[tuple[str, Card | None], ...], ...]
    orders: tuple[dict[str, Any], ...]


@fast_init
@dataclass(frozen=True, slots=True)
class RoundScored:
    round: int
    totals: tuple[int, ...]
    round_scores: tuple[int, ...]
    cumulative: tuple[int, ...]
    closer: int | None
    close_outcome: str | None  # succeeded | failed | not_judged | None
    rule: str
    options_applied: dict[str, Any]
    explanation: str


EVENTS: tuple[type, ...] = (
    GameStarted, RoundDealt, PeekChosen, TurnStarted, TimeoutApplied, CardDrawn, CardDiscarded, CardReplaced,
    PowerStarted, PowerFizzled, CardsLooked, PowerSkipped, CardsSwapped, SwapDeclined, WindowOpened, WindowClosed,
    WindowWon, FinalWindowOpened, Passed, ClaimResolved, PenaltyCardDealt, PenaltySkipped, StockReshuffled,
    CallMade, TurnSkipped, RoundRevealed, RoundScored, GameEnded, *ORDER_EVENTS,
)
EVENT_TYPES: dict[str, type] = {e.__name__: e for e in EVENTS}
