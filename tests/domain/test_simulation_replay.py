"""``replay_commands`` (what ``bench rules`` times) is the rules engine alone: replaying the
commands a played game recorded reaches the played game's final state, for every ruleset."""
from __future__ import annotations

import pytest

from domain import rules
from domain.errors import RuleError
from domain.simulation import play, replay_commands


@pytest.mark.parametrize("name", ["corte", "cuatro-cartas", "pedro", "least-score"])
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_replaying_a_games_recorded_commands_reaches_its_final_state(name: str, bot: str) -> None:
    ruleset = rules.get(name)
    for seed in (1, 2, 3):
        played = play(ruleset, 3, {}, seed, bot, check_every=0)
        assert played.terminal and not played.violations
        assert len(played.commands) == played.steps > 0
        assert replay_commands(ruleset, 3, {}, seed, played.commands) == played.state


def test_a_replay_on_another_deal_does_not_reach_the_played_state() -> None:
    ruleset = rules.get("corte")
    played = play(ruleset, 4, {}, 5, "greedy", check_every=0)
    try:
        final = replay_commands(ruleset, 4, {}, 6, played.commands)
    except RuleError:
        return  # the commands do not even fit the other deal
    assert final != played.state
