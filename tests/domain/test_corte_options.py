"""Corte: one test per decision (C1-C18 of the rules' ambiguity table), the default and each option's effect."""
from __future__ import annotations

from typing import Any

import pytest

from domain.choices import covers
from domain.errors import InvalidCommand, Locked, NoWindow, StaleWindow, WrongPhase
from domain.orders import ORDER_KINDS
from domain.rules.corte import State
from tests.domain.test_corte_support import R, act, game, grid, names, of, turn

THREE = [["JS", "KH", "KD", "KC"], ["7H", "2H", "3H", "6H"], ["9C", "7C", "3C", "4C"]]


def kinds(state: State, seat: int) -> set[str]:
    """The kinds of command the seat may send, standing orders aside (they are offered all round)."""
    return {a["type"] for a in R.legal_actions(state, seat)} - ORDER_KINDS


def snap(s: State, seat: int, slot: str, pen: str = "new") -> tuple[State, list[Any]]:
    return act(s, seat, {"type": "SnapOwn", "window_id": s.window.id, "slot": slot, "penalty_to": pen})


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


# C12 -----------------------------------------------------------------------------------------


def _empty_handed(option: str | None) -> State:
    """Seat 1 has snapped away all four cards; a window is open on a 7 of seat 0's."""
    opts = {} if option is None else {"zero_card_rival_snap": option}
    s = game([["KS", "KH", "KD", "KC"], ["7H", "7D", "7C", "9H"], ["9C", "7S", "3C", "4C"]],
             stock_top=["9S", "8S", "5C"], options=opts)
    s = s._replace(layouts=(s.layouts[0], s.layouts[1].put("A", None).put("B", None).put("C", None)
                            .put("D", None), s.layouts[2]),
                   pile=s.pile + ("7H", "7D", "7C", "9H"))
    s, _ = turn(s, 0)  # seat 0 discards the 9S: a window on a 9
    return s


def test_c12_by_default_a_player_with_no_cards_gives_the_top_of_the_stock() -> None:
    s = _empty_handed(None)
    acts = [a for a in R.legal_actions(s, 1) if a["type"] == "SnapRival"]
    assert acts and all("give_slot" not in a for a in acts)
    s, ev = act(s, 1, {"type": "SnapRival", "window_id": s.window.id, "rival": 2, "rival_slot": "A",
                       "penalty_to": "new"})
    assert names(ev) == ["ClaimResolved", "WindowWon", "CardGiven"]
    assert of(ev, "CardGiven").source == "stock" and grid(s, 2)["A"] == "8S"


def test_c12_with_forbid_a_player_with_no_cards_may_not_snap_a_rival() -> None:
    s = _empty_handed("forbid")
    assert not [a for a in R.legal_actions(s, 1) if a["type"] == "SnapRival"]
    with pytest.raises(InvalidCommand):
        act(s, 1, {"type": "SnapRival", "window_id": s.window.id, "rival": 2, "rival_slot": "A",
                   "penalty_to": "new"})


def test_c12_with_leave_empty_the_rivals_slot_stays_a_hole() -> None:
    s = _empty_handed("leave_empty")
    s, ev = act(s, 1, {"type": "SnapRival", "window_id": s.window.id, "rival": 2, "rival_slot": "A",
                       "penalty_to": "new"})
    assert names(ev) == ["ClaimResolved", "WindowWon"] and grid(s, 2)["A"] is None


# C13 -----------------------------------------------------------------------------------------


def test_c13_powers_are_mandatory_by_default_and_optional_under_powers_optional_true() -> None:
    s = game(THREE, stock_top=["5D"])
    s1, _ = turn(s, 0)
    assert kinds(s1, 0) == {"PeekOwn"}
    with pytest.raises(WrongPhase):
        act(s1, 0, {"type": "SkipPower"})
    s2 = game(THREE, stock_top=["5D"], options={"powers_optional": True})
    s2, _ = act(s2, 0, {"type": "Draw", "source": "stock"})
    s2, _ = act(s2, 0, {"type": "DiscardDrawn"})
    assert "SkipPower" in kinds(s2, 0)
    s2, ev = act(s2, 0, {"type": "SkipPower"})
    assert of(ev, "PowerSkipped").reason == "declined"


def test_c13_the_king_may_still_keep_when_powers_are_mandatory() -> None:
    s = game(THREE, stock_top=["KS"])
    s, _ = turn(s, 0)
    assert kinds(s, 0) == {"KingLook"}
    s, _ = act(s, 0, {"type": "KingLook", "own_slot": "A", "rival": 1, "rival_slot": "A"})
    assert kinds(s, 0) == {"KingSwap", "KingKeep"}
    s, ev = act(s, 0, {"type": "KingKeep"})
    assert names(ev)[0] == "KingKept" and s.turn == 1


# C14 -----------------------------------------------------------------------------------------


def test_c14_a_call_is_allowed_on_the_first_turn_unless_min_own_turns_before_call() -> None:
    s = game(THREE)
    assert "CallCorte" in kinds(s, 0)
    s = game(THREE, options={"min_own_turns_before_call": 1})
    assert "CallCorte" not in kinds(s, 0)
    with pytest.raises(WrongPhase):
        act(s, 0, {"type": "CallCorte"})
    for p in range(3):
        s, _ = turn(s, p)
    assert "CallCorte" in kinds(s, 0)


# C15 -----------------------------------------------------------------------------------------


