"""Least Score: options, commands, events and state (the data of the ruleset).

Kept apart from the logic (decide, evolve, view) so that each module reads in one go.
All events are public unless a field is marked server-only or private in its
docstring; ``view.redact`` applies exactly those marks.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from domain.errors import InvalidOptions
from domain.frozen import fast_init
from domain.messages import GameStarted, TurnTimedOut
from domain.ruleset import COMMON_OPTIONS, COMMON_PAGE, OptionSpec, documented, resolve_options
from domain.rules.least_score.sets import SetRules

Card = str

NAME = "least-score"

# --------------------------------------------------------------------------- options

OPTIONS: tuple[OptionSpec, ...] = documented((
    OptionSpec("jokers", 0, "jokers per pack, worth 0, wild in runs", choices=(0, 2)),
    OptionSpec("mixed_two_pairs", False, "two pairs of different ranks are a legal set", kind="bool"),
    OptionSpec("run_same_suit", False, "a run must be of one suit", kind="bool"),
    OptionSpec("pickup_any_open_card", True, "any card of the open set may be taken; false: only a run's ends",
               kind="bool"),
    OptionSpec("initial_upcard", True, "turn up one card as the first open set", kind="bool"),
    OptionSpec("no_declare_first_lap", True, "declaring needs one completed own turn this deal", kind="bool"),
    OptionSpec("max_declare_total", None, "highest hand total allowed to declare; null = no limit",
               kind="int", minimum=0, maximum=1000, nullable=True),
    OptionSpec("declare_tie_is_false", True, "a declarer tied for lowest has declared falsely", kind="bool"),
    OptionSpec("elimination_threshold", 100, "the elimination threshold", choices=(25, 50, 100)),
    OptionSpec("eliminate_at", "exceed", "eliminated above (exceed) or at (reach) the threshold",
               choices=("exceed", "reach")),
    OptionSpec("end_on_first_elimination", False, "the game ends at the first elimination", kind="bool"),
    OptionSpec("round_starter", "rotate", "who starts the next deal",
               choices=("rotate", "previous_round_winner")),
), "docs/rules/least-score.md#5-options") + documented(COMMON_OPTIONS, COMMON_PAGE)


def resolve(raw: Mapping[str, Any] | None, players: int) -> dict[str, Any]:
    """Every option resolved, or :class:`InvalidOptions` with every problem at once."""
    if not isinstance(players, int) or not 2 <= players <= 10:
        raise InvalidOptions({"players": "Least Score is for 2 to 10 players"})
    out = resolve_options(OPTIONS, raw)
    errors: dict[str, str] = {}
    # Enum checks use ``in``, and True == 1: refuse booleans where integers are meant.
    for key in ("jokers", "elimination_threshold", "common.decks"):
        if isinstance(out[key], bool):
            errors[key] = "must not be a boolean"
    if out["common.stock_exhausted"] != "reshuffle":
        errors["common.stock_exhausted"] = "Least Score always reshuffles the dead pile"
    if errors:
        raise InvalidOptions(errors)
    return out


@fast_init
@dataclass(frozen=True, slots=True)
class Opts:
    """The resolved options, typed, for quick reads inside decide/evolve."""

    jokers: int
    sets: SetRules
    pickup_any_open_card: bool
    initial_upcard: bool
    no_declare_first_lap: bool
    max_declare_total: int | None
    declare_tie_is_false: bool
    elimination_threshold: int
    eliminate_at: str
    end_on_first_elimination: bool
    round_starter: str
    decks: int
    tiebreak: str
    memory: str
    round_turn_limit: int | None

    @staticmethod
    def of(options: Mapping[str, Any], players: int) -> Opts:
        decks = options["common.decks"]
        limit = options["common.round_turn_limit"]
        return Opts(
            jokers=options["jokers"],
            sets=SetRules(options["mixed_two_pairs"], options["run_same_suit"]),
            pickup_any_open_card=options["pickup_any_open_card"],
            initial_upcard=options["initial_upcard"],
            no_declare_first_lap=options["no_declare_first_lap"],
            max_declare_total=options["max_declare_total"],
            declare_tie_is_false=options["declare_tie_is_false"],
            elimination_threshold=options["elimination_threshold"],
            eliminate_at=options["eliminate_at"],
            end_on_first_elimination=options["end_on_first_elimination"],
            round_starter=options["round_starter"],
            decks=(1 if players <= 6 else 2) if decks == "auto" else decks,
            tiebreak=options["common.tiebreak"],
            memory=options["common.memory"],
            round_turn_limit=None if limit == "none" else limit,
        )


# --------------------------------------------------------------------------- commands


@fast_init
@dataclass(frozen=True, slots=True)
class Play:
    """Discard a legal set and take one card: ``"stock"`` or ``"open:<card>"`` (atomic)."""

    discard: tuple[str, ...]
    take: str


@fast_init
@dataclass(frozen=True, slots=True)
class Declare:
    """Declare ("Declarar"): reveal now, instead of playing. A blind claim: never refused for being wrong."""


COMMAND_TYPES: dict[str, type] = {c.__name__: c for c in (Play, Declare, TurnTimedOut)}

# --------------------------------------------------------------------------- events


@fast_init
@dataclass(frozen=True, slots=True)
class RoundDealt:
    """A deal. ``order`` (the shuffled pack), ``stock`` and ``salt`` are server-only;
    ``hands[p]`` is private to p. The deal is ``order`` in blocks of 5 from the starter
    clockwise, then the up-card, then the stock."""

    round: int
    dealer: int
    starter: int
    seated: tuple[int, ...]
    counts: tuple[int, ...]
    upcard: str | None
    commitment: str
    hands: tuple[tuple[str, ...], ...]
    stock: tuple[str, ...]
    order: tuple[str, ...]
    salt: str


@fast_init
@dataclass(frozen=True, slots=True)
class StockReshuffled:
    """The dead pile became the stock; ``order`` and ``salt`` are server-only."""

    round: int
    shuffle_no: int
    count: int
    commitment: str
    order: tuple[str, ...]
    salt: str


@fast_init
@dataclass(frozen=True, slots=True)
class SetPlayed:
    """A ``Play``: ``card`` is the card taken, private to ``seat`` when ``take`` is the stock."""

    seat: int
    turn_no: int
    discard: tuple[str, ...]
    kind: str
    open_set: tuple[str, ...]
    take: str
    card: str | None
    dead: tuple[str, ...]
    timed_out: bool = False


@fast_init
@dataclass(frozen=True, slots=True)
class CallMade:
    seat: int
    kind: str
    turn_no: int


@fast_init
@dataclass(frozen=True, slots=True)
class RoundRevealed:
    """Every hand, every total and every shuffle of the round with its salt (public)."""

    round: int
    hands: tuple[tuple[str, ...], ...]
    totals: tuple[int | None, ...]
    orders: tuple[dict[str, Any], ...]


@fast_init
@dataclass(frozen=True, slots=True)
class RoundScored:
    """The judged declaration (the ``CallJudged`` facts) and the round's scores."""

    round: int
    reason: str
    declarer: int | None
    declarer_total: int | None
    lowest_other: int | None
    outcome: str
    round_scores: tuple[int, ...]
    cumulative: tuple[int, ...]
    rule: str
    options_applied: dict[str, Any]
    explanation: str


