"""Pedro: the Ruleset object, put together from the modules of this package."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain import codec
from domain.messages import TurnTimedOut
from domain.rules.pedro import view as pv
from domain.rules.pedro.decide import decide
from domain.rules.pedro.evolve import evolve
from domain.rules.pedro.flow import start
from domain.rules.pedro.messages import COMMANDS, EVENTS
from domain.rules.pedro.model import AWAIT, HOLDING, NAME, OPTIONS, OVER, POWER, resolve
from domain.table import cards_on_table


class PedroRuleset:
    """Pedro as a :class:`domain.ruleset.Ruleset`."""

    name = NAME
    title = "Pedro"
    min_players = 2
    max_players = 10
    options = OPTIONS
    command_types = COMMANDS
    event_types = EVENTS
    choice_fields = pv.CHOICE_FIELDS

    def resolve_options(self, raw: Mapping[str, Any] | None, players: int) -> dict[str, Any]:
        return resolve(raw, players)

    def start(self, players: int, options: Mapping[str, Any], key: bytes) -> tuple[Any, ...]:
        return start(players, options, key)

    # remembered per JSON form: domain.codec.CommandParser (called as it is, not as a method)
    parse_command = codec.CommandParser(COMMANDS)

    # The module's functions themselves, not methods that call them: called for every command and event.
    decide = staticmethod(decide)
    evolve = staticmethod(evolve)

    def view(self, state: Any, seat: int | None) -> Any:
        return pv.view(state, seat)

    def redact(self, event: Any, seat: int | None) -> Any:
        return pv.redact(event, seat)

    def legal_actions(self, state: Any, seat: int) -> list[Any]:
        return pv.legal_actions(state, seat)

    def may_move(self, state: Any, seat: int) -> bool:
        return bool(pv.legal_actions(state, seat))  # Pedro has no standing orders

    def moves(self, state: Any, seat: int) -> list[Any]:
        return pv.legal_actions(state, seat)

    def is_terminal(self, state: Any) -> bool:
        return bool(state.step == OVER)

    def scores(self, state: Any) -> tuple[int, ...]:
        return tuple(state.scores)

    def awaiting(self, state: Any) -> tuple[int, ...]:
        return () if state.step == OVER or state.turn is None else (state.turn,)

    def deadlines(self, state: Any) -> tuple[Any, ...]:
        if state.step in (AWAIT, HOLDING, POWER) and state.turn is not None:
            return (TurnTimedOut(state.turn, state.turn_no),)
        return ()

    def summary(self, state: Any) -> Any:
        return pv.summary(state)

    def cards_in_play(self, state: Any) -> list[str]:
        return cards_on_table(state.stock, state.pile, state.layouts, state.held)

    def full_pack(self, state: Any) -> list[str]:
        return list(state.cfg.pack)


RULESET = PedroRuleset()
