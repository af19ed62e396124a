"""4 Cartas: one test per decision (Q1–Q23 of the rules' ambiguity table), the default and each option's effect."""
from __future__ import annotations

import pytest

from domain.choices import covers
from domain.errors import InvalidCommand, InvalidOptions, Locked, NotYourTurn, StaleWindow, WrongPhase
from domain.rules.cuatro_cartas import RULESET as R
from tests.domain.test_cuatro_cartas_support import card, names, of, refused, send, table, wid

LOW = ["5S", "6S", "7S", "10S"]
HIGH = ["4H", "9H", "JH", "QH"]


def test_q1_two_to_eight_players_and_always_one_pack() -> None:
    for n in (2, 8):
        R.resolve_options({}, n)
    for n in (1, 9):
        with pytest.raises(InvalidOptions):
            R.resolve_options({}, n)
    assert R.resolve_options({"common.decks": 1}, 8)["common.decks"] == 1
    with pytest.raises(InvalidOptions):
        R.resolve_options({"common.decks": 2}, 8)
    assert len(R.full_pack(table([LOW, HIGH]))) == 52


def test_q2_eight_rule_default_all_eights_and_pair_rule_option() -> None:
    def totals(rule: str) -> tuple[int, ...]:
        s = table([["8S", "8H", "QS", "AS"], ["2H", "3H", "4H", "5H"]], upcard="AC", stock=["6D"],
                  options={"eight_rule": rule})
        _, s = send(s, 0, {"type": "Match", "window_id": wid(s), "slot": "D"})
        _, s = send(s, 0, {"type": "Close"})
        _, s = send(s, 1, {"type": "Draw", "source": "stock"})
        _, s = send(s, 1, {"type": "DiscardDrawn", "close": False})
        _, s = send(s, 0, {"type": "Pass", "window_id": wid(s)})
        events, _ = send(s, 1, {"type": "Pass", "window_id": wid(s)})
        return of(events, "RoundScored")[0].totals  # type: ignore[no-any-return]
    assert totals("all_eights")[0] == 10
    assert totals("pair_rule")[0] == 0


def test_q3_alone_means_the_only_card_left_empty_slots_ignored() -> None:
    from domain.rules.cuatro_cartas import layout_total
    assert layout_total(("8D",), "all_eights") == -5
    assert layout_total(("8D", "AH"), "all_eights") == 1


def test_q4_two_cards_of_your_choice_seen_only_by_you_before_the_first_turn() -> None:
    s = table([LOW, HIGH], peek=False)
    assert s.phase == "INITIAL_PEEK" and set(R.awaiting(s)) == {0, 1}
    assert isinstance(refused(s, 0, {"type": "Draw", "source": "stock"}), WrongPhase)
    assert isinstance(refused(s, 0, {"type": "ChoosePeek", "slots": ["A", "A"]}), InvalidCommand)
    events, s = send(s, 0, {"type": "ChoosePeek", "slots": ["A", "B"]})
    peek = of(events, "PeekChosen")[0]
    assert R.redact(peek, 0)["cards"] == ["5S", "6S"]
    assert R.redact(peek, 1)["cards"] == [None, None] and R.redact(peek, None)["cards"] == [None, None]
    assert [x["card"] for x in R.view(s, 0)["players"][0]["cards"]] == ["5S", "6S", None, None]
    _, s = send(s, 1, {"type": "ChoosePeek", "slots": ["C", "D"]})
    assert s.phase == "TURNS" and s.turn == 0


def test_q5_the_initial_upcard_can_be_matched_after_the_peeks() -> None:
    s = table([LOW, HIGH], upcard="9C")
    assert s.window is not None and s.window.card == "9C"
    events, s = send(s, 1, {"type": "Match", "window_id": wid(s), "slot": "B"})
    assert of(events, "ClaimResolved")[0].outcome == "correct" and card(s, 1, "B") is None