@fast_init
@dataclass(frozen=True, slots=True)
class PlayerEliminated:
    seat: int
    score: int
    threshold: int
    eliminate_at: str


@fast_init
@dataclass(frozen=True, slots=True)
class TiebreakRound:
    """``common.tiebreak = play_another_round``: only ``seats`` play on."""

    seats: tuple[int, ...]
    explanation: str


@fast_init
@dataclass(frozen=True, slots=True)
class GameEnded:
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    reason: str
    explanation: str


EVENT_TYPES: dict[str, type] = {e.__name__: e for e in (
    GameStarted, RoundDealt, StockReshuffled, SetPlayed, CallMade, RoundRevealed, RoundScored,
    PlayerEliminated, TiebreakRound, GameEnded)}

# --------------------------------------------------------------------------- state


@dataclass(frozen=True)  # no slots: evolve copies it with domain.frozen.fast_replace
class LeastState:
    """The whole truth of a game. ``turn_no`` counts the turns ended this round."""

    players: int
    opts: Opts
    options: dict[str, Any]
    first_dealer: int
    round: int = 0
    phase: str = "setup"  # "turns" | "over"
    dealer: int = 0
    starter: int = 0
    turn: int | None = None
    turn_no: int = 0
    seated: tuple[int, ...] = ()
    hands: tuple[tuple[str, ...], ...] = ()
    known: tuple[tuple[str, ...], ...] = ()  # per seat: cards publicly taken and still surely held
    turns_done: tuple[int, ...] = ()
    open_set: tuple[str, ...] = ()
    open_kind: str | None = None
    open_from: int | None = None
    dead: tuple[str, ...] = ()
    stock: tuple[str, ...] = ()
    orders: tuple[tuple[int, tuple[str, ...], str, str], ...] = ()  # (shuffle_no, order, salt, commitment)
    scores: tuple[int, ...] = ()
    last_round: tuple[int, ...] | None = None
    playoff: bool = False
    eliminated: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()
