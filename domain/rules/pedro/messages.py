"""Pedro: commands and events, as frozen dataclasses of JSON types.

Visibility travels with each event (``public`` flags, ``reveal``), so that ``redact`` needs no
state: server-only fields (``order``, ``salt``) and other seats' private cards are blanked there.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.frozen import fast_init
from domain.messages import (
    CardsSwapped, Draw, GameStarted, SkipPower, SkipTurn, TurnSkipped, TurnStarted, TurnTimedOut,
)

# --------------------------------------------------------------------------- commands

Target = tuple[int, str]


@fast_init
@dataclass(frozen=True, slots=True)
class Keep:
    replace: str
    also_discard: tuple[str, ...] = ()


@fast_init
@dataclass(frozen=True, slots=True)
class Release:
    pass


@fast_init
@dataclass(frozen=True, slots=True)
class UsePower6:
    target: tuple[int, str]


@fast_init
@dataclass(frozen=True, slots=True)
class UsePower5:
    """Default form ``{own, other}``; with ``power5_any_two`` the form ``{a, b}``."""

    own: str | None = None
    other: tuple[int, str] | None = None
    a: tuple[int, str] | None = None
    b: tuple[int, str] | None = None


@fast_init
@dataclass(frozen=True, slots=True)
class CallPedro:
    pass


@fast_init
@dataclass(frozen=True, slots=True)
class PeekBottom:
    pass


COMMANDS: dict[str, type] = {c.__name__: c for c in (
    Draw, Keep, Release, UsePower6, UsePower5, SkipPower, CallPedro, SkipTurn, PeekBottom, TurnTimedOut)}

# --------------------------------------------------------------------------- events


@fast_init
@dataclass(frozen=True, slots=True)
class RoundDealt:
    """``order`` and ``salt`` are server-only; everything else is public."""

    round: int
    dealer: int
    first_player: int
    penalty_seat: int | None
    upcard: str
    commitment: str
    order: tuple[str, ...] | None
    salt: str | None


@fast_init
@dataclass(frozen=True, slots=True)
class CardsShown:
    """Private to ``seat``: cards at locations, as (owner, slot, card)."""

    seat: int
    cards: tuple[tuple[int, str, str], ...]
    reason: str


@fast_init
@dataclass(frozen=True, slots=True)
class StockReshuffled:
    round: int
    shuffle_no: int
    count: int
    commitment: str
    order: tuple[str, ...] | None
    salt: str | None


@fast_init
@dataclass(frozen=True, slots=True)
class CardDrawn:
    seat: int
    source: str
    card: str | None
    public: bool


@fast_init
@dataclass(frozen=True, slots=True)
class CardKept:
    """A plain exchange: ``card`` (the drawn card) into ``slot``; ``discarded`` goes face up."""

    seat: int
    slot: str
    card: str | None
    public: bool
    discarded: str


@fast_init
@dataclass(frozen=True, slots=True)
class ClaimResolved:
    """A judged multi-discard."""

    kind: str
    actor: int
    window_id: int | None
    window_card: str | None
    targets: tuple[str, ...]
    outcome: str
    revealed: tuple[tuple[str, str | None], ...]
    reveal: str
    drawn_card: str | None
    drawn_public: bool
    new_slot: str | None
    rule: str
    options_applied: dict[str, Any]
    explanation: str


@fast_init
@dataclass(frozen=True, slots=True)
class CardReleased:
    seat: int
    card: str
    source: str
    power: int | None


@fast_init
@dataclass(frozen=True, slots=True)
class CardPeeked:
    """Power 6: the location is public, the card private to ``seat``."""

    seat: int
    target: tuple[int, str]
    card: str | None


@fast_init
@dataclass(frozen=True, slots=True)
class PowerSkipped:
    seat: int
    power: int
    reason: str


@fast_init
@dataclass(frozen=True, slots=True)
class TimeoutApplied:
    seat: int
    turn_no: int
    step: str


@fast_init
@dataclass(frozen=True, slots=True)
class CallMade:
    seat: int
    kind: str
    final_lap: bool


@fast_init
@dataclass(frozen=True, slots=True)
class RoundRevealed:
    round: int
    reason: str
    layouts: tuple[tuple[tuple[str, str | None], ...], ...]
    totals: tuple[int, ...]
    orders: tuple[dict[str, Any], ...]


@fast_init
@dataclass(frozen=True, slots=True)
class CallJudged:
    caller: int
    totals: tuple[int, ...]
    outcome: str
    rule: str
    explanation: str


@fast_init
@dataclass(frozen=True, slots=True)
class RoundScored:
    round: int
    reason: str
    caller: int | None
    caller_won: bool | None
    totals: tuple[int, ...]
    round_scores: tuple[int, ...]
    cumulative: tuple[int, ...]
    round_winners: tuple[int, ...]
    round_wins: tuple[int, ...]
    penalty_next: int | None


@fast_init
@dataclass(frozen=True, slots=True)
class GameEnded:
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    reason: str


EVENTS: dict[str, type] = {e.__name__: e for e in (
    GameStarted, RoundDealt, CardsShown, TurnStarted, StockReshuffled, CardDrawn, CardKept, ClaimResolved,
    CardReleased, CardPeeked, CardsSwapped, PowerSkipped, TurnSkipped, TimeoutApplied, CallMade,
    RoundRevealed, CallJudged, RoundScored, GameEnded)}
