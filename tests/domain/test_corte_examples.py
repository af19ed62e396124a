"""Corte: the worked examples of the rules (A19-A23, A30, A31), given/when/then."""
from __future__ import annotations

import pytest

from domain.errors import StaleWindow
from domain.orders import ORDER_KINDS
from tests.domain.test_corte_support import R, act, game, grid, names, of, points, turn


def test_a19_a_caller_who_ties_scores_the_total_plus_ten_and_the_other_scores_theirs() -> None:
    # Given seat 0 holds 4 (four aces) and seat 1 holds 4 (2 + 2 + J + J)
    s = game([["AS", "AH", "AD", "AC"], ["2S", "2H", "JD", "JC"]], stock_top=["7S"])
    # When seat 0 calls, seat 1 plays its last turn (a 7, no power) and passes the final window
    s, ev = act(s, 0, {"type": "CallCorte"})
    assert names(ev) == ["CallMade", "TurnEnded"]
    s, ev = turn(s, 1)
    started = of(ev, "FinalWindowStarted")
    assert started.eligible == (0, 1)  # no caller lock: the caller may snap too, and passes
    s, _ = act(s, 0, {"type": "Pass", "window_id": started.window_id})
    s, ev = act(s, 1, {"type": "Pass", "window_id": started.window_id})
    # Then the caller failed (a tie): 4 + 10; the other scores 4
    scored = of(ev, "RoundScored")
    assert scored.totals == (4, 4)
    assert scored.round_scores == (14, 4)
    assert scored.call_outcome == "failed"
    assert s.scores == (14, 4)
    assert names(ev)[-1] == "RoundDealt"  # the next round is dealt at once


def test_a20_a_grid_of_j_q_empty_and_3_scores_23() -> None:
    # Given seat 0: J, Q, 9, 3; seat 1 discards a 9 and seat 0 snaps its C (the 9)
    s = game([["JS", "QS", "9H", "3C"], ["2S", "2H", "4D", "4C"]], stock_top=["9D", "KH", "2C"], first=1)
    s, _ = turn(s, 1)
    s, ev = act(s, 0, {"type": "SnapOwn", "window_id": s.window.id, "slot": "C", "penalty_to": "new"})
    assert of(ev, "ClaimResolved").outcome == "correct"
    assert grid(s, 0) == {"A": "JS", "B": "QS", "C": None, "D": "3C"}
    # When seat 0 calls and seat 1 plays its last turn (a King: it looks and keeps), and both pass
    s, _ = act(s, 0, {"type": "CallCorte"})
    s, ev = act(s, 1, {"type": "Draw", "source": "stock"})
    s, ev = act(s, 1, {"type": "DiscardDrawn"})
    s, ev = act(s, 1, {"type": "KingLook", "own_slot": "A", "rival": 0, "rival_slot": "A"})
    s, ev = act(s, 1, {"type": "KingKeep"})
    f = of(ev, "FinalWindowStarted").window_id
    s, ev = act(s, 0, {"type": "Pass", "window_id": f})
    s, ev = act(s, 1, {"type": "Pass", "window_id": f})
    # Then seat 0's total is 0 + 20 + 0 + 3
    revealed = of(ev, "RoundRevealed")
    assert revealed.totals[0] == 23 == points("JS") + points("QS") + points("3C")


def _window_on_a_seven() -> object:
    # P1 = seat 0 discards a 7; P2 = seat 1 holds a 7 in A; P3 = seat 2 holds a 9 in A.
    s = game([["KS", "KH", "KD", "KC"], ["7H", "2H", "3H", "4H"], ["9C", "2C", "3C", "4C"]],
             stock_top=["7S", "8S", "5S"])
    s, ev = turn(s, 0)
    assert of(ev, "WindowOpened").card == "7S"
    return s


def test_a21_a_second_snap_on_a_won_window_is_late_and_costs_an_unseen_penalty_card() -> None:
    s = _window_on_a_seven()
    w = s.window.id
    # When P2 snaps its own 7 correctly
    s, ev = act(s, 1, {"type": "SnapOwn", "window_id": w, "slot": "A", "penalty_to": "new"})
    assert names(ev) == ["ClaimResolved", "WindowWon"]
    assert grid(s, 1)["A"] is None and s.window.won_by == 1
    # And P3 then snaps on the same window
    s, ev = act(s, 2, {"type": "SnapOwn", "window_id": w, "slot": "A", "penalty_to": "new"})
    claim = of(ev, "ClaimResolved")
    # Then P3 is late: its card is revealed publicly and stays; one unseen penalty card goes to E1
    assert claim.outcome == "late"
    assert R.redact(claim, 0)["revealed"] == ["9C"]
    assert grid(s, 2)["A"] == "9C"
    penalty = of(ev, "PenaltyCardDealt")
    assert (penalty.seat, penalty.slot, penalty.new_slot) == (2, "E1", True)
    assert R.redact(penalty, 2)["card"] is None
    assert grid(s, 2)["E1"] == "8S"
    assert s.window.id == w and s.window.won_by == 1  # the won window stays current