def test_q6_rival_matching_is_off_by_default_and_gives_a_card_when_on() -> None:
    s = table([LOW, HIGH], upcard="9C")
    cmd = {"type": "MatchRival", "window_id": wid(s), "rival": 1, "rival_slot": "B", "give_slot": "D"}
    assert refused(s, 0, cmd).status == 422
    assert not [a for a in R.legal_actions(s, 0) if a["type"] == "MatchRival"]
    s = table([LOW, HIGH], upcard="9C", options={"rival_matching": True})
    assert covers(R.legal_actions(s, 0), cmd | {"window_id": wid(s)})
    events, s = send(s, 0, cmd | {"window_id": wid(s)})
    assert of(events, "ClaimResolved")[0].outcome == "correct"
    assert card(s, 1, "B") == "10S" and card(s, 0, "D") is None and s.pile[-1] == "9H"
    s = table([LOW, HIGH], upcard="9C", options={"rival_matching": True})
    events, s = send(s, 0, cmd | {"window_id": wid(s), "rival_slot": "A"})
    assert of(events, "ClaimResolved")[0].outcome == "wrong" and len(s.layouts[0].slots) == 5


def test_q7_everyone_may_match_a_discard_unless_single_match_per_discard() -> None:
    lays = [["9S", "6S", "7S", "10S"], HIGH]
    s = table(lays, upcard="9C")
    _, s = send(s, 0, {"type": "Match", "window_id": wid(s), "slot": "A"})
    events, s = send(s, 1, {"type": "Match", "window_id": wid(s), "slot": "B"})
    assert of(events, "ClaimResolved")[0].outcome == "correct"
    s = table(lays, upcard="9C", options={"single_match_per_discard": True})
    events, s = send(s, 0, {"type": "Match", "window_id": wid(s), "slot": "A"})
    assert of(events, "WindowWon")[0].by == 0
    assert isinstance(refused(s, 1, {"type": "Match", "window_id": wid(s), "slot": "B"}), StaleWindow)
    assert not [a for a in R.legal_actions(s, 1) if a["type"] == "Match"]


def test_q8_matches_are_judged_per_card_unless_group_match_all_or_nothing() -> None:
    lays = [["9S", "9D", "7S", "10S"], HIGH]
    s = table(lays, upcard="9C")
    assert refused(s, 0, {"type": "MatchGroup", "window_id": wid(s), "slots": ["A", "B"]}).status == 422
    s = table(lays, upcard="9C", options={"group_match_all_or_nothing": True})
    events, s2 = send(s, 0, {"type": "MatchGroup", "window_id": wid(s), "slots": ["A", "B", "C"]})
    claim = of(events, "ClaimResolved")[0]
    assert claim.outcome == "wrong" and claim.revealed == ("9S", "9D", "7S")
    assert s2.layouts[0].present()[:4] == ("9S", "9D", "7S", "10S") and len(of(events, "PenaltyCardDealt")) == 1
    events, s3 = send(s, 0, {"type": "MatchGroup", "window_id": wid(s), "slots": ["B", "A"]})
    assert of(events, "ClaimResolved")[0].outcome == "correct"
    assert s3.layouts[0].present() == ("7S", "10S")


def test_q9_an_in_turn_match_of_a_king_fires_no_power_unless_in_turn_match_power() -> None:
    lays = [["KS", "6S", "7S", "10S"], HIGH]
    s = table(lays, upcard="KC")
    events, s = send(s, 0, {"type": "Match", "window_id": wid(s), "slot": "A"})
    assert "PowerStarted" not in names(events) and s.step == "AWAIT_ACTION"
    s = table(lays, upcard="KC", options={"in_turn_match_power": True})
    w = wid(s)
    events, s = send(s, 0, {"type": "Match", "window_id": w, "slot": "A"})
    assert "PowerStarted" in names(events) and s.step == "POWER_LOOK"
    assert refused(s, 1, {"type": "Match", "window_id": w, "slot": "A"}).code == "no_window"
    _, s = send(s, 0, {"type": "SkipPower", "close": False})
    assert s.step == "AWAIT_ACTION" and s.turn == 0 and wid(s) == w  # the window is current again


def test_q10_a_replaced_king_fires_its_power_unless_replaced_card_power_false() -> None:
    lays = [["KS", "6S", "7S", "10S"], HIGH]
    s = table(lays, stock=["3D"])
    _, s = send(s, 0, {"type": "Draw", "source": "stock"})
    events, s2 = send(s, 0, {"type": "Replace", "slot": "A", "close": False})
    assert s2.step == "POWER_LOOK" and s2.window is None
    s = table(lays, stock=["3D"], options={"replaced_card_power": False})
    _, s = send(s, 0, {"type": "Draw", "source": "stock"})
    events, s2 = send(s, 0, {"type": "Replace", "slot": "A", "close": False})
    assert "PowerStarted" not in names(events) and s2.turn == 1 and s2.window.card == "KS"  # type: ignore


