"""A refusal names the moment of the game in the words of the rules pages, never a state's name.

Through played games, every seat sends, at every moment, one command of each type the game
has offered (to anyone, at any time): each refusal's text must name no phase or step
constant (``HOLDING``, ``AWAIT_ACTION``, ``FINAL_WINDOW`` ...), and no system command is
ever offered as a command type to send.
"""
from __future__ import annotations

import re
from typing import Any

import pytest

from domain import rules
from domain.errors import RuleError
from domain.messages import SYSTEM_COMMANDS
from domain.ruleset import fold
from domain.simulation import play

#: Every name of a phase or a step in the rulesets' states.
STATES = re.compile(r"\b(AWAIT_ACTION|HOLDING|POWER(_PROMPT|_LOOK|_SWAP)?|KING_DECIDE|INITIAL_PEEK|TURNS|"
                    r"FINAL_LAP|FINAL_WINDOW|GAME_OVER|ROUND_SETUP|SETUP|BETWEEN_TURNS|REVEAL)\b")


def _refusals(name: str, seed: int) -> list[str]:
    """Every refusal's text of one played game, each command type tried by each seat at each moment."""
    rs = rules.get(name)
    result = play(rs, 3, {}, seed=seed, bot="random", max_steps=200)
    kinds: dict[str, dict[str, Any]] = {}
    states = []
    state = None
    for event in result.events:
        state = rs.evolve(state, event)
        states.append(state)
        for seat in range(3):
            for action in rs.legal_actions(state, seat):
                kinds.setdefault(action["type"], action)
    texts = []
    for state in states[::3]:
        for seat in range(3):
            for action in kinds.values():
                try:
                    rs.decide(state, seat, rs.parse_command(dict(action)), b"k" * 32)
                except RuleError as exc:
                    texts.append(exc.detail)
    return texts


@pytest.mark.parametrize("name", rules.names())
def test_no_refusal_names_a_phase_or_a_step_by_its_state_name(name: str) -> None:
    texts = _refusals(name, seed=5)
    assert len(texts) > 50, texts
    named = sorted({t for t in texts if STATES.search(t)})
    assert named == []


def test_the_check_finds_a_state_name() -> None:
    assert STATES.search("expected HOLDING, the turn is in AWAIT_ACTION")
    assert not STATES.search("this command is played with the card you drew in hand; you hold no drawn card")


@pytest.mark.parametrize("name", rules.names())
def test_an_unknown_command_type_lists_the_players_commands_and_no_system_command(name: str) -> None:
    rs = rules.get(name)
    with pytest.raises(RuleError) as refused:
        rs.parse_command({"type": "NoSuchCommand"})
    offered = set(re.findall(r"'(\w+)'", refused.value.detail)) - {"NoSuchCommand"}
    assert offered == set(rs.command_types) - SYSTEM_COMMANDS


@pytest.mark.parametrize("name,moment", [
    ("corte", "you hold no drawn card: draw first"), ("pedro", "you hold no drawn card: draw first"),
    ("cuatro-cartas", "you hold no drawn card: draw first"),
])
def test_discarding_before_drawing_says_draw_first(name: str, moment: str) -> None:
    rs = rules.get(name)
    result = play(rs, 3, {}, seed=1, bot="random", max_steps=400)
    discard = {"corte": {"type": "DiscardDrawn"}, "cuatro-cartas": {"type": "DiscardDrawn"},
               "pedro": {"type": "Release"}}[name]
    for i in range(1, len(result.events)):
        state = fold(rs, result.events[:i])
        for seat in range(3):
            if any(a["type"] == "Draw" for a in rs.legal_actions(state, seat)):
                with pytest.raises(RuleError) as refused:
                    rs.decide(state, seat, rs.parse_command(discard), b"k" * 32)
                assert refused.value.detail == f"this command is played with the card you drew in hand; {moment}"
                return
    raise AssertionError("nobody could draw")
