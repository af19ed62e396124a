"""The interface every ruleset offers the service: a Decider with a seat's-eye view.

A ruleset package (``domain.rules.<name>``) exports ``RULESET = <an object satisfying
Ruleset>``. The service only ever calls what is declared here:

* ``resolve_options(raw, players)`` → every option resolved (defaults filled in),
  or :class:`~domain.errors.InvalidOptions`;
* ``start(players, options, key)`` → the events that create the game and deal the
  first round (randomness comes from ``key`` via :mod:`domain.chance`);
* ``decide(state, seat, command, key)`` → the events a command produces, or a
  :class:`~domain.errors.RuleError` decided on public information only. ``seat`` is
  ``None`` for system commands (``TurnTimedOut``, ``FinalWindowExpired``);
* ``evolve(state, event)`` → the next state (``state`` is ``None`` before the first
  event); it never validates;
* ``view(state, seat)`` → a JSON-able dict: the seat's own projection, or the public
  one for ``seat=None``, in the common vocabulary that every ruleset shares (the API's
  ``Table``): ``ruleset``, ``seat``, ``round``, ``phase`` and ``step`` (lower case),
  ``turn``, ``turn_no``, ``dealer``, ``scores``, ``last_round_scores``, ``winners``,
  ``players`` (each ``{seat, card_count, cards: [{slot, card, empty}], own_turns,
  locked}``, ``card`` null unless this seat knows it), ``stock_count``,
  ``discard_count``, ``discard_top``, ``held`` (``{card, source}``), ``window``,
  ``call`` (``{seat, kind}``), ``power`` (``{rank}``), and the ruleset's own facts
  in ``extension`` (``{"ruleset": <name>, ...}``);
* ``redact(event, seat)`` → the JSON form of the event as that seat (or a spectator,
  ``None``) may see it, or ``None`` if the seat sees nothing of it; a field may be
  presented under its common name (``PRESENTED_NAMES`` in the ruleset's view module)
  while the stored event keeps its own;
* ``legal_actions(state, seat)`` → every command the seat may send now, as JSON-able
  dicts that ``parse_command`` and ``decide`` accept as they are; an entry may carry
  ``choices`` (:mod:`domain.choices`, on the fields ``choice_fields`` names) and then
  stands for every command they allow, so the list stays short (a few hundred entries
  at most) whatever the state;
* ``moves(state, seat)`` → ``legal_actions`` but for placing or cancelling a standing order
  (which a seat may do at any time), in the same order; ``may_move(state, seat)`` → whether
  there is any, answered without building the lists (the service asks it of every seat on
  every append);
* ``is_terminal``, ``scores`` (cumulative, by seat), ``awaiting`` (seats whose
  action the game waits for), ``summary`` (public round/phase/turn facts);
* ``deadlines(state)`` → the system commands the service sends if the current wait
  times out: ``TurnTimedOut`` for a turn (one per seat still to choose
  an initial peek), ``FinalWindowExpired`` for a final window; ``()`` when nothing
  waits. Each is accepted by ``decide(state, None, command, key)``, so a game whose
  players stop moving never stalls (it need not end: calls are never automatic);
* ``cards_in_play(state)`` → every card in every place (for conservation checks) and
  ``full_pack(state)`` the multiset it must equal.
"""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, runtime_checkable

from domain.errors import InvalidOptions

