"""``moves`` and ``may_move``: the cheap question the service asks of every seat on every append (the game
list's ``may_act``) has the answer ``legal_actions`` gives, standing orders set aside."""
from __future__ import annotations

import pytest

from domain import rules
from domain.orders import ORDER_KINDS
from domain.simulation import play


def _states(name: str, players: int, seed: int, bot: str) -> list:
    ruleset = rules.get(name)
    played = play(ruleset, players, {}, seed, bot, check_every=0)
    assert played.terminal and not played.violations
    out, state = [], None
    for event in played.events:
        state = ruleset.evolve(state, event)
        out.append(state)
    return out


@pytest.mark.parametrize("name", ["corte", "cuatro-cartas", "pedro", "least-score"])
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_moves_are_the_legal_actions_but_orders_and_may_move_says_if_any(name: str, bot: str) -> None:
    ruleset = rules.get(name)
    players = 4
    seen = {True: 0, False: 0}
    orders = 0
    for seed in (1, 2):
        for state in _states(name, players, seed, bot):
            for seat in range(players):
                actions = ruleset.legal_actions(state, seat)
                orders += sum(1 for a in actions if a["type"] in ORDER_KINDS)
                moves = [a for a in actions if a["type"] not in ORDER_KINDS]
                assert ruleset.moves(state, seat) == moves
                expected = bool(moves)
                assert ruleset.may_move(state, seat) is expected, (seat, actions)
                seen[expected] += 1
    # both answers occur, and in the games with standing orders the orders were listed
    assert seen[True] and seen[False]
    assert orders > 0 if name in ("corte", "cuatro-cartas") else orders == 0
