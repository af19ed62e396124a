"""Corte: the Ruleset object, put together from the modules of this package."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain import chance
from domain.cards import french_pack
from domain.codec import CommandParser
from domain.errors import InvalidOptions
from domain.messages import FinalWindowExpired, GameStarted, TurnTimedOut
from domain.rules.corte import view as corte_view
from domain.rules.corte.decide import decide
from domain.rules.corte.events import EVENT_TYPES
from domain.rules.corte.evolve import evolve
from domain.rules.corte.claims import Out
from domain.rules.corte.flow import deal
from domain.rules.corte.model import (
    COMMAND_TYPES, FINAL_LAP, FINAL_WINDOW, GAME_OVER, INITIAL_PEEK, OPTIONS, ORDER_CLAIMS, TURNS, State,
)
from domain.ruleset import resolve_options
from domain.table import cards_on_table

NAME = "corte"


class Corte:
    """The Corte ruleset (satisfies :class:`domain.ruleset.Ruleset`)."""

    name = NAME
    title = "Corte"
    min_players = 2
    max_players = 10
    options = OPTIONS
    command_types = COMMAND_TYPES
    event_types = EVENT_TYPES
    order_claims = ORDER_CLAIMS  # the claims a standing order may send
    choice_fields = corte_view.CHOICE_FIELDS

    def resolve_options(self, raw: Mapping[str, Any] | None, players: int) -> dict[str, Any]:
        if not self.min_players <= players <= self.max_players:
            raise InvalidOptions({"players": f"Corte is for {self.min_players}-{self.max_players} players"})
        return resolve_options(OPTIONS, raw)

    def start(self, players: int, options: Mapping[str, Any], key: bytes) -> tuple[Any, ...]:
        resolved = self.resolve_options(options, players)
        first_dealer = chance.pick(key, "first-dealer", players)
        started = GameStarted(NAME, players, resolved, first_dealer)
        out = Out(evolve(None, started), key)
        out.events.append(started)
        deal(out, 1, first_dealer)
        return tuple(out.events)

    # remembered per JSON form: domain.codec.CommandParser (called as it is, not as a method)
    parse_command = CommandParser(COMMAND_TYPES)

    # The module's functions themselves, not methods that call them: called for every command and event.
    decide = staticmethod(decide)
    evolve = staticmethod(evolve)

    def view(self, state: State, seat: int | None) -> Any:
        return corte_view.view(state, seat)

    def redact(self, event: Any, seat: int | None) -> Any:
        return corte_view.redact(event, seat)

    def legal_actions(self, state: State, seat: int) -> list[Any]:
        return corte_view.legal_actions(state, seat)

    def may_move(self, state: State, seat: int) -> bool:
        return corte_view.may_move(state, seat)

    def moves(self, state: State, seat: int) -> list[Any]:
        return corte_view.moves(state, seat)

    def is_terminal(self, state: State) -> bool:
        return state.phase == GAME_OVER

    def scores(self, state: State) -> tuple[int, ...]:
        return state.scores

    def awaiting(self, state: State) -> tuple[int, ...]:
        return corte_view.awaiting(state)

    def deadlines(self, state: State) -> tuple[Any, ...]:
        if state.phase == INITIAL_PEEK:
            return tuple(TurnTimedOut(p, 0) for p in corte_view.awaiting(state))
        if state.phase in (TURNS, FINAL_LAP) and state.turn is not None and state.step is not None:
            return (TurnTimedOut(state.turn, state.turn_no),)
        if state.phase == FINAL_WINDOW and state.window is not None:
            return (FinalWindowExpired(state.window.id),)
        return ()

    def summary(self, state: State) -> Any:
        return corte_view.summary(state)

    def cards_in_play(self, state: State) -> list[str]:
        return cards_on_table(state.stock, state.pile, state.layouts, state.held)

    def full_pack(self, state: State) -> list[str]:
        return list(french_pack() * state.opts.decks)


RULESET = Corte()