def test_q11_a_pile_card_may_be_discarded_again_unless_allow_rediscard_false() -> None:
    s = table([LOW, HIGH], upcard="3C")
    _, s = send(s, 0, {"type": "Draw", "source": "discard"})
    assert {"type": "DiscardDrawn", "close": False} in R.legal_actions(s, 0)
    s = table([LOW, HIGH], upcard="3C", options={"allow_rediscard": False})
    _, s = send(s, 0, {"type": "Draw", "source": "discard"})
    assert {"type": "DiscardDrawn", "close": False} not in R.legal_actions(s, 0)
    events, s = send(s, 0, {"type": "Replace", "slot": "A", "close": False})
    assert card(s, 0, "A") == "3C"


def _king_power(options: dict[str, object] | None = None) -> object:
    s = table([LOW, HIGH, ["2D", "3D", "4D", "5D"]], stock=["KD"], options=options)
    _, s = send(s, 0, {"type": "Draw", "source": "stock"})
    _, s = send(s, 0, {"type": "DiscardDrawn", "close": False})
    assert s.step == "POWER_LOOK"
    events, s = send(s, 0, {"type": "Look", "targets": [[1, "A"], [2, "B"]], "close": False})
    looked = of(events, "CardsLooked")[0]
    assert R.redact(looked, 0)["cards"] == ["4H", "3D"] and R.redact(looked, 1)["cards"] == [None, None]
    return s


def test_q12_a_swap_may_be_between_any_two_players_unless_swap_must_include_own() -> None:
    s = _king_power()
    events, s2 = send(s, 0, {"type": "Swap", "a": [1, "A"], "b": [2, "B"], "close": False})
    assert card(s2, 1, "A") == "3D" and card(s2, 2, "B") == "4H" and s2.turn == 1
    s = _king_power({"swap_must_include_own": True})
    assert refused(s, 0, {"type": "Swap", "a": [1, "A"], "b": [2, "B"], "close": False}).status == 422
    _, s2 = send(s, 0, {"type": "Swap", "a": [0, "A"], "b": [2, "B"], "close": False})
    assert card(s2, 0, "A") == "3D"


def test_q13_close_instead_of_the_turn_or_after_it_with_close_timing() -> None:
    s = table([LOW, HIGH], stock=["3D"])
    assert {"type": "Close"} in R.legal_actions(s, 0)
    events, s2 = send(s, 0, {"type": "Close"})
    assert names(events)[0] == "CallMade" and "WindowOpened" not in names(events) and s2.turn == 1
    assert refused(s, 0, {"type": "DiscardDrawn", "close": True}).code == "wrong_phase"
    s = table([LOW, HIGH], stock=["3D"], options={"close_timing": "after_turn"})
    assert refused(s, 0, {"type": "Close"}).status == 422
    _, s = send(s, 0, {"type": "Draw", "source": "stock"})
    assert {"type": "DiscardDrawn", "close": True} in R.legal_actions(s, 0)
    events, s = send(s, 0, {"type": "DiscardDrawn", "close": True})
    assert names(events)[:4] == ["CardDiscarded", "WindowClosed", "WindowOpened", "CallMade"]
    assert s.closer == 0 and s.phase == "FINAL_LAP" and s.turn == 1


def test_q14_the_closer_is_open_by_default_and_locked_under_lock_closer_true() -> None:
    s = table([LOW, HIGH, ["2D", "3D", "4D", "5C"]], upcard="5H")
    _, s = send(s, 0, {"type": "Close"})
    assert not s.locked(0)
    events, _ = send(s, 0, {"type": "Match", "window_id": wid(s), "slot": "A"})
    assert of(events, "ClaimResolved")[0].outcome == "correct"
    s = table([LOW, HIGH, ["2D", "3D", "4D", "5C"]], upcard="5H", stock=["KD"], options={"lock_closer": True})
    _, s = send(s, 0, {"type": "Close"})
    assert isinstance(refused(s, 0, {"type": "Match", "window_id": wid(s), "slot": "A"}), Locked)
    _, s = send(s, 1, {"type": "Draw", "source": "stock"})
    _, s = send(s, 1, {"type": "DiscardDrawn", "close": False})
    _, s = send(s, 1, {"type": "Look", "targets": [[0, "A"]], "close": False})  # looking is allowed
    assert isinstance(refused(s, 1, {"type": "Swap", "a": [0, "A"], "b": [2, "B"], "close": False}), Locked)


