"""Commands and events that several rulesets share field for field and in meaning.

A ruleset imports these and lists them in its own ``command_types``/``event_types``:
stored events are looked up by class name per ruleset, so a name here must mean the
same thing in every ruleset that uses it, with the same fields in the same order (the
JSON form follows the field order). A ruleset whose message of the same name carries
other fields (say Least Score's ``GameEnded`` with a ``reason``) keeps its own class.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from domain.cards import Card
from domain.frozen import fast_init

# -- commands ---------------------------------------------------------------------------------

#: Commands the service sends when a deadline passes (seat ``None``); a player's are refused.
SYSTEM_COMMANDS = frozenset({"TurnTimedOut", "FinalWindowExpired"})


@fast_init
@dataclass(frozen=True, slots=True)
class Draw:
    """Take the top card of the stock or of the discard pile."""

    source: Literal["stock", "discard"]


@fast_init
@dataclass(frozen=True, slots=True)
class SkipTurn:
    pass


@fast_init
@dataclass(frozen=True, slots=True)
class SkipPower:
    pass


@fast_init
@dataclass(frozen=True, slots=True)
class Pass:
    """Pass on the window ``window_id`` (decline to claim it)."""

    window_id: int


@fast_init
@dataclass(frozen=True, slots=True)
class TurnTimedOut:
    """System command (seat ``None``): the turn deadline passed."""

    seat: int
    turn_no: int


@fast_init
@dataclass(frozen=True, slots=True)
class FinalWindowExpired:
    """System command (seat ``None``): the final window's ``closesAt`` passed."""

    window_id: int


# -- events -----------------------------------------------------------------------------------


@fast_init
@dataclass(frozen=True, slots=True)
class GameStarted:
    ruleset: str
    players: int
    options: dict[str, Any]
    first_dealer: int


@fast_init
@dataclass(frozen=True, slots=True)
class TurnStarted:
    seat: int
    turn_no: int


@fast_init
@dataclass(frozen=True, slots=True)
class TimeoutApplied:
    seat: int
    turn_no: int
    action: str  # what the service did for the seat, in words


@fast_init
@dataclass(frozen=True, slots=True)
class CardDrawn:
    seat: int
    source: str
    card: Card | None  # private to ``seat`` for a stock draw


@fast_init
@dataclass(frozen=True, slots=True)
class TurnSkipped:
    seat: int
    reason: str


@fast_init
@dataclass(frozen=True, slots=True)
class CardsSwapped:
    seat: int
    a: tuple[int, str]
    b: tuple[int, str]


@fast_init
@dataclass(frozen=True, slots=True)
class WindowOpened:
    window_id: int
    card: Card


@fast_init
@dataclass(frozen=True, slots=True)
class WindowClosed:
    window_id: int
    reason: str  # superseded | taken | final (as the ruleset's windows close)


@fast_init
@dataclass(frozen=True, slots=True)
class Passed:
    seat: int
    window_id: int


@fast_init
@dataclass(frozen=True, slots=True)
class GameEnded:
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    explanation: str
