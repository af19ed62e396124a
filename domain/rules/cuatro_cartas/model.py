"""4 Cartas: options, card values, commands and state (data only, no flow).

See :mod:`domain.rules.cuatro_cartas` for the rules this data serves, and
:mod:`domain.rules.cuatro_cartas.events` for its events. Everything here is a frozen
dataclass of JSON-typed fields (or a NamedTuple), so that a state folded twice from the
same events compares equal.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from domain.cards import Card
from domain.frozen import fast_init, tuple_replacer
from domain.messages import Draw, FinalWindowExpired, Pass, SkipTurn, TurnTimedOut
from domain.orders import CancelOrder, OrderBook, PlaceOrder
from domain.ruleset import COMMON_OPTIONS, COMMON_PAGE, OptionSpec, documented
from domain.table import Layout, Window

NAME = "cuatro-cartas"
MIN_PLAYERS, MAX_PLAYERS = 2, 8
POWER_RANKS = ("K", "J", "Q")
BASE_SLOTS_N = 4
LOOKS = {"K": 2, "J": 1, "Q": 1}

# -- options (keys without the ``quatro.`` prefix) --------------------------------------


def _bool(key: str, default: bool, doc: str) -> OptionSpec:
    return OptionSpec(key, default, doc, kind="bool")


QUATRO_OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("eight_rule", "all_eights", "8s are -5 when only 8s are left (all_eights) or when paired",
               choices=("all_eights", "pair_rule")),
    _bool("rival_matching", False, "MatchRival: match a rival's card and give one of yours"),
    _bool("single_match_per_discard", False, "the first correct match wins the window"),
    _bool("group_match_all_or_nothing", False, "MatchGroup: several own slots, all or nothing"),
    _bool("in_turn_match_power", False, "a K/J/Q matched by the active player before drawing fires"),
    _bool("replaced_card_power", True, "a K/J/Q replaced out of the layout fires its power"),
    _bool("allow_rediscard", True, "a card taken from the pile may be discarded again, no power"),
    _bool("rediscard_power", False, "a K/J/Q taken from the pile and discarded again fires its power"),
    _bool("swap_must_include_own", False, "a K/J swap must involve one of the player's cards"),
    OptionSpec("close_timing", "instead_of_turn", "Fechei instead of a turn, or as close:true after it",
               choices=("instead_of_turn", "after_turn")),
    _bool("lock_closer", False, "the closer's layout is locked during the final lap"),
    OptionSpec("failed_close_negative", "one_point", "a failed close with a negative total",
               choices=("one_point", "keep_total", "double")),
    OptionSpec("rounds", 5, "rounds in a game", kind="int", minimum=1, maximum=100),
    OptionSpec("penalty_placement", "new_slot", "where a penalty card goes",
               choices=("new_slot", "empty_slot_first")),
    _bool("penalty_card_visible_to_owner", False, "the owner privately sees a penalty card"),
    OptionSpec("failed_match_reveal", "public", "who sees a wrongly matched card",
               choices=("public", "claimant_only", "none")),
    _bool("auto_close_when_empty", False, "a player with an empty layout closes at once"),
)

# 4 Cartas always plays with its one pack ("1 baralho"): 2 packs is refused.
_COMMON = tuple(
    OptionSpec(s.key, s.default, s.doc + " (4 Cartas: always 1 pack)", choices=("auto", 1))
    if s.key == "common.decks" else s
    for s in COMMON_OPTIONS
)
OPTIONS: tuple[OptionSpec, ...] = (documented(QUATRO_OPTIONS, "docs/rules/cuatro-cartas.md#5-options")
                                   + documented(_COMMON, COMMON_PAGE))


@fast_init
@dataclass(frozen=True, slots=True)
class Opts:
    """The resolved options as typed attributes (read on every step, so kept flat)."""

    eight_rule: str
    rival_matching: bool
    single_match_per_discard: bool
    group_match_all_or_nothing: bool
    in_turn_match_power: bool
    replaced_card_power: bool
    allow_rediscard: bool
    rediscard_power: bool
    swap_must_include_own: bool
    close_timing: str
    lock_closer: bool
    failed_close_negative: str
    rounds: int
    penalty_placement: str
    penalty_card_visible_to_owner: bool
    failed_match_reveal: str
    auto_close_when_empty: bool
    stock_exhausted: str
    tiebreak: str
    memory: str
    round_turn_limit: int | None

    @staticmethod
    def of(options: dict[str, Any]) -> Opts:
        limit = options["common.round_turn_limit"]
        return Opts(
            # A game stored before an option existed has no value for it: its default is how
            # such games were played (see ``ruleset.ADDED_OPTIONS``).
            **{s.key: options.get(s.key, s.default) for s in QUATRO_OPTIONS},
            stock_exhausted=options["common.stock_exhausted"],
            tiebreak=options["common.tiebreak"],
            memory=options["common.memory"],
            round_turn_limit=None if limit == "none" else int(limit),
        )


# -- card values -------------------------------------------------------------------------

_VALUES = {"A": 1, "J": 10, "Q": 10, "K": 10, "8": 0}


def card_value(card: Card) -> int:
    """Face value, with an 8 at 0 (the 8 rule is applied per layout by :func:`layout_total`)."""
    r = card[:-1]
    v = _VALUES.get(r)
    return int(r) if v is None else v


def layout_total(cards: tuple[Card, ...], eight_rule: str) -> int:
    """A layout's total T_i: empty slots count 0; 8s are -5 or 0 per ``eight_rule``."""
    eights = sum(1 for c in cards if c[:-1] == "8")
    if eight_rule == "all_eights":
        minus = eights > 0 and eights == len(cards)
    else:  # pair_rule: a lone 8 alone in the layout, or two or more 8s
        minus = eights >= 2 or (eights == 1 and len(cards) == 1)
    return sum(card_value(c) for c in cards) + (-5 * eights if minus else 0)