def test_c15_with_lock_caller_true_the_callers_grid_is_locked() -> None:
    s = game(THREE, stock_top=["7S", "QD", "KS", "6D"], first=1, options={"lock_caller": True})
    s, _ = turn(s, 1)  # a window on a 7
    s, _ = act(s, 2, {"type": "CallCorte"})  # seat 2 calls; the window stays current
    w = s.window.id
    with pytest.raises(Locked):
        snap(s, 2, "B")
    with pytest.raises(Locked):
        act(s, 1, {"type": "SnapRival", "window_id": w, "rival": 2, "rival_slot": "B", "give_slot": "A",
                   "penalty_to": "new"})
    assert not R.legal_actions(s, 2)
    s, _ = turn(s, 0)  # the Q
    assert all(a["rival"] != 2 for a in R.legal_actions(s, 0) if a["type"] == "BlindSwap")
    with pytest.raises(Locked):
        act(s, 0, {"type": "BlindSwap", "own_slot": "A", "rival": 2, "rival_slot": "A"})
    s, _ = act(s, 0, {"type": "BlindSwap", "own_slot": "A", "rival": 1, "rival_slot": "A"})
    s, _ = turn(s, 1)  # the K: looking at the caller is allowed, swapping is not
    s, _ = act(s, 1, {"type": "KingLook", "own_slot": "A", "rival": 2, "rival_slot": "A"})
    assert kinds(s, 1) == {"KingKeep"}
    with pytest.raises(Locked):
        act(s, 1, {"type": "KingSwap"})


def test_c15_by_default_the_caller_may_snap_and_be_snapped_and_swapped() -> None:
    s = game(THREE, stock_top=["7S", "QD"], first=1)
    s, _ = turn(s, 1)
    s, _ = act(s, 2, {"type": "CallCorte"})
    assert not s.locked() and not R.view(s, 0)["players"][2]["locked"]
    assert any(a["type"] == "SnapRival" and a["rival"] == 2 for a in R.legal_actions(s, 1))
    s, ev = snap(s, 2, "B")
    assert of(ev, "ClaimResolved").outcome == "correct"
    s, _ = turn(s, 0)  # the Q may swap with the caller
    assert any(a["rival"] == 2 for a in R.legal_actions(s, 0) if a["type"] == "BlindSwap")
    s, ev = act(s, 0, {"type": "BlindSwap", "own_slot": "A", "rival": 2, "rival_slot": "A"})
    assert names(ev)[0] == "CardsSwapped"


# C16 -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("penalty", [None, 0, 5])
def test_c16_a_failed_call_adds_failed_call_penalty_to_the_callers_own_total(penalty) -> None:
    opts = {} if penalty is None else {"failed_call_penalty": penalty}
    s = game([["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "JH"]], stock_top=["8D"], options=opts)
    s, _ = act(s, 0, {"type": "CallCorte"})
    s, ev = turn(s, 1)
    s, ev = act(s, 0, {"type": "Pass", "window_id": s.window.id})
    s, ev = act(s, 1, {"type": "Pass", "window_id": s.window.id})
    scored = of(ev, "RoundScored")
    assert scored.totals == (10, 6)
    assert scored.round_scores == (10 + (10 if penalty is None else penalty), 6)


def test_c16_a_caller_strictly_lowest_scores_the_total_unchanged() -> None:
    s = game([["AS", "2S", "JS", "JD"], ["AH", "2H", "3H", "JH"]], stock_top=["8D"])
    s, _ = act(s, 0, {"type": "CallCorte"})
    s, ev = turn(s, 1)
    s, ev = act(s, None, {"type": "FinalWindowExpired", "window_id": s.window.id})
    scored = of(ev, "RoundScored")
    assert scored.call_outcome == "won" and scored.round_scores == (3, 6)


# C17 -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("target, ends", [(None, True), (120, False)])
def test_c17_the_game_ends_after_a_round_in_which_someone_reaches_target_score(target, ends) -> None:
    opts = {} if target is None else {"target_score": target}
    s = game([["AS", "2S", "3S", "4S"], ["QH", "KH", "QD", "KD"]], stock_top=["8D"], options=opts,
             scores=[10, 20])
    s, _ = act(s, 0, {"type": "CallCorte"})
    s, ev = turn(s, 1)
    s, ev = act(s, 0, {"type": "Pass", "window_id": s.window.id})
    s, ev = act(s, 1, {"type": "Pass", "window_id": s.window.id})
    assert s.scores == (20, 100)
    if ends:
        assert of(ev, "GameEnded").winners == (0,) and R.is_terminal(s)
        assert R.legal_actions(s, 0) == [] and R.awaiting(s) == ()
    else:
        assert names(ev)[-1] == "RoundDealt" and not R.is_terminal(s)


# C18 -----------------------------------------------------------------------------------------


def test_c18_by_default_an_empty_stock_is_rebuilt_from_the_pile_but_its_top() -> None:
    s = game(THREE, stock_size=1)
    s, ev = turn(s, 0)
    top_before = s.pile[-1]
    assert s.stock == ()
    s, ev = act(s, 1, {"type": "Draw", "source": "stock"})
    assert names(ev) == ["StockReshuffled", "CardDrawn"]
    assert s.pile == (top_before,)
    r = R.redact(of(ev, "StockReshuffled"), 1)
    assert r["order"] is None and r["salt"] is None and r["commitment"]


def test_c18_with_end_round_a_turn_draw_on_an_empty_stock_ends_the_round_with_no_caller_judged() -> None:
    s = game(THREE, stock_size=1, options={"common.stock_exhausted": "end_round"})
    s, _ = act(s, 0, {"type": "CallCorte"})
    s, _ = turn(s, 1)
    assert s.stock == () and kinds(s, 2) >= {"Draw"}
    s, ev = act(s, 2, {"type": "Draw", "source": "stock"})
    scored = of(ev, "RoundScored")
    assert scored.reason == "stock_exhausted" and scored.caller is None
    assert scored.round_scores == scored.totals
