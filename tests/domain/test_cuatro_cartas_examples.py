"""The worked examples of 4 Cartas, rows A12–A18 and A27–A29, as given/when/then tests."""
from __future__ import annotations

import pytest

from domain.errors import InvalidCommand, StaleWindow
from domain.rules.cuatro_cartas import closer_score, layout_total
from tests.domain.test_cuatro_cartas_support import card, names, of, refused, send, table, wid


@pytest.mark.parametrize("cards, rule, total", [
    (("8S", "QH"), "all_eights", 10),          # A12
    (("8S", "8H"), "all_eights", -10),         # A13
    (("8S",), "all_eights", -5),               # A14
    (("8S",), "pair_rule", -5),                # A14 under pair_rule
    (("8S", "8H", "QH"), "all_eights", 10),    # A15
    (("8S", "8H", "QH"), "pair_rule", 0),      # A15 under pair_rule
    ((), "all_eights", 0),                     # an empty layout
])
def test_a12_to_a15_the_eight_rule(cards: tuple[str, ...], rule: str, total: int) -> None:
    assert layout_total(cards, rule) == total


@pytest.mark.parametrize("rule", ["all_eights", "pair_rule"])
def test_a14_a_lone_eight_among_empty_slots_is_minus_five_in_a_played_round(rule: str) -> None:
    s = table([["AS", "2S", "3S", "4S"], ["8H", "5H", "5D", "5C"]], upcard="5S", stock=["3D"],
              options={"eight_rule": rule})
    for slot in "BCD":
        _, s = send(s, 1, {"type": "Match", "window_id": wid(s), "slot": slot})
    assert s.layouts[1].present() == ("8H",)
    _, s = send(s, 0, {"type": "Close"})
    _, s = send(s, 1, {"type": "Draw", "source": "stock"})
    _, s = send(s, 1, {"type": "DiscardDrawn", "close": False})
    _, s = send(s, 0, {"type": "Pass", "window_id": wid(s)})  # the closer is eligible too
    events, s = send(s, 1, {"type": "Pass", "window_id": wid(s)})
    scored = of(events, "RoundScored")[0]
    assert scored.totals == (10, -5) and scored.round_scores == (20, -5)


@pytest.mark.parametrize("option", ["one_point", "keep_total", "double"])
def test_a17_a_closer_at_zero_with_a_rival_at_minus_five_scores_one_under_every_option(option: str) -> None:
    assert closer_score(0, [-5], option) == (1, "failed")


@pytest.mark.parametrize("option, expected", [("one_point", 1), ("keep_total", -5), ("double", -10)])
def test_a18_a_closer_at_minus_five_beaten_by_minus_ten(option: str, expected: int) -> None:
    assert closer_score(-5, [-10], option) == (expected, "failed")


def test_a16_a_closer_tied_at_three_scores_six_in_a_played_round() -> None:
    s = table([["AS", "2S", "8S", "8H"], ["AH", "2H", "8D", "8C"]], upcard="9S", stock=["5D"])
    _, s = send(s, 0, {"type": "Close"})
    _, s = send(s, 1, {"type": "Draw", "source": "stock"})
    _, s = send(s, 1, {"type": "DiscardDrawn", "close": False})
    assert s.phase == "FINAL_WINDOW"
    _, s = send(s, 0, {"type": "Pass", "window_id": wid(s)})  # the closer is eligible too
    events, s = send(s, 1, {"type": "Pass", "window_id": wid(s)})
    scored = of(events, "RoundScored")[0]
    assert scored.totals == (3, 3)
    assert scored.round_scores == (6, 3)
    assert scored.close_outcome == "failed"
    assert s.scores == (6, 3)


def test_a27_a_right_and_a_wrong_match_on_the_same_window() -> None:
    s = table([["5S", "6S", "7S", "10S"], ["4H", "9H", "JH", "QH"]], upcard="2C", stock=["4D", "3C"])
    _, s = send(s, 0, {"type": "Draw", "source": "stock"})
    _, s = send(s, 0, {"type": "DiscardDrawn", "close": False})
    w = wid(s)
    assert s.window is not None and s.window.card == "4D"
    events, s = send(s, 1, {"type": "Match", "window_id": w, "slot": "A"})
    assert of(events, "ClaimResolved")[0].outcome == "correct"
    assert card(s, 1, "A") is None and s.pile[-1] == "4H"
    events, s = send(s, 1, {"type": "Match", "window_id": w, "slot": "B"})
    claim = of(events, "ClaimResolved")[0]
    assert claim.outcome == "wrong" and claim.revealed == ("9H",) and claim.revealed_to == "all"
    assert card(s, 1, "B") == "9H"
    penalty = of(events, "PenaltyCardDealt")[0]
    assert penalty.slot == "E1" and card(s, 1, "E1") == "3C"
    from domain.rules.cuatro_cartas import RULESET as R
    assert R.redact(penalty, 1)["card"] is None  # unseen, even by its owner
    assert s.turn == 1 and s.step == "AWAIT_ACTION"  # claims never move the turn


