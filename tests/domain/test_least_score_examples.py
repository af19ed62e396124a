"""Least Score: the worked examples of RULES Appendix A (A6–A11, A26), the examples of the
original text, and the turn mechanics of §4.3 as given/when/then."""
from __future__ import annotations

from dataclasses import replace

from domain.errors import InvalidCommand, NotYourTurn
from domain.rules.least_score import judge
from tests.domain.test_least_score_support import (
    R, game, lap, of_type, play, refused, send, total,
)

# Three hands whose totals are 10, 16 and 17; each holds a 5, so a lap of "discard the 5,
# take the open 5" keeps every total and gives everyone a completed turn (§4.3 Declare).
A6_HANDS = [["5D", "AS", "AH", "2S", "AD"],   # 10
            ["5H", "3C", "2C", "4D", "2H"],   # 16
            ["5S", "6C", "2D", "3D", "AC"]]   # 17


def after_lap(hands: list[list[str]], upcard: str = "5C", **kw: object) -> object:
    state = game(hands, upcard=upcard, **kw)  # type: ignore[arg-type]
    fives = [next(c for c in h if c.startswith(upcard[:-1])) for h in hands]
    return lap(state, fives)


def test_a6_a_true_declaration_scores_0_for_the_declarer_and_the_difference_for_the_others() -> None:
    state = after_lap(A6_HANDS)
    assert [total(h) for h in state.hands] == [10, 16, 17]
    events, state = send(state, 0, {"type": "Declare"})
    scored = of_type(events, "RoundScored")[0]
    assert scored.outcome == "success"
    assert scored.round_scores == (0, 6, 7)
    assert state.scores == (0, 6, 7)
    assert of_type(events, "RoundDealt"), "the next deal follows at once (§2.12)"


def test_a7_a_false_declaration_costs_20_plus_the_difference_and_others_score_0() -> None:
    hands = [["5D", "AS", "AH", "2S", "AD"],   # 10
             ["5H", "AC", "2C"],               # 8 (a short hand is fine in a given state)
             ["5S", "6C", "2D", "2H"]]         # 15
    state = after_lap(hands)
    assert [total(h) for h in state.hands] == [10, 8, 15]
    events, state = send(state, 0, {"type": "Declare"})
    scored = of_type(events, "RoundScored")[0]
    assert (scored.outcome, scored.declarer_total, scored.lowest_other) == ("false", 10, 8)
    assert scored.round_scores == (22, 0, 0)
    assert state.scores == (22, 0, 0)


def test_a8_a_tie_with_the_declarer_is_a_false_declaration_by_default() -> None:
    hands = [["4S", "AS", "AH", "AD", "AC"], ["4H", "AS", "AH", "AD", "AC"]]
    state = after_lap(hands, upcard="4D", options={"common.decks": 2})
    assert [total(h) for h in state.hands] == [8, 8]
    events, _ = send(state, 0, {"type": "Declare"})
    assert of_type(events, "RoundScored")[0].round_scores == (20, 0)


def test_a9_three_of_a_kind_is_refused_with_422() -> None:
    state = game([["5S", "5H", "5D", "KS", "KH"], ["2C", "3C", "4C", "6C", "7C"]])
    err = refused(state, 0, play(["5S", "5H", "5D"]))
    assert isinstance(err, InvalidCommand) and err.status == 422
    assert state == game([["5S", "5H", "5D", "KS", "KH"], ["2C", "3C", "4C", "6C", "7C"]])


def test_a10_a_run_of_four_is_refused_with_422() -> None:
    state = game([["4S", "5H", "6D", "7C", "KH"], ["2C", "3C", "4C", "6C", "7H"]])
    err = refused(state, 0, play(["4S", "5H", "6D", "7C"]))
    assert err.status == 422


def test_a11_a_run_wrapping_round_the_ace_is_refused_with_422() -> None:
    state = game([["KS", "AH", "2D", "7C", "9H"], ["2C", "3C", "4C", "6C", "7H"]])
    assert refused(state, 0, play(["KS", "AH", "2D"])).status == 422
    _, after = send(state, 0, play(["7C"]))  # the refusal left the turn to seat 0
    assert after.turn == 1