def closer_score(t_c: int, others: list[int], failed_close_negative: str) -> tuple[int, str]:
    """(round score, outcome) of the closer: strictly lowest, else doubled."""
    if all(t_c < t for t in others):
        return t_c, "succeeded"
    if t_c > 0:
        return 2 * t_c, "failed"
    if t_c == 0:
        return 1, "failed"
    return {"one_point": 1, "keep_total": t_c, "double": 2 * t_c}[failed_close_negative], "failed"


# -- commands ---------------------------------------------------------------------------------

Target = tuple[int, str]


@fast_init
@dataclass(frozen=True, slots=True)
class ChoosePeek:
    slots: tuple[str, str]


@fast_init
@dataclass(frozen=True, slots=True)
class Close:
    pass


@fast_init
@dataclass(frozen=True, slots=True)
class DiscardDrawn:
    close: bool = False


@fast_init
@dataclass(frozen=True, slots=True)
class Replace:
    slot: str
    close: bool = False


@fast_init
@dataclass(frozen=True, slots=True)
class Look:
    targets: tuple[tuple[int, str], ...]
    close: bool = False


@fast_init
@dataclass(frozen=True, slots=True)
class SkipPower:
    close: bool = False


@fast_init
@dataclass(frozen=True, slots=True)
class Swap:
    a: tuple[int, str]
    b: tuple[int, str]
    close: bool = False


@fast_init
@dataclass(frozen=True, slots=True)
class NoSwap:
    close: bool = False


@fast_init
@dataclass(frozen=True, slots=True)
class Match:
    window_id: int
    slot: str


@fast_init
@dataclass(frozen=True, slots=True)
class MatchRival:
    window_id: int
    rival: int
    rival_slot: str
    give_slot: str


@fast_init
@dataclass(frozen=True, slots=True)
class MatchGroup:
    window_id: int
    slots: tuple[str, ...]


COMMANDS: tuple[type, ...] = (ChoosePeek, Close, Draw, SkipTurn, DiscardDrawn, Replace, Look, SkipPower, Swap,
                              NoSwap, Match, MatchRival, MatchGroup, Pass, PlaceOrder, CancelOrder, TurnTimedOut,
                              FinalWindowExpired)
COMMAND_TYPES: dict[str, type] = {c.__name__: c for c in COMMANDS}
#: The claims a standing order may send (``MatchRival`` only under ``rival_matching``).
ORDER_CLAIMS: dict[str, type] = {"Match": Match, "MatchRival": MatchRival}

# -- state ------------------------------------------------------------------------------------

# Phases: INITIAL_PEEK, TURNS, FINAL_LAP, FINAL_WINDOW, REVEAL (transient), GAME_OVER.
# Steps of the active player: AWAIT_ACTION, HOLDING, POWER_LOOK, POWER_SWAP (None between turns).


class State(NamedTuple):
    """The whole game. A NamedTuple, not a dataclass: copying it with :func:`with_` is
    several times faster than ``dataclasses.replace`` and the rules must reach 50,000 steps/s.

    ``known[p][i]`` is the notebook as a bitmask of the seats that can
    locate the card in seat p's i-th slot (the same data as :class:`domain.table.Notebook`,
    kept aligned with the layouts because a swap or a forget is then O(1)).
    """

    players: int
    opts: Opts
    options: dict[str, Any]
    first_dealer: int
    round: int = 0
    dealer: int = 0
    phase: str = "SETUP"
    step: str | None = None
    turn: int | None = None
    turn_no: int = 0
    layouts: tuple[Layout, ...] = ()
    known: tuple[tuple[int, ...], ...] = ()
    stock: tuple[Card, ...] = ()
    pile: tuple[Card, ...] = ()
    held: Card | None = None
    held_source: str | None = None
    power: str | None = None
    power_returns: bool = False
    close_pending: bool = False
    window: Window | None = None
    last_window_id: int = -1
    peeked: frozenset[int] = frozenset()
    closer: int | None = None
    skip_run: int = 0
    shuffle_no: int = 0
    orders: tuple[tuple[int, tuple[Card, ...], str | None, str], ...] = ()
    scores: tuple[int, ...] = ()
    last_round: tuple[int, ...] = ()
    winners: tuple[int, ...] | None = None
    book: OrderBook = OrderBook()  # the round's standing orders

    def locked(self, seat: int) -> bool:
        """The closer's layout is frozen from the call on (``lock_closer``)."""
        return seat == self.closer and self.opts.lock_closer

    def knows(self, seat: int, owner: int, slot: str) -> bool:
        """The notebook: ``seat`` can locate the card in ``owner``'s ``slot``."""
        lay = self.layouts[owner]
        return slot in lay.slots and bool(self.known[owner][lay.slots.index(slot)] >> seat & 1)


with_ = tuple_replacer(State)  # ``s`` with some fields changed: ``with_(s, turn=1, step=None)``