def test_q15_a_tie_with_the_closer_fails_the_close() -> None:
    from domain.rules.cuatro_cartas import closer_score
    assert closer_score(3, [3, 9], "one_point") == (6, "failed")
    assert closer_score(2, [3, 9], "one_point") == (2, "succeeded")


def test_q16_failed_close_negative_options() -> None:
    from domain.rules.cuatro_cartas import closer_score
    assert [closer_score(-5, [-10], o)[0] for o in ("one_point", "keep_total", "double")] == [1, -5, -10]
    assert [closer_score(0, [0], o)[0] for o in ("one_point", "keep_total", "double")] == [1, 1, 1]


def _finish_round(s: object) -> tuple[tuple[object, ...], object]:
    """Seat 0 closes; every other seat draws and discards; everyone passes."""
    _, s = send(s, s.turn, {"type": "Close"})  # type: ignore[attr-defined]
    events: tuple[object, ...] = ()
    while s.phase in ("FINAL_LAP", "FINAL_WINDOW"):  # type: ignore[attr-defined]
        if s.phase == "FINAL_LAP":  # type: ignore[attr-defined]
            _, s = send(s, s.turn, {"type": "Draw", "source": "stock"})  # type: ignore[attr-defined]
            acts = [a for a in R.legal_actions(s, s.turn) if a["type"] in ("DiscardDrawn", "SkipPower", "NoSwap")]
            events, s = send(s, s.turn, acts[0])  # type: ignore[attr-defined]
            while s.step in ("POWER_LOOK", "POWER_SWAP"):  # type: ignore[attr-defined]
                acts = [a for a in R.legal_actions(s, s.turn) if a["type"] in ("SkipPower", "NoSwap")]
                events, s = send(s, s.turn, acts[0])  # type: ignore[attr-defined]
        else:
            seat = R.awaiting(s)[0]
            events, s = send(s, seat, {"type": "Pass", "window_id": wid(s)})  # type: ignore[arg-type]
    return events, s


def _peek_all(s: object) -> object:
    for seat in range(s.players):  # type: ignore[attr-defined]
        _, s = send(s, seat, {"type": "ChoosePeek", "slots": ["C", "D"]})
    return s


def test_q17_a_game_is_five_rounds_unless_rounds_says_otherwise() -> None:
    for rounds in (5, 1):
        s = table([LOW, HIGH], options={"rounds": rounds} if rounds != 5 else None)
        for r in range(1, rounds + 1):
            events, s = _finish_round(s)
            if r < rounds:
                assert s.round == r + 1 and "GameEnded" not in names(events)
                s = _peek_all(s)
        assert "GameEnded" in names(events) and R.is_terminal(s)


def test_q18_penalty_card_new_slot_unseen_or_first_empty_slot_and_seen() -> None:
    lays = [["9S", "6S", "7S", "10S"], HIGH]
    s = table(lays, upcard="9C", stock=["3C"])
    _, s = send(s, 0, {"type": "Match", "window_id": wid(s), "slot": "A"})
    events, s2 = send(s, 0, {"type": "Match", "window_id": wid(s), "slot": "B"})
    pen = of(events, "PenaltyCardDealt")[0]
    assert pen.slot == "E1" and R.redact(pen, 0)["card"] is None
    assert R.view(s2, 0)["players"][0]["cards"][4]["card"] is None
    s = table(lays, upcard="9C", stock=["3C"],
              options={"penalty_placement": "empty_slot_first", "penalty_card_visible_to_owner": True})
    _, s = send(s, 0, {"type": "Match", "window_id": wid(s), "slot": "A"})
    events, s2 = send(s, 0, {"type": "Match", "window_id": wid(s), "slot": "B"})
    pen = of(events, "PenaltyCardDealt")[0]
    assert pen.slot == "A" and card(s2, 0, "A") == "3C"
    assert R.redact(pen, 0)["card"] == "3C" and R.redact(pen, 1)["card"] is None
    assert R.view(s2, 0)["players"][0]["cards"][0]["card"] == "3C"
    assert R.view(s2, 1)["players"][0]["cards"][0]["card"] is None


