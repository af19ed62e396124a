"""Corte: properties over many seeded games played by bots through ``domain.simulation``.

Conservation, replay, every chosen legal action accepted and termination are checked by
the simulation at every step; here we add: the scores follow RULES §6.6 (recomputed from
the revealed grids, independently of the code under test), every option set plays, and
every listed action is accepted at sampled states.
"""
from __future__ import annotations

from typing import Any

import pytest

from domain.simulation import check_legal_actions_accepted, game_key, play
from tests.domain.test_corte_support import R, points
from tests.sizes import sized

SHORT = {"target_score": 25, "common.round_turn_limit": 10}
OPTION_SETS: list[dict[str, Any]] = [
    {}, {"replaced_card_power": True}, {"initial_upcard": True}, {"direction": "right"}, {"late_snap": "reject"},
    {"failed_snap_reveal": "snapper_only"}, {"failed_snap_reveal": "none", "penalty_card_visible_to_owner": True},
    {"zero_card_rival_snap": "forbid"}, {"zero_card_rival_snap": "leave_empty"}, {"powers_optional": False},
    {"min_own_turns_before_call": 2}, {"lock_caller": False}, {"failed_call_penalty": 0},
    {"common.stock_exhausted": "end_round"}, {"common.tiebreak": "fewest_points_last_round"},
    {"common.tiebreak": "play_another_round"}, {"common.memory": "strict"}, {"common.decks": 2},
]


def check_scores(events: list[Any]) -> None:
    """RULES §6.6 and §2.9 recomputed from the events' facts."""
    g = events[0]
    opts = R.resolve_options(g.options, g.players)
    cumulative = [0] * g.players
    caller = None
    ended = False
    for e in events:
        kind = type(e).__name__
        if kind == "RoundDealt":
            caller = None
        elif kind == "CallMade":
            caller = e.seat
        elif kind == "RoundRevealed":
            totals = tuple(sum(points(c) for _, c in lay if c) for lay in e.layouts)
            assert e.totals == totals
        elif kind == "RoundScored":
            assert e.totals == totals
            expected = list(totals)
            judged = caller if e.reason != "stock_exhausted" else None
            assert e.caller == judged
            if judged is not None:
                lowest = all(totals[judged] < t for p, t in enumerate(totals) if p != judged)
                assert e.call_outcome == ("won" if lowest else "failed")
                if not lowest:
                    expected[judged] += opts["failed_call_penalty"]
            assert list(e.round_scores) == expected
            cumulative = [a + b for a, b in zip(cumulative, expected)]
            assert list(e.cumulative) == cumulative
            last = expected
        elif kind == "GameEnded":
            ended = True
            assert max(cumulative) >= opts["target_score"]
            low = min(cumulative)
            tied = [p for p, c in enumerate(cumulative) if c == low]
            if opts["common.tiebreak"] == "fewest_points_last_round":
                best = min(last[p] for p in tied)
                tied = [p for p in tied if last[p] == best]
            assert list(e.winners) == tied
    assert ended


@pytest.mark.parametrize("option_index", range(len(OPTION_SETS)))
@pytest.mark.parametrize("seeds", sized(9, 30))  # 9: every player count, 2 to 10
def test_greedy_games_under_every_option_set_keep_every_invariant_and_score_by_the_rules(option_index: int,
                                                                                         seeds: int) -> None:
    options = {**SHORT, **OPTION_SETS[option_index]}
    for seed in range(seeds):
        players = 2 + (seed + option_index) % 9
        result = play(R, players, options, seed * 100 + option_index, "greedy", max_steps=5000)
        assert result.violations == [], (seed, result.violations[:3])
        assert result.terminal
        check_scores(result.events)


@pytest.mark.parametrize("seeds", sized(4, 12))
def test_greedy_games_with_default_options_run_to_100(seeds: int) -> None:
    rounds = 0
    for seed in range(seeds):
        result = play(R, 2 + seed % 9, {}, seed, "greedy")
        assert result.violations == [] and result.terminal, result.violations[:3]
        check_scores(result.events)
        rounds += result.rounds
    assert rounds > seeds  # a game to 100 takes several rounds


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_bots_keep_every_invariant(players: int) -> None:
    for seed in range(8):
        options = {**SHORT, **OPTION_SETS[(seed * 3 + players) % len(OPTION_SETS)]}
        result = play(R, players, options, 7000 + seed * 10 + players, "random", max_steps=8000)
        assert result.violations == [], (seed, result.violations[:3])
        assert result.terminal
        check_scores(result.events)


def test_every_listed_action_is_accepted_at_sampled_states() -> None:
    checked = 0
    for seed in range(6):
        options = {**SHORT, **OPTION_SETS[(seed * 5) % len(OPTION_SETS)]}
        result = play(R, 3, options, 500 + seed, "greedy" if seed % 3 else "random", max_steps=400)
        state = None
        for i, event in enumerate(result.events):
            state = R.evolve(state, event)
            if i % 13 == 0 and not R.is_terminal(state):
                for seat in range(3):
                    assert check_legal_actions_accepted(R, state, seat, game_key(seed)) == []
                    checked += 1
    assert checked > 40


def test_awaited_seats_always_have_an_action() -> None:
    result = play(R, 4, SHORT, 42, "greedy")
    state = None
    for event in result.events:
        state = R.evolve(state, event)
        for seat in R.awaiting(state):
            assert R.legal_actions(state, seat), (type(event).__name__, seat)