def test_a26_a_and_b_crossing_together_are_both_eliminated_and_c_the_only_one_left_wins() -> None:
    # Cumulative before the round: A 85, B 83, C 40. C starts, takes the up-card ace.
    state = game([["KS", "6H", "5D"], ["KD", "6S", "5H"], ["5S"]], upcard="AC",
                 cumulative=[85, 83, 40], starter=2)
    _, state = send(state, 2, play(["5S"], "open:AC"))   # C: AC = 1
    _, state = send(state, 0, play(["5D"], "open:5S"))   # A: KS 6H 5S = 21
    _, state = send(state, 1, play(["5H"], "open:5D"))   # B: KD 6S 5D = 21
    assert [total(h) for h in state.hands] == [21, 21, 1]
    events, state = send(state, 2, {"type": "Declare"})
    scored = of_type(events, "RoundScored")[0]
    assert scored.round_scores == (20, 20, 0)
    assert scored.cumulative == (105, 103, 40)
    assert [e.seat for e in of_type(events, "PlayerEliminated")] == [0, 1]
    ended = of_type(events, "GameEnded")[0]
    assert ended.winners == (2,) and ended.reason == "last_player_standing"
    assert R.is_terminal(state) and not of_type(events, "RoundDealt")


def test_a26_if_every_remaining_player_goes_out_together_the_lowest_cumulative_wins() -> None:
    # Only A and B left, both crossing in one round (a round ended by the turn limit,
    # where everyone scores their own total): A 105, B 103 -> B wins.
    state = game([["KS", "5D", "5C"], ["KD", "5S", "3C", "2C"]], upcard="5H",
                 cumulative=[85, 83], options={"common.round_turn_limit": 1})
    events, state = send(state, 0, play(["5C"], "open:5H"))   # A: KS 5D 5H = 20
    scored = of_type(events, "RoundScored")[0]
    assert scored.reason == "turn_limit"
    assert scored.cumulative == (105, 103)
    assert [e.seat for e in of_type(events, "PlayerEliminated")] == [0, 1]
    assert of_type(events, "GameEnded")[0].winners == (1,)


def test_original_text_examples_10_16_17_and_10_8_15() -> None:
    base = game([["AS"], ["AH"], ["AD"]])
    for hands, expected in (([["KS"], ["KH", "6H"], ["KD", "7D"]], (0, 6, 7)),
                            ([["KS"], ["8H"], ["KD", "5D"]], (22, 0, 0))):
        state = replace(base, hands=tuple(tuple(h) for h in hands))
        scored, _ = judge(state, 0)
        assert scored.round_scores == expected


# --------------------------------------------------------------------------- §4.3 mechanics


def test_a_play_is_atomic_the_discard_becomes_the_open_set_and_the_rest_goes_dead() -> None:
    state = game([["7S", "8H", "9D", "KS", "KH"], ["2C", "3C", "4C", "6C", "7H"]], upcard="QD",
                 stock_top=["AC"])
    events, state = send(state, 0, play(["7S", "8H", "9D"]))
    assert state.hands[0] == ("KS", "KH", "AC")
    assert state.open_set == ("7S", "8H", "9D") and state.dead == ("QD",)
    assert state.turn == 1
    _, state = send(state, 1, play(["2C"], "open:8H"))
    assert state.hands[1] == ("3C", "4C", "6C", "7H", "8H")
    assert sorted(state.dead) == sorted(("QD", "7S", "9D"))
    assert state.open_set == ("2C",)


def test_only_the_active_player_may_act() -> None:
    state = game([["7S", "8H", "9D", "KS", "KH"], ["2C", "3C", "4C", "6C", "7H"]])
    assert isinstance(refused(state, 1, play(["2C"])), NotYourTurn)


def test_cards_not_in_the_hand_and_missing_open_cards_are_refused_422() -> None:
    state = game([["7S", "8H", "9D", "KS", "KH"], ["2C", "3C", "4C", "6C", "7H"]], upcard="QD")
    assert refused(state, 0, play(["2C"])).status == 422
    assert refused(state, 0, play(["KS"], "open:QS")).status == 422
    assert refused(state, 0, play(["KS"], "top")).status == 422
    assert refused(state, 0, play([])).status == 422


def test_a_one_card_hand_discards_one_and_takes_one() -> None:
    state = game([["7S"], ["2C", "3C"]], upcard="QD")
    _, state = send(state, 0, play(["7S"], "open:QD"))
    assert state.hands[0] == ("QD",)
