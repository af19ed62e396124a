"""The interface every ruleset offers the service: a Decider with a seat's-eye view.

A ruleset module ends with ``RULESET = <an object satisfying Ruleset>``. The service
only ever calls what is declared here:

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
  one for ``seat=None``;
* ``redact(event, seat)`` → the JSON form of the event as that seat (or a spectator,
  ``None``) may see it, or ``None`` if the seat sees nothing of it;
* ``legal_actions(state, seat)`` → every concrete command the seat may send now, as
  JSON-able dicts that ``parse_command`` and ``decide`` accept as they are;
* ``is_terminal``, ``scores`` (cumulative, by seat), ``awaiting`` (seats whose
  action the game waits for), ``summary`` (public round/phase/turn facts);
* ``deadlines(state)`` → the system commands the service sends if the current wait
  times out (RULES §2.11): ``TurnTimedOut`` for a turn (one per seat still to choose
  an initial peek), ``FinalWindowExpired`` for a final window; ``()`` when nothing
  waits. Each is accepted by ``decide(state, None, command, key)``, so a game whose
  players stop moving never stalls (it need not end: calls are never automatic);
* ``cards_in_play(state)`` → every card in every place (for conservation checks) and
  ``full_pack(state)`` the multiset it must equal.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from domain.errors import InvalidOptions

JSON = Any


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One house-rule option: a key, its default and what values it takes."""

    key: str
    default: Any
    doc: str
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    nullable: bool = False
    kind: str = field(default="enum")  # "enum" | "int" | "bool"

    def check(self, value: Any) -> str | None:
        """An error message, or ``None`` if ``value`` is acceptable."""
        if value is None:
            return None if self.nullable else "may not be null"
        if self.kind == "bool":
            return None if isinstance(value, bool) else "must be true or false"
        if self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                if value in self.choices:
                    return None
                return "must be an integer" + (f" or one of {list(self.choices)}" if self.choices else "")
            if self.minimum is not None and value < self.minimum:
                return f"must be at least {self.minimum}"
            if self.maximum is not None and value > self.maximum:
                return f"must be at most {self.maximum}"
            return None
        return None if value in self.choices else f"must be one of {list(self.choices)}"

    def schema(self) -> dict[str, Any]:
        """A JSON-Schema-like description for ``GET /v1/rulesets``."""
        out: dict[str, Any] = {"key": self.key, "default": self.default, "description": self.doc}
        if self.kind == "bool":
            out["type"] = "boolean"
        elif self.kind == "int":
            out["type"] = "integer"
            if self.minimum is not None:
                out["minimum"] = self.minimum
            if self.maximum is not None:
                out["maximum"] = self.maximum
            if self.choices:
                out["enum_also"] = list(self.choices)
        else:
            out["type"] = "string"
            out["enum"] = list(self.choices)
        out["nullable"] = self.nullable
        return out


def resolve_options(specs: Sequence[OptionSpec], raw: Mapping[str, Any] | None) -> dict[str, Any]:
    """Defaults filled in, unknown keys and bad values refused with every error at once."""
    raw = dict(raw or {})
    known = {s.key: s for s in specs}
    errors = {k: "unknown option" for k in raw if k not in known}
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


COMMON_OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("common.decks", "auto", "packs: auto = 1 up to 6 players, 2 for 7-10", choices=("auto", 1, 2)),
    OptionSpec("common.stock_exhausted", "reshuffle", "when the stock runs out (RULES §2.7)",
               choices=("reshuffle", "end_round")),
    OptionSpec("common.tiebreak", "shared", "a tie for the game win (RULES §2.9)",
               choices=("shared", "fewest_points_last_round", "play_another_round")),
    OptionSpec("common.memory", "notebook", "whether a seat's view re-shows face-down cards it has seen",
               choices=("notebook", "strict")),
    OptionSpec("common.round_turn_limit", "none", "a round ends at once when this many turns have ended",
               kind="int", minimum=1, choices=("none",)),
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

    def resolve_options(self, raw: Mapping[str, Any] | None, players: int) -> dict[str, Any]: ...
    def start(self, players: int, options: Mapping[str, Any], key: bytes) -> tuple[Any, ...]: ...
    def parse_command(self, data: Any) -> Any: ...
    def decide(self, state: Any, seat: int | None, command: Any, key: bytes) -> tuple[Any, ...]: ...
    def evolve(self, state: Any, event: Any) -> Any: ...
    def view(self, state: Any, seat: int | None) -> JSON: ...
    def redact(self, event: Any, seat: int | None) -> JSON | None: ...
    def legal_actions(self, state: Any, seat: int) -> list[JSON]: ...
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