JSON = Any
#: The most entries ``legal_actions`` may hold in any state (RULES §2.5 rule 8: "a few hundred"):
#: choices (:mod:`domain.choices`) keep every ruleset far below it, whatever the cards.
MOST_LEGAL_ACTIONS = 300
# the ceiling of an integer option that names no maximum of its own: no option is unbounded
# (2**70 once passed, and JSON readers lose integers past 2**53)
INT_MAXIMUM = 1_000_000


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One house-rule option: a key, its default and what values it takes (an integer
    option at most ``maximum``, else :data:`INT_MAXIMUM`)."""

    key: str
    default: Any
    doc: str
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    nullable: bool = False
    kind: str = field(default="enum")  # "enum" | "int" | "bool"

    def _is_choice(self, value: Any) -> bool:
        # exact JSON types: True == 1 and 1.0 == 1 in Python, but neither is the integer 1
        return any(value == c and type(value) is type(c) for c in self.choices)

    def check(self, value: Any) -> str | None:
        """An error message that names the allowed values, or ``None`` if ``value`` is acceptable."""
        if value is None:
            return None if self.nullable else "may not be null" + self._allowed()
        if self.kind == "bool":
            return None if isinstance(value, bool) else "must be true or false"
        if self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                if self._is_choice(value):
                    return None
                return "must be an integer" + (f" or one of {list(self.choices)}" if self.choices else "")
            if self.minimum is not None and value < self.minimum:
                return f"must be at least {self.minimum}"
            if value > self.upper:
                return f"must be at most {self.upper}"
            return None
        return None if self._is_choice(value) else f"must be one of {_json_list(self.choices)}, not {_json(value)}"

    def _allowed(self) -> str:
        if self.kind == "enum":
            return f" (one of {_json_list(self.choices)})"
        return " (true or false)" if self.kind == "bool" else " (an integer)"

    def value_schema(self) -> dict[str, Any]:
        """A JSON Schema that accepts exactly the values :meth:`check` accepts."""
        alternatives: list[dict[str, Any]]
        if self.kind == "bool":
            alternatives = [{"type": "boolean"}]
        elif self.kind == "int":
            number: dict[str, Any] = {"type": "integer"}
            if self.minimum is not None:
                number["minimum"] = self.minimum
            if self.maximum is not None:
                number["maximum"] = self.maximum
            alternatives = [number] + ([{"enum": list(self.choices)}] if self.choices else [])
        else:
            alternatives = [{"enum": list(self.choices)}]
        if self.nullable:
            alternatives.append({"type": "null"})
        return alternatives[0] if len(alternatives) == 1 else {"anyOf": alternatives}

    @property
    def upper(self) -> int:
        """The largest value an integer option takes."""
        return INT_MAXIMUM if self.maximum is None else self.maximum

    def schema(self) -> dict[str, Any]:
        """This option for ``GET /v1/rulesets``: its kind, its values and ``schema`` (see
        :meth:`value_schema`)."""
        out: dict[str, Any] = {"key": self.key, "default": self.default, "description": self.doc}
        if self.kind == "bool":
            out["type"] = "boolean"
        elif self.kind == "int":
            out["type"] = "integer"
            if self.minimum is not None:
                out["minimum"] = self.minimum
            out["maximum"] = self.upper
            if self.choices:
                out["enum_also"] = list(self.choices)
        else:
            out["type"] = "enum"
            out["enum"] = list(self.choices)
        out["nullable"] = self.nullable
        out["schema"] = self.value_schema()
        return out


def _json(value: Any) -> str:
    """A value as JSON writes it (``"auto"``, ``2``, ``true``), so a message shows its type."""
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


def _json_list(values: tuple[Any, ...]) -> str:
    return "[" + ", ".join(_json(v) for v in values) + "]"


def resolve_options(specs: Sequence[OptionSpec], raw: Mapping[str, Any] | None) -> dict[str, Any]:
    """Defaults filled in, unknown keys and bad values refused with every error at once."""
    raw = dict(raw or {})
    known = {s.key: s for s in specs}
    errors = {k: f"unknown option; this game's are: {', '.join(known)}" for k in raw if k not in known}
    resolved: dict[str, Any] = {}
    for key, spec in known.items():
        value = raw.get(key, spec.default)
        problem = spec.check(value)
        if problem:
            errors[key] = problem
        resolved[key] = value
    if errors:
        raise InvalidOptions(errors)
    return resolved


def documented(specs: Sequence[OptionSpec], page: str) -> tuple[OptionSpec, ...]:
    """``specs`` with each description ending in the page that explains the option to players."""
    return tuple(replace(s, doc=f"{s.doc} ({page})") for s in specs)


#: Where the common options are explained (each ruleset's own are on its page, ``#5-options``).
COMMON_PAGE = "docs/rules/README.md#common-options"

COMMON_OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("common.decks", "auto", "packs: auto = 1 up to 6 players, 2 for 7-10", choices=("auto", 1, 2)),
    OptionSpec("common.stock_exhausted", "reshuffle", "when the stock runs out: reshuffle the discards, or end "
               "the round", choices=("reshuffle", "end_round")),
    OptionSpec("common.tiebreak", "shared", "a tie for the game win",
               choices=("shared", "fewest_points_last_round", "play_another_round")),
    OptionSpec("common.memory", "notebook", "whether a seat's view re-shows face-down cards it has seen",
               choices=("notebook", "strict")),
    OptionSpec("common.round_turn_limit", "none", "a round ends at once when this many turns have ended",
               kind="int", minimum=1, maximum=10_000, choices=("none",)),
)


@runtime_checkable
class Ruleset(Protocol):
    """What the service needs of a game; see the module docstring."""

    name: str
    title: str
    min_players: int
    max_players: int
    options: tuple[OptionSpec, ...]
    command_types: Mapping[str, type]
    event_types: Mapping[str, type]
    # optional: presented_names, {event type: {stored field: presented name}} (see redact);
    # order_claims, {claim type: class} for a ruleset with standing orders (domain.orders)
    # choice_fields, {command type: the fields legal_actions may list with choices} (domain.choices)

    def resolve_options(self, raw: Mapping[str, Any] | None, players: int) -> dict[str, Any]: ...
    def start(self, players: int, options: Mapping[str, Any], key: bytes) -> tuple[Any, ...]: ...
    def parse_command(self, data: Any) -> Any: ...
    def decide(self, state: Any, seat: int | None, command: Any, key: bytes) -> tuple[Any, ...]: ...
    def evolve(self, state: Any, event: Any) -> Any: ...
    def view(self, state: Any, seat: int | None) -> JSON: ...
    def redact(self, event: Any, seat: int | None) -> JSON | None: ...
    def legal_actions(self, state: Any, seat: int) -> list[JSON]: ...
    def moves(self, state: Any, seat: int) -> list[JSON]: ...
    def may_move(self, state: Any, seat: int) -> bool: ...
    def is_terminal(self, state: Any) -> bool: ...
    def scores(self, state: Any) -> tuple[int, ...]: ...
    def awaiting(self, state: Any) -> tuple[int, ...]: ...
    def deadlines(self, state: Any) -> tuple[Any, ...]: ...
    def summary(self, state: Any) -> JSON: ...
    def cards_in_play(self, state: Any) -> list[str]: ...
    def full_pack(self, state: Any) -> list[str]: ...


def fold(ruleset: Ruleset, events: Sequence[Any], state: Any = None) -> Any:
    """Replay: the state after ``events``, starting from ``state``."""
    for event in events:
        state = ruleset.evolve(state, event)
    return state
