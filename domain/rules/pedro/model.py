"""Pedro: options, card values, the deal and the state (the data of the game).

The rules live in :mod:`domain.rules.pedro`; this module only declares what they act on,
read top to bottom: options, the derived :class:`Config`, card values and the
"identical" test, the deal procedure and the state.
Commands and events are in :mod:`domain.rules.pedro.messages`.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from domain import cards
from domain.errors import InvalidOptions
from domain.frozen import fast_init, tuple_replacer
from domain.ruleset import COMMON_OPTIONS, COMMON_PAGE, OptionSpec, documented, resolve_options
from domain.table import BASE_SLOTS, Layout, Notebook

NAME = "pedro"
MIN_PLAYERS, MAX_PLAYERS = 2, 10
#: Notebook seat standing for "everyone at the table": a fact learned in public.
PUBLIC = -1

# --------------------------------------------------------------------------- options

_B = "bool"
OPTIONS: tuple[OptionSpec, ...] = documented(COMMON_OPTIONS, COMMON_PAGE) + documented((
    OptionSpec("deck_profile", "french54", "pack: French 52 + 2 jokers, or Spanish 48 + 2 comodines",
               choices=("french54", "spanish50")),
    OptionSpec("zero_card", "KD", "which card(s) are worth 0 in french54",
               choices=("KD", "red_kings", "QD", "all_diamonds", "none")),
    OptionSpec("face_values", "11-12-13", "J/Q/K values in french54", choices=("11-12-13", "10")),
    OptionSpec("zero_card_matches_rank", True, "a 0-point card is identical to its rank", kind=_B),
    OptionSpec("direction", "right", "right = counter-clockwise", choices=("right", "left")),
    OptionSpec("peek_timing", "at_deal", "when C and D are shown", choices=("at_deal", "before_own_first_turn")),
    OptionSpec("show_drawn_card", True, "a card drawn from the stock is shown to everyone", kind=_B),
    OptionSpec("allow_return_discard_draw", True, "Release of a card taken from the pile", kind=_B),
    OptionSpec("powers_optional", False, "SkipPower after releasing a stock 5 or 6", kind=_B),
    OptionSpec("power5_any_two", False, "a 5 may swap any two cards of two different seats", kind=_B),
    OptionSpec("multi_discard_sources", "stock_only", "which draws allow a multi-discard",
               choices=("stock_only", "any")),
    OptionSpec("joker_groups", "wild", "jokers in identical groups", choices=("wild", "wild_needs_natural")),
    OptionSpec("failed_group_reveal", "public", "who sees a wrong group", choices=("public", "private", "none")),
    OptionSpec("min_own_turns_before_call", 0, "own turns before CallPedro", kind="int", minimum=0, maximum=100),
    OptionSpec("final_lap_after_call", False, "everyone else gets one more turn after a call", kind=_B),
    OptionSpec("penalty_card_peekable", False, "E1 is shown with C and D", kind=_B),
    OptionSpec("match_mode", "points", "game end", choices=("points", "rounds", "round_wins")),
    OptionSpec("target_score", 100, "points mode: the game ends when someone reaches this", kind="int", minimum=1, maximum=100_000),
    OptionSpec("rounds", 5, "rounds mode: number of rounds", kind="int", minimum=1, maximum=100),
    OptionSpec("round_wins_target", 3, "round_wins mode: round wins needed", kind="int", minimum=1, maximum=100),
    OptionSpec("caller_win_scores_zero", False, "a winning caller scores 0 for the round", kind=_B),
), "docs/rules/pedro.md#5-options")


def resolve(raw: Mapping[str, Any] | None, players: int) -> dict[str, Any]:
    """Every option resolved, or :class:`InvalidOptions` (also for a seat count out of range)."""
    out = resolve_options(OPTIONS, raw)
    errors: dict[str, str] = {}
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        errors["players"] = f"Pedro is for {MIN_PLAYERS}-{MAX_PLAYERS} players"
    if out["common.decks"] == 1 and players > 6:
        errors["common.decks"] = "one pack is for up to 6 players"
    if errors:
        raise InvalidOptions(errors)
    return out


# --------------------------------------------------------------------------- values


def card_values(options: Mapping[str, Any]) -> dict[str, int]:
    """Card code -> points."""
    out: dict[str, int] = {}
    if options["deck_profile"] == "spanish50":
        out = {c: int(cards.rank(c)) for c in cards.spanish_pack()}
        out["12O"] = 0  # Tincho's 0 card; zero_card and face_values do not apply
    else:
        face = {"J": 11, "Q": 12, "K": 13} if options["face_values"] == "11-12-13" else {"J": 10, "Q": 10, "K": 10}
        for c in cards.french_pack():
            r = cards.rank(c)
            out[c] = 1 if r == "A" else face[r] if r in face else int(r)
        for z in zero_cards(options):
            out[z] = 0
    out[cards.JOKER] = 1
    return out


def zero_cards(options: Mapping[str, Any]) -> frozenset[str]:
    """The cards that pedro.zero_card prices at 0 (french54 only)."""
    if options["deck_profile"] == "spanish50":
        return frozenset({"12O"})
    pick = options["zero_card"]
    if pick == "all_diamonds":
        return frozenset(c for c in cards.french_pack() if cards.suit(c) == "D")
    return frozenset({"KD": ("KD",), "red_kings": ("KD", "KH"), "QD": ("QD",), "none": ()}[pick])


def match_keys(options: Mapping[str, Any]) -> dict[str, str | None]:
    """Card code -> what "identical" compares (None = a wild joker).

    With ``zero_card_matches_rank = false`` a 0-point card is identical only to another
    0-point card of the same rank (the second K♦ of a two-pack game), never to its rank.
    """
    zeros = zero_cards(options)
    pack = cards.spanish_pack() if options["deck_profile"] == "spanish50" else cards.french_pack()
    keys: dict[str, str | None] = {}
    for c in pack:
        r = cards.rank(c)
        keys[c] = ("0:" + r) if (c in zeros and not options["zero_card_matches_rank"]) else r
    keys[cards.JOKER] = None
    return keys


def one_pack(options: Mapping[str, Any]) -> tuple[str, ...]:
    if options["deck_profile"] == "spanish50":
        return cards.spanish_pack(2)
    return cards.french_pack(2)


def pack_count(options: Mapping[str, Any], players: int) -> int:
    decks = options["common.decks"]
    return int(decks) if decks != "auto" else (1 if players <= 6 else 2)


@fast_init
@dataclass(frozen=True, slots=True)
class Config:
    """Options turned into what the rules read often (derived, so replay rebuilds it equal)."""

    players: int
    direction: int
    values: dict[str, int]
    keys: dict[str, str | None]
    pack: tuple[str, ...]
    peek_at_deal: bool
    penalty_peekable: bool
    show_drawn: bool
    allow_return: bool
    powers_optional: bool
    power5_any_two: bool
    multi_any: bool
    joker_needs_natural: bool
    failed_reveal: str
    min_turns: int
    final_lap: bool
    match_mode: str
    target_score: int
    rounds: int
    round_wins_target: int
    caller_zero: bool
    end_round_on_empty: bool
    tiebreak: str
    strict: bool
    turn_limit: int | None


def make_config(options: Mapping[str, Any], players: int) -> Config:
    limit = options["common.round_turn_limit"]
    return Config(
        players=players,
        direction=-1 if options["direction"] == "right" else 1,
        values=card_values(options),
        keys=match_keys(options),
        pack=tuple(sorted(one_pack(options) * pack_count(options, players))),
        peek_at_deal=options["peek_timing"] == "at_deal",
        penalty_peekable=options["penalty_card_peekable"],
        show_drawn=options["show_drawn_card"],
        allow_return=options["allow_return_discard_draw"],
        powers_optional=options["powers_optional"],
        power5_any_two=options["power5_any_two"],
        multi_any=options["multi_discard_sources"] == "any",
        joker_needs_natural=options["joker_groups"] == "wild_needs_natural",
        failed_reveal=options["failed_group_reveal"],
        min_turns=options["min_own_turns_before_call"],
        final_lap=options["final_lap_after_call"],
        match_mode=options["match_mode"],
        target_score=options["target_score"],
        rounds=options["rounds"],
        round_wins_target=options["round_wins_target"],
        caller_zero=options["caller_win_scores_zero"],
        end_round_on_empty=options["common.stock_exhausted"] == "end_round",
        tiebreak=options["common.tiebreak"],
        strict=options["common.memory"] == "strict",
        turn_limit=None if limit == "none" else int(limit),
    )


def identical(group: Sequence[str], cfg: Config) -> bool:
    """Identical: every non-joker has the same rank; jokers are wild (``joker_groups``)."""
    keys = {cfg.keys[c] for c in group}
    naturals = keys - {None}
    if not naturals:
        return not cfg.joker_needs_natural
    return len(naturals) == 1


def power_of(card: str) -> int | None:
    """5 and 6 carry powers (in both profiles); a joker has none."""
    r = cards.rank(card)
    return int(r) if r in ("5", "6") else None


# --------------------------------------------------------------------------- deal


def seating(first: int, players: int, direction: int) -> list[int]:
    return [(first + direction * i) % players for i in range(players)]


def deal_from(order: Sequence[str], players: int, first: int, direction: int,
              penalty_seat: int | None) -> tuple[tuple[Layout, ...], tuple[str, ...], tuple[str, ...]]:
    """The deal: (layouts, stock, pile) from the shuffled order.

    Each seat, from the first player on in the direction of play, takes the next 4 cards
    from the top (A, B, C, D; a penalised seat a 5th in E1); the bottom card starts the pile.
    """
    layouts: list[Layout | None] = [None] * players
    i = 0
    for seat in seating(first, players, direction):
        k = 5 if seat == penalty_seat else 4
        slots = BASE_SLOTS + (("E1",) if k == 5 else ())
        layouts[seat] = Layout(slots, tuple(order[i:i + k]))
        i += k
    return tuple(l for l in layouts if l is not None), tuple(order[i:-1]), (order[-1],)


def order_for(layouts: Sequence[Sequence[str]], stock: Sequence[str], upcard: str, first: int,
              direction: int) -> tuple[str, ...]:
    """The inverse of :func:`deal_from` (for tests and fixtures): the order that deals these."""
    out: list[str] = []
    for seat in seating(first, len(layouts), direction):
        out.extend(layouts[seat])
    return tuple(out) + tuple(stock) + (upcard,)


# --------------------------------------------------------------------------- state

AWAIT, HOLDING, POWER, BETWEEN, REVEAL, OVER = (
    "AWAIT_ACTION", "HOLDING", "POWER_PROMPT", "BETWEEN_TURNS", "REVEAL", "GAME_OVER")


class State(NamedTuple):
    """Everything the rules know: immutable, compared by value (the replay check).

    A ``NamedTuple``, as Corte's and 4 Cartas' states are: evolve builds one per event, and
    a tuple is copied with changes (:data:`with_`, ``domain.frozen.tuple_setter``) and read
    field by field for less than a dataclass's ``__dict__``.
    """

    cfg: Config
    options: dict[str, Any]
    players: int
    dealer: int
    scores: tuple[int, ...]
    round_wins: tuple[int, ...]
    round: int = 0
    step: str = BETWEEN
    turn: int | None = None
    turn_no: int = 0
    layouts: tuple[Layout, ...] = ()
    stock: tuple[str, ...] = ()
    pile: tuple[str, ...] = ()
    held: str | None = None
    source: str | None = None
    power: int | None = None
    notebook: Notebook = Notebook()
    caller: int | None = None
    turns_done: int = 0
    skip_streak: int = 0
    own_turns: tuple[int, ...] = ()
    acted: frozenset[int] = frozenset()
    peeked: frozenset[int] = frozenset()
    penalty_seat: int | None = None
    last_round: tuple[int, ...] | None = None
    orders: tuple[tuple[int, tuple[str, ...], str, str], ...] = ()
    winners: tuple[int, ...] | None = None


with_ = tuple_replacer(State)  # ``s`` with some fields changed: ``with_(s, turn=1, step=AWAIT)``
