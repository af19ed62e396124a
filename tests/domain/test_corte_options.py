"""Corte's options, C1-C11 of the rules' ambiguity table (the deal, turns, powers and snaps):
one test per decision, the default and each option's effect. C12-C18: test_corte_options_calls.py."""
from __future__ import annotations

import pytest

from domain.choices import covers
from domain.errors import InvalidCommand, NoWindow, StaleWindow, WrongPhase
from tests.domain.test_corte_support import THREE, R, act, game, grid, kinds, names, of, snap, turn


# C1 ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("option, fires", [(None, False), (False, False), (True, True)])
def test_c1_a_card_replaced_out_of_the_grid_fires_its_power_only_under_replaced_card_power(option, fires) -> None:
    opts = {} if option is None else {"replaced_card_power": option}
    s = game([["QS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], stock_top=["8D"], options=opts)
    s, ev = turn(s, 0, replace="A")
    discarded = of(ev, "CardDiscarded")
    assert (discarded.card, discarded.source) == ("QS", "replaced")
    if fires:
        assert s.step == "POWER" and s.power == "Q" and s.window is None
        assert "BlindSwap" in kinds(s, 0)
    else:
        assert discarded.power is None and s.turn == 1 and s.window.card == "QS"
    assert grid(s, 0)["A"] == "8D"


def test_c1_a_drawn_power_card_discarded_directly_always_fires() -> None:
    s = game([["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], stock_top=["6D"])
    s, _ = turn(s, 0)
    assert s.step == "POWER" and s.power == "6"


# C2 ------------------------------------------------------------------------------------------


def test_c2_by_default_the_pile_starts_empty_and_no_window_opens_until_the_first_discard() -> None:
    s = game(THREE, peeks=False)
    for p in range(3):
        s, _ = act(s, p, {"type": "ChoosePeek", "slots": ["A", "B"]})
    assert s.pile == () and s.window is None and s.phase == "TURNS"


def test_c2_with_initial_upcard_window_w0_opens_on_it_when_the_initial_peek_ends() -> None:
    s = game(THREE, upcard="5D", peeks=False)
    assert s.pile == ("5D",) and s.window is None
    s, _ = act(s, 0, {"type": "ChoosePeek", "slots": ["A", "B"]})
    with pytest.raises(NoWindow):  # no windows during the initial peek
        R.decide(s, 0, R.parse_command({"type": "SnapOwn", "window_id": 1, "slot": "A", "penalty_to": "new"}), b"k")
    s, _ = act(s, 1, {"type": "ChoosePeek", "slots": ["A", "B"]})
    s, ev = act(s, 2, {"type": "ChoosePeek", "slots": ["A", "B"]})
    assert names(ev) == ["PeekChosen", "WindowOpened"]
    assert s.window.card == "5D" and s.turn == 0


# C3 ------------------------------------------------------------------------------------------


def test_c3_clockwise_by_default_the_dealers_left_starts_and_play_goes_left() -> None:
    evs = R.start(4, {}, b"k")
    dealt = evs[1]
    assert dealt.first_player == (dealt.dealer + 1) % 4
    s = game([["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"], ["AD", "2D", "3D", "4D"]])
    s, ev = turn(s, 0)
    assert of(ev, "TurnEnded").next_seat == 1


def test_c3_direction_right_makes_the_dealers_right_start_and_play_go_right() -> None:
    evs = R.start(4, {"direction": "right"}, b"k")
    assert evs[1].first_player == (evs[1].dealer - 1) % 4
    s = None
    for e in evs:
        s = R.evolve(s, e)
    for p in range(4):
        s, _ = act(s, p, {"type": "ChoosePeek", "slots": ["C", "D"]})
    first = s.turn
    s, ev = turn(s, first)
    assert of(ev, "TurnEnded").next_seat == (first - 1) % 4


# C4 ------------------------------------------------------------------------------------------


def test_c4_each_seat_chooses_two_of_its_slots_and_sees_them_privately() -> None:
    s = game(THREE, peeks=False)
    assert set(R.awaiting(s)) == {0, 1, 2}
    for bad in (["A"], ["A", "A"], ["A", "B", "C"], ["A", "E1"]):
        with pytest.raises(InvalidCommand):
            act(s, 0, {"type": "ChoosePeek", "slots": bad})
    s, ev = act(s, 1, {"type": "ChoosePeek", "slots": ["A", "D"]})
    peek = of(ev, "PeekChosen")
    assert R.redact(peek, 1)["cards"] == ["7H", "6H"]
    assert R.redact(peek, 0)["cards"] == [None, None] and R.redact(peek, None)["cards"] == [None, None]
    with pytest.raises(WrongPhase):
        act(s, 1, {"type": "ChoosePeek", "slots": ["B", "C"]})
    with pytest.raises(WrongPhase):  # the peek blocks the first turn
        act(s, 0, {"type": "Draw", "source": "stock"})
    assert set(R.awaiting(s)) == {0, 2}


# C5 ------------------------------------------------------------------------------------------


def test_c5_no_snap_while_a_power_is_resolved_and_the_new_window_opens_after_it() -> None:
    s = game(THREE, stock_top=["7S", "5D"])
    s, _ = turn(s, 0)  # a window on the 7
    w = s.window.id
    s, ev = turn(s, 1)  # the 5 supersedes it; seat 1 is in POWER
    assert of(ev, "WindowClosed").reason == "superseded" and s.window is None and s.step == "POWER"
    for seat in (0, 1, 2):
        with pytest.raises(NoWindow):
            act(s, seat, {"type": "SnapOwn", "window_id": w, "slot": "A", "penalty_to": "new"})
        assert not any(a["type"].startswith("Snap") for a in R.legal_actions(s, seat))
    s, ev = act(s, 1, {"type": "PeekOwn", "slot": "A"})
    assert of(ev, "WindowOpened").card == "5D" and s.window.id == w + 1


# C6 ------------------------------------------------------------------------------------------


def test_c6_a_snap_matches_on_rank_whatever_the_suit() -> None:
    s = game(THREE, stock_top=["7S"])
    s, _ = turn(s, 0)
    s, ev = snap(s, 1, "A")  # 7H on 7S
    assert of(ev, "ClaimResolved").outcome == "correct"


# C7 ------------------------------------------------------------------------------------------


def test_c7_a_hole_cannot_be_replaced_into_but_a_penalty_card_may_fill_it() -> None:
    s = game(THREE, stock_top=["7S", "8D", "9D", "2D"])
    s, _ = turn(s, 0)
    s, _ = snap(s, 1, "A")  # seat 1's A is now a hole
    s, _ = act(s, 1, {"type": "Draw", "source": "stock"})
    assert {"type": "Replace", "slot": "A"} not in R.legal_actions(s, 1)
    with pytest.raises(InvalidCommand):
        act(s, 1, {"type": "Replace", "slot": "A"})
    s, _ = act(s, 1, {"type": "DiscardDrawn"})  # the 8
    assert covers(R.legal_actions(s, 1), {"type": "SnapOwn", "window_id": s.window.id, "slot": "B",
                                          "penalty_to": "empty:A"})
    s, ev = snap(s, 1, "B", "empty:A")  # wrong: 2H is no 8
    assert of(ev, "PenaltyCardDealt").slot == "A" and grid(s, 1)["A"] == "9D"


# C8 ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("visible", [False, True])
def test_c8_the_penalty_card_is_unseen_unless_penalty_card_visible_to_owner(visible: bool) -> None:
    s = game(THREE, stock_top=["7S", "QD"], options={"penalty_card_visible_to_owner": visible})
    s, _ = turn(s, 0)
    s, ev = snap(s, 2, "A")  # wrong: 9C
    pen = of(ev, "PenaltyCardDealt")
    assert R.redact(pen, 2)["card"] == ("QD" if visible else None)
    assert R.redact(pen, 0)["card"] is None and R.redact(pen, None)["card"] is None
    e1 = next(x for x in R.view(s, 2)["players"][2]["cards"] if x["slot"] == "E1")
    assert e1["card"] == ("QD" if visible else None)


# C9 ------------------------------------------------------------------------------------------


def test_c9_by_default_a_snap_on_a_won_window_is_late_and_penalised() -> None:
    s = game(THREE, stock_top=["7S", "8S"])
    s, _ = turn(s, 0)
    s, _ = snap(s, 1, "A")
    assert any(a["type"] == "SnapOwn" for a in R.legal_actions(s, 2))  # late snaps are listed
    s, ev = snap(s, 2, "B")  # 7C: right rank, but late
    assert of(ev, "ClaimResolved").outcome == "late" and grid(s, 2)["B"] == "7C"
    assert of(ev, "PenaltyCardDealt").seat == 2


def test_c9_with_late_snap_reject_a_snap_on_a_won_window_is_refused_409_without_penalty() -> None:
    s = game(THREE, stock_top=["7S", "8S"], options={"late_snap": "reject"})
    s, _ = turn(s, 0)
    s, _ = snap(s, 1, "A")
    assert not any(a["type"].startswith("Snap") for a in R.legal_actions(s, 2))
    with pytest.raises(StaleWindow):
        snap(s, 2, "B")


# C10 -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("reveal, to_snapper, to_others", [
    ("public", True, True), ("snapper_only", True, False), ("none", False, False)])
def test_c10_a_wrongly_snapped_card_is_revealed_per_failed_snap_reveal(reveal, to_snapper, to_others) -> None:
    opts = {} if reveal == "public" else {"failed_snap_reveal": reveal}
    s = game(THREE, stock_top=["7S", "8S"], options=opts)
    s, _ = turn(s, 0)
    s, ev = act(s, 2, {"type": "SnapRival", "window_id": s.window.id, "rival": 1, "rival_slot": "B",
                       "give_slot": "A", "penalty_to": "new"})  # 2H is no 7
    claim = of(ev, "ClaimResolved")
    assert claim.outcome == "wrong" and grid(s, 1)["B"] == "2H"
    assert R.redact(claim, 2)["revealed"] == (["2H"] if to_snapper else [None])
    assert R.redact(claim, 0)["revealed"] == (["2H"] if to_others else [None])
    assert R.redact(claim, None)["revealed"] == (["2H"] if to_others else [None])
    seen = R.view(s, 0)["players"][1]["cards"][1]["card"]
    assert seen == ("2H" if to_others else None)
    assert R.view(s, 2)["players"][1]["cards"][1]["card"] == ("2H" if to_snapper else None)


# C11 -----------------------------------------------------------------------------------------


def test_c11_the_gift_is_chosen_in_the_command_and_must_be_an_own_occupied_slot() -> None:
    s = game(THREE, stock_top=["7S"])
    s, _ = turn(s, 0)
    base = {"type": "SnapRival", "window_id": s.window.id, "rival": 2, "rival_slot": "B", "penalty_to": "new"}
    for bad in ({}, {"give_slot": "E1"}, {"give_slot": "Z"}):
        with pytest.raises(InvalidCommand):
            act(s, 1, {**base, **bad})
    with pytest.raises(InvalidCommand):
        act(s, 1, {**base, "rival": 1, "give_slot": "A"})  # not yourself
