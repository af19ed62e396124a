"""Corte: options, card values, commands, events and state (no logic beyond values).

See :mod:`domain.rules.corte` for the rules and the decisions taken where the rules are
silent. Every command and event is a frozen dataclass of JSON-typed fields; cards are
codes, slots are ``"A".."D"``/``"E1"..``, players are seat ints.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, Literal, NamedTuple

from domain.cards import Card, rank
from domain.frozen import fast_init, tuple_replacer
from domain.messages import FinalWindowExpired, Pass, SkipPower, SkipTurn, TurnTimedOut
from domain.orders import CancelOrder, OrderBook, PlaceOrder
from domain.ruleset import COMMON_OPTIONS, COMMON_PAGE, OptionSpec, documented
from domain.table import Layout, Notebook, Window

# ---------------------------------------------------------------- options (keys without ``corte.``)

CORTE_OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("replaced_card_power", False, "a card replaced out of the grid fires its power", kind="bool"),
    OptionSpec("initial_upcard", False, "turn one card up at the deal; window W0 opens on it", kind="bool"),
    OptionSpec("direction", "left", "left = clockwise, right = counter-clockwise", choices=("left", "right")),
    OptionSpec("late_snap", "penalize", "a snap on a won window: penalised or refused 409",
               choices=("penalize", "reject")),
    OptionSpec("failed_snap_reveal", "public", "who sees a wrongly (or late) snapped card",
               choices=("public", "snapper_only", "none")),
    OptionSpec("penalty_card_visible_to_owner", False, "the snapper sees its penalty card", kind="bool"),
    OptionSpec("zero_card_rival_snap", "draw_then_give", "a rival snap by a player with no cards",
               choices=("draw_then_give", "forbid", "leave_empty")),
    OptionSpec("powers_optional", False, "5/6/Q/K powers may be skipped", kind="bool"),
    OptionSpec("min_own_turns_before_call", 0, "own turns needed before ¡Corte!", kind="int", minimum=0, maximum=100),
    OptionSpec("lock_caller", False, "the caller's layout is frozen after the call", kind="bool"),
    OptionSpec("failed_call_penalty", 10, "points added to a failed caller's total", kind="int", minimum=0, maximum=1000),
    OptionSpec("target_score", 100, "the game ends after a round where someone has this many",
               kind="int", minimum=1, maximum=100_000),
)
OPTIONS: tuple[OptionSpec, ...] = (documented(CORTE_OPTIONS, "docs/rules/corte.md#5-options")
                                   + documented(COMMON_OPTIONS, COMMON_PAGE))


@fast_init
@dataclass(frozen=True, slots=True)
class Opts:
    """The resolved options, as typed attributes (read on every command)."""

    replaced_card_power: bool
    initial_upcard: bool
    direction: int
    late_snap: str
    failed_snap_reveal: str
    penalty_visible: bool
    zero_card_rival_snap: str
    powers_optional: bool
    min_own_turns: int
    lock_caller: bool
    failed_call_penalty: int
    target_score: int
    decks: int
    stock_exhausted: str
    tiebreak: str
    memory: str
    turn_limit: int | None

    @staticmethod
    def of(options: dict[str, Any], players: int) -> Opts:
        decks = options["common.decks"]
        limit = options["common.round_turn_limit"]
        return Opts(
            replaced_card_power=options["replaced_card_power"],
            initial_upcard=options["initial_upcard"],
            direction=1 if options["direction"] == "left" else -1,
            late_snap=options["late_snap"],
            failed_snap_reveal=options["failed_snap_reveal"],
            penalty_visible=options["penalty_card_visible_to_owner"],
            zero_card_rival_snap=options["zero_card_rival_snap"],
            powers_optional=options["powers_optional"],
            min_own_turns=options["min_own_turns_before_call"],
            lock_caller=options["lock_caller"],
            failed_call_penalty=options["failed_call_penalty"],
            target_score=options["target_score"],
            decks=(1 if players <= 6 else 2) if decks == "auto" else int(decks),
            stock_exhausted=options["common.stock_exhausted"],
            tiebreak=options["common.tiebreak"],
            memory=options["common.memory"],
            turn_limit=None if limit == "none" else int(limit),
        )


# ---------------------------------------------------------------- values

POWER_RANKS = frozenset({"5", "6", "Q", "K"})
_VALUES = {"A": 1, "J": 0, "Q": 20, "K": 20}


@cache  # a few dozen card codes; every round end adds up every grid
def value(card: Card) -> int:
    """A = 1, 2–10 face value, J = 0, Q = K = 20."""
    r = rank(card)
    return _VALUES[r] if r in _VALUES else int(r)


# ---------------------------------------------------------------- phases and steps

ROUND_SETUP = "ROUND_SETUP"  # only between GameStarted and the first RoundDealt
INITIAL_PEEK = "INITIAL_PEEK"
TURNS = "TURNS"
FINAL_LAP = "FINAL_LAP"
FINAL_WINDOW = "FINAL_WINDOW"
GAME_OVER = "GAME_OVER"

AWAIT_ACTION = "AWAIT_ACTION"
HOLDING = "HOLDING"
POWER = "POWER"
KING_DECIDE = "KING_DECIDE"

Target = tuple[int, str]  # (owner seat, slot)


# ---------------------------------------------------------------- commands


@fast_init
@dataclass(frozen=True, slots=True)
class ChoosePeek:
    slots: tuple[str, ...]


@fast_init
@dataclass(frozen=True, slots=True)
class CallCorte:
    pass


@fast_init
@dataclass(frozen=True, slots=True)
class Draw:
    """Take the top card of the stock (Corte never draws from the discard pile)."""

    source: Literal["stock"] = "stock"


@fast_init
@dataclass(frozen=True, slots=True)
class DiscardDrawn:
    pass


@fast_init
@dataclass(frozen=True, slots=True)
class Replace:
    slot: str


@fast_init
@dataclass(frozen=True, slots=True)
class PeekOwn:
    slot: str


@fast_init
@dataclass(frozen=True, slots=True)
class PeekRival:
    player: int
    slot: str


@fast_init
@dataclass(frozen=True, slots=True)
class BlindSwap:
    own_slot: str
    rival: int
    rival_slot: str


@fast_init
@dataclass(frozen=True, slots=True)
class KingLook:
    own_slot: str
    rival: int
    rival_slot: str


@fast_init
@dataclass(frozen=True, slots=True)
class KingSwap:
    pass


@fast_init
@dataclass(frozen=True, slots=True)
class KingKeep:
    pass


@fast_init
@dataclass(frozen=True, slots=True)
class SnapOwn:
    window_id: int
    slot: str
    penalty_to: str


@fast_init
@dataclass(frozen=True, slots=True)
class SnapRival:
    window_id: int
    rival: int
    rival_slot: str
    penalty_to: str
    give_slot: str | None = None


COMMAND_TYPES: dict[str, type] = {c.__name__: c for c in (
    ChoosePeek, CallCorte, Draw, SkipTurn, DiscardDrawn, Replace, PeekOwn, PeekRival, BlindSwap,
    KingLook, KingSwap, KingKeep, SkipPower, SnapOwn, SnapRival, Pass, PlaceOrder, CancelOrder, TurnTimedOut,
    FinalWindowExpired)}
SYSTEM_COMMANDS = (TurnTimedOut, FinalWindowExpired)
#: The claims a standing order may send.
ORDER_CLAIMS: dict[str, type] = {"SnapOwn": SnapOwn, "SnapRival": SnapRival}


# ---------------------------------------------------------------- state


class State(NamedTuple):
    """Everything the rules know: immutable, compared by value (the replay check).

    A ``NamedTuple`` rather than a frozen dataclass on purpose: every event builds a new
    state, and rebuilding a 27-field tuple is several times cheaper than
    ``dataclasses.replace`` (the ``facedown simulate`` budget). Use :func:`with_`.
    """

    players: int
    opts: Opts
    options: tuple[tuple[str, Any], ...]
    first_dealer: int
    round: int
    dealer: int
    scores: tuple[int, ...]
    last_scores: tuple[int, ...] | None
    phase: str
    turn: int | None
    step: str | None
    turn_no: int
    held: Card | None
    power: str | None
    king: tuple[str, int, str] | None
    layouts: tuple[Layout, ...]
    stock: tuple[Card, ...]
    pile: tuple[Card, ...]
    window: Window | None
    window_seq: int
    notebook: Notebook
    peeked: frozenset[int]
    caller: int | None
    own_turns: tuple[int, ...]
    skips: int
    shuffles: tuple[tuple[int, tuple[Card, ...], str, str], ...]
    winners: tuple[int, ...] | None
    book: OrderBook  # the round's standing orders

    def locked(self) -> int | None:
        """The seat whose layout is frozen (the caller, under ``lock_caller``), if any."""
        return self.caller if self.opts.lock_caller else None


with_ = tuple_replacer(State)  # ``s`` with some fields changed: ``with_(s, turn=1, step=None)``
