"""Corte's options, C12-C18 of the rules' ambiguity table (empty hands, powers, the call and the
end of a round or game): one test per decision, the default and each option's effect."""
from __future__ import annotations

import pytest

from domain.errors import InvalidCommand, Locked, WrongPhase
from domain.rules.corte import State
from tests.domain.test_corte_support import THREE, R, act, game, grid, kinds, names, of, snap, turn


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
