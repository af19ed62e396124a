"""4 Cartas: the Ruleset object, put together from the modules of this package."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.cards import french_pack
from domain.codec import CommandParser
from domain.errors import InvalidOptions
from domain.messages import FinalWindowExpired, TurnTimedOut
from domain.ruleset import OptionSpec, resolve_options
from domain.rules.cuatro_cartas import flow
from domain.rules.cuatro_cartas import view as seen
from domain.rules.cuatro_cartas.decide import decide
from domain.rules.cuatro_cartas.events import EVENT_TYPES
from domain.rules.cuatro_cartas.evolve import evolve
from domain.rules.cuatro_cartas.model import COMMAND_TYPES, MAX_PLAYERS, MIN_PLAYERS, NAME, OPTIONS, ORDER_CLAIMS, State
from domain.table import cards_on_table


#: Options added after games were first stored, with the value those games played by (their
#: default). A complete option set that lacks them is kept as it is, so that ``start`` on a
#: stored game's options reproduces its stored ``GameStarted`` (the audit replays it).
ADDED_OPTIONS = ("rediscard_power",)
_OLDER_KEYS = frozenset(s.key for s in OPTIONS) - set(ADDED_OPTIONS)


def _stored_before(raw: Mapping[str, Any]) -> bool:
    return _OLDER_KEYS <= raw.keys() and not any(k in raw for k in ADDED_OPTIONS)


class CuatroCartas:
    """The 4 Cartas ruleset object (see the package docstring)."""

    name = NAME
    title = "4 Cartas"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    options: tuple[OptionSpec, ...] = OPTIONS
    command_types = COMMAND_TYPES
    event_types = EVENT_TYPES
    presented_names = seen.PRESENTED_NAMES  # stored field -> presented name, per event type
    order_claims = ORDER_CLAIMS  # the claims a standing order may send
    choice_fields = seen.CHOICE_FIELDS

    def resolve_options(self, raw: Mapping[str, Any] | None, players: int) -> dict[str, Any]:
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise InvalidOptions({"players": f"4 Cartas is for {MIN_PLAYERS} to {MAX_PLAYERS} players"})
        resolved = resolve_options(OPTIONS, raw)
        if raw is not None and _stored_before(raw):
            for key in ADDED_OPTIONS:
                del resolved[key]
        return resolved

    def start(self, players: int, options: Mapping[str, Any], key: bytes) -> tuple[Any, ...]:
        return flow.start_events(players, self.resolve_options(options, players), key)

    # remembered per JSON form: domain.codec.CommandParser (called as it is, not as a method)
    parse_command = CommandParser(COMMAND_TYPES)

    # The module's functions themselves, not methods that call them: called for every command and event.
    decide = staticmethod(decide)
    evolve = staticmethod(evolve)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return seen.view(state, seat)

    def redact(self, event: Any, seat: int | None) -> dict[str, Any] | None:
        return seen.redact(event, seat)

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        if state.phase == "GAME_OVER":
            return []
        return seen.legal_actions(state, seat)

    def may_move(self, state: State, seat: int) -> bool:
        return bool(self.moves(state, seat))

    def moves(self, state: State, seat: int) -> list[dict[str, Any]]:
        return [] if state.phase == "GAME_OVER" else seen.moves(state, seat)

    def is_terminal(self, state: State) -> bool:
        return state.phase == "GAME_OVER"

    def scores(self, state: State) -> tuple[int, ...]:
        return state.scores

    def awaiting(self, state: State) -> tuple[int, ...]:
        return seen.awaiting(state)

    def deadlines(self, state: State) -> tuple[Any, ...]:
        if state.phase == "INITIAL_PEEK":
            return tuple(TurnTimedOut(p, 0) for p in seen.awaiting(state))
        if state.phase in flow.TURN_PHASES and state.turn is not None:
            return (TurnTimedOut(state.turn, state.turn_no),)
        if state.phase == "FINAL_WINDOW" and state.window is not None:
            return (FinalWindowExpired(state.window.id),)
        return ()

    def summary(self, state: State) -> dict[str, Any]:
        return seen.summary(state)

    def cards_in_play(self, state: State) -> list[str]:
        return cards_on_table(state.stock, state.pile, state.layouts, state.held)

    def full_pack(self, state: State) -> list[str]:
        return list(french_pack())


RULESET = CuatroCartas()
