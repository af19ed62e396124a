"""The worked examples of the rules (Appendix A), Pedro rows (A1-A5, A24, A25), as given/when/then tests.

Seat 0 is "P1", seat 1 "P2", seat 2 "P3"; seat 0 plays first. A multi-discard is tested
after drawing a 2 from the stock (the first stock card is set by the fixture).
"""
from __future__ import annotations

import pytest

from domain.rules.pedro import RULESET as R
from tests.domain.test_pedro_fixtures import act, cards_of, one, table

P1_5 = ["AS", "2S", "2H", "KD"]          # 1 + 2 + 2 + 0 = 5
P2_7 = ["AH", "AD", "AC", "4S"]          # 1 + 1 + 1 + 4 = 7
P3_12 = ["3S", "3H", "3D", "3C"]         # 12
P2_7_TIE = ["AH", "AD", "AC", "4S"]
P1_7 = ["2S", "2H", "2D", "AS"]          # 7


def test_a1_a_strictly_lowest_caller_wins_and_everyone_adds_their_total() -> None:
    state, _ = table([P1_5, P2_7, P3_12])
    state, events = act(state, 0, {"type": "CallPedro"})
    scored = one(events, "RoundScored")
    assert scored.totals == (5, 7, 12)
    assert scored.caller == 0 and scored.caller_won is True
    assert scored.cumulative == (5, 7, 12) == R.scores(state)
    assert scored.penalty_next is None
    assert one(events, "CallJudged").outcome == "won"
    assert one(events, "RoundDealt").penalty_seat is None
    assert all(len(lay.slots) == 4 for lay in state.layouts)


def test_a2_a_caller_who_ties_loses_and_plays_the_next_round_with_an_unpeeked_fifth_card() -> None:
    state, _ = table([P1_7, P2_7_TIE])
    state, events = act(state, 0, {"type": "CallPedro"})
    scored = one(events, "RoundScored")
    assert scored.totals == (7, 7) and scored.caller_won is False and scored.penalty_next == 0
    assert one(events, "CallJudged").outcome == "lost"
    assert one(events, "RoundDealt").penalty_seat == 0
    assert state.layouts[0].slots == ("A", "B", "C", "D", "E1") and len(state.layouts[0].present()) == 5
    assert state.layouts[1].slots == ("A", "B", "C", "D")
    shown = [e for e in events if type(e).__name__ == "CardsShown" and e.seat == 0]
    assert [slot for _o, slot, _c in shown[0].cards] == ["C", "D"]  # E1 is not peeked
    assert R.view(state, 0)["players"][0]["cards"][4]["card"] is None


def test_a3_an_identical_pair_is_discarded_and_the_drawn_card_takes_the_replaced_slot() -> None:
    state, _ = table([["3C", "KS", "3H", "7D"], ["9S", "9H", "9D", "8C"]], stock=["2C"])
    state, _ = act(state, 0, {"type": "Draw", "source": "stock"})
    pile_before = state.pile
    state, events = act(state, 0, {"type": "Keep", "replace": "A", "also_discard": ["C"]})
    claim = one(events, "ClaimResolved")
    assert claim.outcome == "correct" and claim.targets == ("A", "C")
    assert cards_of(state, 0) == {"A": "2C", "B": "KS", "C": None, "D": "7D"}
    assert len(state.layouts[0].present()) == 3
    assert state.pile == pile_before + ("3H", "3C")  # X in slot order, then r on top


def test_a4_a_wrong_pair_is_revealed_and_kept_and_the_drawn_card_goes_to_a_new_slot() -> None:
    state, _ = table([["3C", "KS", "4H", "7D"], ["9S", "9H", "9D", "8C"]], stock=["2C"])
    state, _ = act(state, 0, {"type": "Draw", "source": "stock"})
    pile_before = state.pile
    state, events = act(state, 0, {"type": "Keep", "replace": "A", "also_discard": ["C"]})
    claim = one(events, "ClaimResolved")
    assert claim.outcome == "wrong" and claim.new_slot == "E1"
    assert R.redact(claim, 1)["revealed"] == [["A", "3C"], ["C", "4H"]]  # public by default
    assert cards_of(state, 0) == {"A": "3C", "B": "KS", "C": "4H", "D": "7D", "E1": "2C"}
    assert len(state.layouts[0].present()) == 5
    assert state.pile == pile_before


@pytest.mark.parametrize("joker_groups", ["wild", "wild_needs_natural"])
def test_a5_a_joker_is_wild_in_a_group_of_nines(joker_groups: str) -> None:
    state, _ = table([["9S", "JK", "4C", "9D"], ["8S", "8H", "8D", "8C"]], stock=["2C"],
                     options={"joker_groups": joker_groups})
    state, _ = act(state, 0, {"type": "Draw", "source": "stock"})
    state, events = act(state, 0, {"type": "Keep", "replace": "A", "also_discard": ["B", "D"]})
    assert one(events, "ClaimResolved").outcome == "correct"
    assert cards_of(state, 0) == {"A": "2C", "B": None, "C": "4C", "D": None}
    assert state.pile[-3:] == ("JK", "9D", "9S")


def test_a24_with_caller_win_scores_zero_a_tying_caller_still_scores_the_total_and_gets_e1() -> None:
    state, _ = table([P1_7, P2_7_TIE], options={"caller_win_scores_zero": True})
    state, events = act(state, 0, {"type": "CallPedro"})
    scored = one(events, "RoundScored")
    assert scored.caller_won is False and scored.round_scores == (7, 7) and scored.cumulative == (7, 7)
    assert state.layouts[0].slots[-1] == "E1"


@pytest.mark.parametrize("joker_groups,outcome", [("wild", "correct"), ("wild_needs_natural", "wrong")])
def test_a25_two_jokers_are_a_group_only_when_all_joker_groups_are_allowed(joker_groups: str, outcome: str) -> None:
    state, _ = table([["JK", "JK", "4C", "9D"], ["8S", "8H", "8D", "8C"]], stock=["2C"],
                     options={"joker_groups": joker_groups})
    state, _ = act(state, 0, {"type": "Draw", "source": "stock"})
    state, events = act(state, 0, {"type": "Keep", "replace": "A", "also_discard": ["B"]})
    assert one(events, "ClaimResolved").outcome == outcome
    if outcome == "correct":
        assert cards_of(state, 0) == {"A": "2C", "B": None, "C": "4C", "D": "9D"}
    else:
        assert cards_of(state, 0) == {"A": "JK", "B": "JK", "C": "4C", "D": "9D", "E1": "2C"}
        assert R.view(state, 1)["players"][0]["cards"][0]["card"] == "JK"  # revealed in public
