"""Properties over many seeded Pedro games (domain.simulation checks conservation, replay,
acceptance of every chosen legal action and termination at every step)."""
from __future__ import annotations

import random
from typing import Any

import pytest

from domain import simulation
from domain.rules.pedro import RULESET as R, card_values
from tests.sizes import sized

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"final_lap_after_call": True, "powers_optional": True, "power5_any_two": True},
    {"multi_discard_sources": "any", "joker_groups": "wild_needs_natural", "failed_group_reveal": "none",
     "allow_return_discard_draw": False},
    {"deck_profile": "spanish50", "match_mode": "rounds", "rounds": 3, "common.memory": "strict"},
    {"match_mode": "round_wins", "common.tiebreak": "play_another_round", "peek_timing": "before_own_first_turn",
     "penalty_card_peekable": True, "show_drawn_card": False},
    {"common.stock_exhausted": "end_round", "zero_card": "all_diamonds", "face_values": "10",
     "min_own_turns_before_call": 2, "direction": "left", "caller_win_scores_zero": True},
    {"common.round_turn_limit": 12, "common.decks": 2, "zero_card_matches_rank": False,
     "common.tiebreak": "fewest_points_last_round"},
]


def _check_scores(result: simulation.GameResult, options: dict[str, Any]) -> None:
    """Every round: totals are the card values, cumulative adds the round scores, the call is judged right."""
    values = card_values(R.resolve_options(options, result.state.players))
    cumulative = (0,) * result.state.players
    revealed = None
    for e in result.events:
        name = type(e).__name__
        if name == "RoundRevealed":
            revealed = e
            assert e.totals == tuple(sum(values[c] for _s, c in lay if c is not None) for lay in e.layouts)
        elif name == "RoundScored":
            assert revealed is not None and e.totals == revealed.totals
            if e.caller is not None:
                won = all(e.totals[e.caller] < t for j, t in enumerate(e.totals) if j != e.caller)
                assert e.caller_won is won
                assert e.penalty_next == (None if won else e.caller)
            expected = list(e.totals)
            if e.caller_won and options.get("caller_win_scores_zero"):
                expected[e.caller] = 0
            assert e.round_scores == tuple(expected)
            cumulative = tuple(a + b for a, b in zip(cumulative, e.round_scores))
            assert e.cumulative == cumulative
    assert R.scores(result.state) == cumulative


#: games per bot, (short form, full form): either way every player count, 2 to 10
GAMES = {"random": (20, 60), "greedy": (9, 25)}


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(o) or "defaults")
@pytest.mark.parametrize("bot", ["random", "greedy"])
@pytest.mark.parametrize("form", sized(0, 1))
def test_seeded_games_conserve_cards_replay_accept_legal_actions_and_terminate(options: dict[str, Any],
                                                                               bot: str, form: int) -> None:
    games = GAMES[bot][form]
    for seed in range(games):
        players = 2 + seed % 9
        if options.get("common.decks") == 2:
            players = 2 + seed % 4
        result = simulation.play(R, players, options, seed, bot=bot)
        assert result.violations == [], (seed, players, result.violations[:3])
        assert result.terminal and R.is_terminal(result.state)
        _check_scores(result, options)


def test_every_listed_action_is_accepted_at_sampled_positions() -> None:
    rng = random.Random(7)
    checked = 0
    for seed in range(40):
        options = OPTION_SETS[seed % len(OPTION_SETS)]
        result = simulation.play(R, 2 + seed % 5, options, seed, bot="random")
        state = None
        for i, e in enumerate(result.events):
            state = R.evolve(state, e)
            if rng.random() < 0.08 and not R.is_terminal(state) and state.turn is not None \
                    and type(e).__name__ in ("CardDrawn", "TurnStarted", "CardReleased"):
                for seat in range(state.players):
                    assert simulation.check_legal_actions_accepted(R, state, seat, b"x" * 32) == []
                checked += 1
    assert checked > 50


def test_multi_discard_claims_are_both_won_and_lost_in_play() -> None:
    outcomes = set()
    for seed in range(200):  # a right group is rare at random (about one claim in fifty)
        result = simulation.play(R, 3, {}, seed, bot="random")
        outcomes |= {e.outcome for e in result.events if type(e).__name__ == "ClaimResolved"}
        if outcomes == {"correct", "wrong"}:
            break
    assert outcomes == {"correct", "wrong"}