def test_a28_a_king_taken_from_the_pile_and_discarded_again_fires_no_power() -> None:
    s = table([["5S", "6S", "7S", "10S"], ["4H", "9H", "JH", "QH"]], upcard="KC")
    w0 = wid(s)
    events, s = send(s, 0, {"type": "Draw", "source": "discard"})
    assert [(e.window_id, e.reason) for e in of(events, "WindowClosed")] == [(w0, "taken")]
    assert s.window is None
    events, s = send(s, 0, {"type": "DiscardDrawn", "close": False})
    assert "PowerStarted" not in names(events)
    assert of(events, "WindowOpened")[0].card == "KC" and s.turn == 1


def test_a28_with_allow_rediscard_false_the_king_must_replace_a_card() -> None:
    s = table([["5S", "6S", "7S", "10S"], ["4H", "9H", "JH", "QH"]], upcard="KC",
              options={"allow_rediscard": False})
    _, s = send(s, 0, {"type": "Draw", "source": "discard"})
    assert isinstance(refused(s, 0, {"type": "DiscardDrawn", "close": False}), InvalidCommand)
    assert refused(s, 0, {"type": "DiscardDrawn", "close": False}).status == 422


def test_a28_with_rediscard_power_true_the_kings_power_runs_then_the_window_opens() -> None:
    s = table([["5S", "6S", "7S", "10S"], ["4H", "9H", "JH", "QH"]], upcard="KC",
              options={"rediscard_power": True})
    _, s = send(s, 0, {"type": "Draw", "source": "discard"})
    events, s = send(s, 0, {"type": "DiscardDrawn", "close": False})
    assert names(events) == ["CardDiscarded", "PowerStarted"] and s.step == "POWER_LOOK"
    events, s = send(s, 0, {"type": "Look", "targets": [[1, "A"]], "close": False})
    assert of(events, "CardsLooked")[0].cards == ("4H",) and s.step == "POWER_SWAP"
    events, s = send(s, 0, {"type": "NoSwap", "close": False})
    assert of(events, "WindowOpened")[0].card == "KC" and s.turn == 1


def _final_window_on_a_nine() -> object:
    s = table([["AS", "2S", "3S", "4S"], ["5H", "6H", "7H", "10H"], ["9H", "6D", "7D", "10D"]],
              upcard="2C", stock=["3D", "9C"])
    _, s = send(s, 0, {"type": "Close"})
    _, s = send(s, 1, {"type": "Draw", "source": "stock"})
    _, s = send(s, 1, {"type": "DiscardDrawn", "close": False})
    _, s = send(s, 2, {"type": "Draw", "source": "stock"})
    _, s = send(s, 2, {"type": "DiscardDrawn", "close": False})
    assert s.phase == "FINAL_WINDOW" and s.window is not None and s.window.card == "9C"
    return s


def test_a29_a_pass_is_final_and_the_window_ends_when_the_last_eligible_seat_passes() -> None:
    s = _final_window_on_a_nine()
    f = wid(s)
    assert s.window.card == "9C"
    _, s = send(s, 0, {"type": "Pass", "window_id": f})  # no closer lock: the closer is eligible and passes
    _, s = send(s, 1, {"type": "Pass", "window_id": f})
    events, s = send(s, 2, {"type": "Match", "window_id": f, "slot": "A"})
    assert of(events, "ClaimResolved")[0].outcome == "correct" and card(s, 2, "A") is None
    assert s.phase == "FINAL_WINDOW"
    assert isinstance(refused(s, 1, {"type": "Match", "window_id": f, "slot": "A"}), StaleWindow)
    events, s = send(s, 2, {"type": "Pass", "window_id": f})
    assert names(events)[:3] == ["Passed", "WindowClosed", "RoundRevealed"]


def test_a29_the_final_window_also_ends_at_final_window_expired() -> None:
    s = _final_window_on_a_nine()
    f = wid(s)
    _, s = send(s, 1, {"type": "Pass", "window_id": f})
    events, s = send(s, None, {"type": "FinalWindowExpired", "window_id": f})
    assert of(events, "WindowClosed")[0].reason == "final"
    assert of(events, "RoundRevealed")[0].reason == "final_window_expired"
    assert s.round == 2 and s.phase == "INITIAL_PEEK"
