"""Least Score: the Ruleset object, put together from the modules of this package."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain import codec
from domain.cards import french_pack, is_card_code, packs
from domain.errors import InvalidCommand
from domain.messages import TurnTimedOut
from domain.rules.least_score import view as _view
from domain.rules.least_score.decide import decide, start
from domain.rules.least_score.evolve import evolve
from domain.rules.least_score.model import COMMAND_TYPES, EVENT_TYPES, NAME, OPTIONS, LeastState, Play, resolve


def cards_in_play(state: LeastState) -> list[str]:
    out = [c for h in state.hands for c in h]
    return out + list(state.open_set) + list(state.dead) + list(state.stock)


def full_pack(state: LeastState) -> list[str]:
    return list(packs(french_pack(state.opts.jokers), state.opts.decks))


# remembered per JSON form: domain.codec.CommandParser (called as it is, not as a method)
_parse = codec.CommandParser(COMMAND_TYPES)


def parse_command(data: Any) -> Any:
    """A command from its JSON form. A Play's discard must be card codes: anything else is a
    malformed command (422) whatever the game's version, not a set the rules then judge."""
    command = _parse(data)
    if type(command) is Play and not all(is_card_code(c) for c in command.discard):
        raise InvalidCommand("discard must list card codes such as \"7H\" or \"JK\"")
    return command


class _LeastScore:
    """The Least Score ruleset object (see :mod:`domain.ruleset`)."""

    name = NAME
    title = "Least Score"
    min_players = 2
    max_players = 10
    options = OPTIONS
    command_types = COMMAND_TYPES
    event_types = EVENT_TYPES
    presented_names = _view.PRESENTED_NAMES  # stored field -> presented name, per event type

    def resolve_options(self, raw: Mapping[str, Any] | None, players: int) -> dict[str, Any]:
        return resolve(raw, players)

    def start(self, players: int, options: Mapping[str, Any], key: bytes) -> tuple[Any, ...]:
        return start(players, options, key)

    parse_command = staticmethod(parse_command)

    # The module's functions themselves, not methods that call them: called for every command and event.
    decide = staticmethod(decide)
    evolve = staticmethod(evolve)

    def view(self, state: Any, seat: int | None) -> Any:
        return _view.view(state, seat)

    def redact(self, event: Any, seat: int | None) -> Any:
        return _view.redact(event, seat)

    def legal_actions(self, state: Any, seat: int) -> list[Any]:
        return _view.legal_actions(state, seat)

    def may_move(self, state: Any, seat: int) -> bool:
        return bool(_view.legal_actions(state, seat))  # Least Score has no standing orders

    def moves(self, state: Any, seat: int) -> list[Any]:
        return _view.legal_actions(state, seat)

    def is_terminal(self, state: Any) -> bool:
        return bool(state.phase == "over")

    def scores(self, state: Any) -> tuple[int, ...]:
        return tuple(state.scores)

    def awaiting(self, state: Any) -> tuple[int, ...]:
        return (state.turn,) if state.phase == "turns" and state.turn is not None else ()

    def deadlines(self, state: Any) -> tuple[Any, ...]:
        # turn_no counts the turns played this round; the command names the current one
        return (TurnTimedOut(state.turn, state.turn_no + 1),) if self.awaiting(state) else ()

    def summary(self, state: Any) -> Any:
        return {"round": state.round, "phase": "game_over" if state.phase == "over" else state.phase,
                "turn": state.turn,
                "dealer": state.dealer, "scores": list(state.scores)}

    def cards_in_play(self, state: Any) -> list[str]:
        return cards_in_play(state)

    def full_pack(self, state: Any) -> list[str]:
        return full_pack(state)


RULESET = _LeastScore()