def test_a22_a_snap_naming_a_superseded_window_is_refused_409_with_no_penalty() -> None:
    s = _window_on_a_seven()
    old = s.window.id
    # P1's turn passed to P2, who discards again: a new window W'
    s, _ = turn(s, 1)
    assert s.window.id != old
    before = s
    with pytest.raises(StaleWindow) as err:
        R.decide(s, 2, R.parse_command({"type": "SnapOwn", "window_id": old, "slot": "A", "penalty_to": "new"}),
                 b"k")
    assert err.value.status == 409 and err.value.code == "stale_window"
    assert s == before and len(s.layouts[2].slots) == 4


def test_a23_a_correct_rival_snap_gives_the_snappers_card_into_the_rivals_hole() -> None:
    # P2 = seat 1 (D = 6H), P3 = seat 2 (B = 7C); the window is on P1's 7
    s = game([["KS", "KH", "KD", "KC"], ["AH", "2H", "3H", "6H"], ["9C", "7C", "3C", "4C"]],
             stock_top=["7S", "8S"])
    s, _ = turn(s, 0)
    s, ev = act(s, 1, {"type": "SnapRival", "window_id": s.window.id, "rival": 2, "rival_slot": "B",
                       "give_slot": "D", "penalty_to": "new"})
    assert names(ev) == ["ClaimResolved", "WindowWon", "CardGiven"]
    assert grid(s, 2)["B"] == "6H"  # P2's old D, face down
    assert grid(s, 1)["D"] is None
    assert s.pile[-1] == "7C"  # the top is P3's old B
    # nobody is shown the given card
    assert all(R.redact(of(ev, "CardGiven"), p)["card"] is None for p in (None, 0, 1, 2))


def test_a30_a_correct_snap_wins_the_final_window_which_ends_at_once() -> None:
    s = game([["AS", "AH", "AD", "AC"], ["7H", "2H", "3H", "4H"]], stock_top=["7S"])
    s, _ = act(s, 0, {"type": "CallCorte"})
    s, ev = turn(s, 1)
    f = of(ev, "FinalWindowStarted").window_id
    assert s.phase == "FINAL_WINDOW" and s.window.card == "7S"
    s, ev = act(s, 1, {"type": "SnapOwn", "window_id": f, "slot": "A", "penalty_to": "new"})
    assert names(ev)[:5] == ["ClaimResolved", "WindowWon", "FinalWindowEnded", "RoundRevealed", "RoundScored"]
    assert of(ev, "FinalWindowEnded").reason == "won"
    assert of(ev, "RoundRevealed").totals == (4, 9)


def test_a31_with_no_card_to_draw_each_seat_may_call_or_skip_and_a_lap_of_skips_ends_the_round() -> None:
    # 3 players, the stock empty, the pile only its top card, no call yet: every other card
    # sits in seat 0's grid (penalty cards from earlier wrong snaps)
    s = game([["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"], ["AD", "2D", "3D", "4D"]])
    lay = s.layouts[0]
    for card in s.stock[1:]:
        lay = lay.add(card)[0]
    s = s._replace(layouts=(lay,) + s.layouts[1:], stock=(), pile=s.stock[:1])
    assert sorted(R.cards_in_play(s)) == sorted(R.full_pack(s))
    acts = {a["type"] for a in R.legal_actions(s, 0)} - ORDER_KINDS
    assert acts == {"CallCorte", "SkipTurn"}
    s, ev = act(s, 0, {"type": "SkipTurn"})
    s, ev = act(s, 1, {"type": "SkipTurn"})
    s, ev = act(s, 2, {"type": "SkipTurn"})
    assert names(ev)[:2] == ["TurnSkipped", "RoundRevealed"]
    scored = of(ev, "RoundScored")
    assert scored.reason == "no_card" and scored.caller is None
    expected = tuple(sum(points(c) for c in lay.cards if c) for lay in s.layouts)
    assert scored.round_scores == scored.totals == expected
