"""Deadlines (RULES §2.11): every wait of every ruleset can time out, the system commands
a ruleset names are accepted as they are, and a game nobody plays still ends."""
from __future__ import annotations

import random

import pytest

from domain import bots, rules
from domain.errors import RuleError
from domain.messages import FinalWindowExpired, TurnTimedOut
from domain.ruleset import fold
from domain.simulation import game_key

NAMES = ["corte", "cuatro-cartas", "pedro", "least-score"]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_waiting_state_has_deadlines_that_the_rules_accept(name: str, seed: int) -> None:
    """After every command of a game played by random bots (the states the service holds)."""
    rs = rules.get(name)
    key = game_key(seed)
    rng = random.Random(seed)
    policy = bots.policy(name, "random")
    state = fold(rs, list(rs.start(3, rs.resolve_options({}, 3), key)))
    checked = 0
    for _ in range(20_000):
        if rs.is_terminal(state):
            break
        awaited = rs.awaiting(state)
        commands = rs.deadlines(state)
        assert awaited and commands, f"{name}: awaiting {awaited}, deadlines {commands} ({rs.summary(state)})"
        for command in commands:
            assert isinstance(command, (TurnTimedOut, FinalWindowExpired))
            assert rs.decide(state, None, command, key), f"{command} produced nothing"
            checked += 1
        seat = awaited[0]
        actions = rs.legal_actions(state, seat)
        action = policy(rs.view(state, seat), actions, rng, True) or actions[0]
        for e in rs.decide(state, seat, rs.parse_command(action), key):
            state = rs.evolve(state, e)
    assert rs.is_terminal(state) and checked > 0


@pytest.mark.parametrize("name", NAMES)
def test_a_game_nobody_plays_never_stalls(name: str) -> None:
    """Deadlines alone keep the game moving: every wait names a system command that the
    rules accept. (They need not end it: calls are never made automatically, §2.11, and
    an abandoned Corte game turns on until someone calls.)"""
    rs = rules.get(name)
    key = game_key(7)
    state = fold(rs, list(rs.start(3, rs.resolve_options({}, 3), key)))
    for _ in range(3_000):
        if rs.is_terminal(state):
            break
        commands = rs.deadlines(state)
        assert commands, f"{name} waits with no deadline: {rs.summary(state)}"
        events = rs.decide(state, None, commands[0], key)
        assert events
        for e in events:
            state = rs.evolve(state, e)


def test_a_deadline_is_refused_once_its_wait_is_over() -> None:
    """A stale system command (the player moved first) changes nothing: 409, no event."""
    rs = rules.get("corte")
    key = game_key(3)
    state = fold(rs, list(rs.start(4, rs.resolve_options({}, 4), key)))
    command = rs.deadlines(state)[0]
    for e in rs.decide(state, None, command, key):
        state = rs.evolve(state, e)
    with pytest.raises(RuleError):
        rs.decide(state, None, command, key)