def test_q19_playing_out_of_turn_is_refused_not_penalised() -> None:
    s = table([LOW, HIGH])
    assert isinstance(refused(s, 1, {"type": "Draw", "source": "stock"}), NotYourTurn)


@pytest.mark.parametrize("reveal, seen_by", [("public", {0, 1, None}), ("claimant_only", {1}), ("none", set())])
def test_q20_who_sees_a_wrongly_matched_card(reveal: str, seen_by: set[object]) -> None:
    s = table([LOW, HIGH], upcard="2C", options={"failed_match_reveal": reveal})
    events, s2 = send(s, 1, {"type": "Match", "window_id": wid(s), "slot": "B"})
    claim = of(events, "ClaimResolved")[0]
    for seat in (0, 1, None):
        shown = R.redact(claim, seat)["revealed"]
        assert shown == (["9H"] if seat in seen_by else [None])
    for seat in (0, 1):
        assert (R.view(s2, seat)["players"][1]["cards"][1]["card"] == "9H") == (seat in seen_by)


def test_q21_a_player_with_no_cards_plays_on_unless_auto_close_when_empty() -> None:
    lays = [["9S", "9D", "9H", "8S"], ["2H", "3H", "4H", "5H"]]
    for auto in (False, True):
        s = table(lays, upcard="9C", stock=["3C", "3S", "AS", "AD"], options={"auto_close_when_empty": auto})
        for slot in "ABC":
            _, s = send(s, 0, {"type": "Match", "window_id": wid(s), "slot": slot})
        _, s = send(s, 0, {"type": "Draw", "source": "stock"})
        _, s = send(s, 0, {"type": "Replace", "slot": "D", "close": False})
        _, s = send(s, 1, {"type": "Draw", "source": "stock"})
        _, s = send(s, 1, {"type": "DiscardDrawn", "close": False})
        _, s = send(s, 0, {"type": "Match", "window_id": wid(s), "slot": "D"})
        assert not s.layouts[0].present()
        _, s = send(s, 0, {"type": "Draw", "source": "stock"})
        assert [a["type"] for a in R.legal_actions(s, 0) if a["type"] != "Match"] == ["DiscardDrawn"]
        events, s = send(s, 0, {"type": "DiscardDrawn", "close": False})
        _, s = send(s, 1, {"type": "Draw", "source": "stock"})
        events, s = send(s, 1, {"type": "DiscardDrawn", "close": False})
        calls = of(events, "CallMade")
        assert bool(calls) == auto and (not auto or calls[0].timing == "automatic")


def test_q22_an_empty_stock_is_reshuffled_unless_stock_exhausted_end_round() -> None:
    for mode in ("reshuffle", "end_round"):
        s = table([LOW, HIGH], options={"common.stock_exhausted": mode})
        # Move the whole stock under the pile's top card (conservation holds).
        s = s._replace(pile=s.stock + s.pile, stock=())
        _, s = send(s, 0, {"type": "Close"})
        events, s = send(s, 1, {"type": "Draw", "source": "stock"})
        if mode == "reshuffle":
            assert names(events)[:2] == ["StockReshuffled", "CardDrawn"] and len(s.pile) == 1
            assert R.redact(of(events, "StockReshuffled")[0], 1)["order"] is None
        else:
            assert of(events, "RoundRevealed")[0].reason == "stock_exhausted"
            assert of(events, "RoundScored")[0].close_outcome == "not_judged"


def test_q23_a_card_replaced_out_of_a_layout_can_be_matched() -> None:
    s = table([LOW, ["5H", "9H", "JH", "QH"]], stock=["3D"])
    _, s = send(s, 0, {"type": "Draw", "source": "stock"})
    _, s = send(s, 0, {"type": "Replace", "slot": "A", "close": False})
    assert s.window is not None and s.window.card == "5S"
    events, s = send(s, 1, {"type": "Match", "window_id": wid(s), "slot": "A"})
    assert of(events, "ClaimResolved")[0].outcome == "correct"
