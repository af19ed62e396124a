"""Corte: turn mechanics, powers, system commands and the common options."""
from __future__ import annotations

import pytest

from domain.errors import (
    InvalidCommand,
    InvalidOptions,
    NotYourTurn,
    RuleError,
    StaleWindow,
    WrongPhase,
)
from domain.rules.corte import winners
from tests.domain.test_corte_support import R, act, game, grid, names, of, turn

TWO = [["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]]
THREE = [["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"], ["AD", "2D", "3D", "4D"]]


def test_the_ruleset_declares_its_name_players_and_every_option_of_section_7() -> None:
    assert (R.name, R.title, R.min_players, R.max_players) == ("corte", "Corte", 2, 10)
    keys = {o.key for o in R.options}
    assert keys == {"replaced_card_power", "initial_upcard", "direction", "late_snap", "failed_snap_reveal",
                    "penalty_card_visible_to_owner", "zero_card_rival_snap", "powers_optional",
                    "min_own_turns_before_call", "lock_caller", "failed_call_penalty", "target_score",
                    "common.decks", "common.stock_exhausted", "common.tiebreak", "common.memory",
                    "common.round_turn_limit"}
    with pytest.raises(InvalidOptions):
        R.resolve_options({"corte.late_snap": "reject"}, 4)
    with pytest.raises(InvalidOptions):
        R.resolve_options({"late_snap": "maybe"}, 4)
    with pytest.raises(InvalidOptions):
        R.resolve_options({}, 11)


@pytest.mark.parametrize("players, cards", [(2, 52), (6, 52), (7, 104), (10, 104)])
def test_auto_decks_use_one_pack_up_to_six_players_and_two_for_seven_to_ten(players: int, cards: int) -> None:
    s = None
    for e in R.start(players, {}, b"k"):
        s = R.evolve(s, e)
    assert len(R.full_pack(s)) == cards
    assert sorted(R.cards_in_play(s)) == sorted(R.full_pack(s))
    assert all(lay.slots == ("A", "B", "C", "D") and None not in lay.cards for lay in s.layouts)


def test_the_deal_is_recorded_committed_and_hidden_from_every_seat() -> None:
    evs = R.start(3, {}, b"k")
    assert names(list(evs)) == ["GameStarted", "RoundDealt"]
    for seat in (None, 0, 1, 2):
        d = R.redact(evs[1], seat)
        assert d["order"] is None and d["salt"] is None and d["commitment"]
    assert R.start(3, {}, b"k") == evs  # the key alone decides the deal


def test_a_drawn_card_is_shown_only_to_the_drawer_and_a_replaced_card_goes_face_up() -> None:
    s = game(TWO, stock_top=["9D"])
    s, ev = act(s, 0, {"type": "Draw", "source": "stock"})
    drawn = of(ev, "CardDrawn")
    assert R.redact(drawn, 0)["card"] == "9D" and R.redact(drawn, 1)["card"] is None
    assert R.view(s, 0)["held"]["card"] == "9D" and R.view(s, 1)["held"]["card"] is None
    s, ev = act(s, 0, {"type": "Replace", "slot": "B"})
    disc = of(ev, "CardDiscarded")
    assert disc.card == "2S" and R.redact(disc, 1)["placed"] is None and R.redact(disc, 0)["placed"] == "9D"
    assert grid(s, 0)["B"] == "9D" and s.pile[-1] == "2S" and s.window.card == "2S"


def test_turn_commands_are_refused_out_of_turn_and_out_of_step() -> None:
    s = game(TWO)
    with pytest.raises(NotYourTurn):
        act(s, 1, {"type": "Draw", "source": "stock"})
    with pytest.raises(WrongPhase):
        act(s, 0, {"type": "DiscardDrawn"})
    with pytest.raises(InvalidCommand):
        R.parse_command({"type": "Draw", "source": "discard"})  # never from the pile
    with pytest.raises(RuleError) as err:
        act(s, 0, {"type": "TurnTimedOut", "seat": 0, "turn_no": 1})
    assert err.value.status == 403


def test_each_power_shows_or_moves_what_the_rules_say() -> None:
    s = game(THREE, stock_top=["5D", "6D", "QD", "KD"])
    s, _ = turn(s, 0)
    s, ev = act(s, 0, {"type": "PeekOwn", "slot": "A"})
    assert R.redact(of(ev, "CardsPeeked"), 0)["cards"] == ["AS"]
    s, _ = turn(s, 1)
    s, ev = act(s, 1, {"type": "PeekRival", "player": 2, "slot": "B"})
    assert R.redact(of(ev, "CardsPeeked"), 1)["cards"] == ["2D"]
    assert R.redact(of(ev, "CardsPeeked"), 2)["cards"] == [None]
    s, _ = turn(s, 2)
    s, ev = act(s, 2, {"type": "BlindSwap", "own_slot": "A", "rival": 0, "rival_slot": "B"})
    assert grid(s, 2)["A"] == "2S" and grid(s, 0)["B"] == "AD"
    s, _ = turn(s, 0)
    s, ev = act(s, 0, {"type": "KingLook", "own_slot": "C", "rival": 1, "rival_slot": "A"})
    assert R.redact(of(ev, "CardsPeeked"), 0)["cards"] == ["3S", "AH"] and s.window is None
    s, ev = act(s, 0, {"type": "KingSwap"})
    assert grid(s, 0)["C"] == "AH" and grid(s, 1)["A"] == "3S" and s.window.card == "KD"
    # knowledge follows the public swap: seat 0 knows its new C
    assert R.view(s, 0)["players"][0]["cards"][2]["card"] == "AH"


def test_a_power_with_no_target_fizzles_and_the_turn_goes_on() -> None:
    s = game(TWO, stock_top=["5D"])
    s = s._replace(layouts=(s.layouts[0].put("A", None).put("B", None).put("C", None).put("D", None),
                            s.layouts[1]), pile=("AS", "2S", "3S", "4S"))
    s, ev = turn(s, 0)
    assert of(ev, "PowerSkipped").reason == "no_target" and s.turn == 1


def test_a_seat_that_cannot_draw_or_call_is_skipped_at_once() -> None:
    s = game(THREE)
    lay = s.layouts[0]
    for card in s.stock[1:]:
        lay = lay.add(card)[0]
    s = s._replace(layouts=(lay,) + s.layouts[1:], stock=s.stock[:1], pile=())
    s, _ = act(s, 0, {"type": "CallCorte"})
    assert "SkipTurn" not in {a["type"] for a in R.legal_actions(s, 1)}
    s, ev = turn(s, 1)  # the last card; the pile then holds only its top: nothing to reshuffle
    skipped = of(ev, "TurnSkipped")
    assert (skipped.seat, skipped.reason) == (2, "no_card")
    assert s.phase == "FINAL_WINDOW"  # the turn returned to the caller


# ---------------------------------------------------------------- system commands


def test_an_initial_peek_timeout_peeks_c_and_d() -> None:
    s = game(TWO, peeks=False)
    s, ev = act(s, None, {"type": "TurnTimedOut", "seat": 1, "turn_no": 0})
    assert names(ev) == ["TimeoutApplied", "PeekChosen"]
    peek = of(ev, "PeekChosen")
    assert peek.slots == ("C", "D") and peek.timed_out
    with pytest.raises(WrongPhase):
        act(s, None, {"type": "TurnTimedOut", "seat": 1, "turn_no": 0})


def test_a_turn_timeout_draws_and_discards_with_no_power() -> None:
    s = game(TWO, stock_top=["QD"])
    s, ev = act(s, None, {"type": "TurnTimedOut", "seat": 0, "turn_no": 1})
    assert of(ev, "CardDiscarded").power is None and s.turn == 1 and s.window.card == "QD"
    assert not any(type(e).__name__ in ("CallMade", "ClaimResolved") for e in ev)
    with pytest.raises(WrongPhase):  # stale: that turn is over
        act(s, None, {"type": "TurnTimedOut", "seat": 0, "turn_no": 1})


def test_a_timeout_while_holding_discards_without_power_and_in_a_power_skips_it() -> None:
    s = game(TWO, stock_top=["KD", "5D"])
    s, _ = act(s, 0, {"type": "Draw", "source": "stock"})
    s, ev = act(s, None, {"type": "TurnTimedOut", "seat": 0, "turn_no": 1})
    assert of(ev, "CardDiscarded").power is None and s.turn == 1
    s, _ = turn(s, 1)
    assert s.step == "POWER"
    s, ev = act(s, None, {"type": "TurnTimedOut", "seat": 1, "turn_no": 2})
    assert of(ev, "PowerSkipped").reason == "timeout" and s.turn == 0


def test_a_timeout_in_king_decide_keeps() -> None:
    s = game(TWO, stock_top=["KD"])
    s, _ = turn(s, 0)
    s, _ = act(s, 0, {"type": "KingLook", "own_slot": "A", "rival": 1, "rival_slot": "A"})
    s, ev = act(s, None, {"type": "TurnTimedOut", "seat": 0, "turn_no": 1})
    assert "KingKept" in names(ev) and grid(s, 0)["A"] == "AS"


def test_the_final_window_ends_when_it_expires_or_every_eligible_seat_passed() -> None:
    s = game(THREE, stock_top=["8D", "9D"])
    s, _ = act(s, 0, {"type": "CallCorte"})
    s, _ = turn(s, 1)
    s, ev = turn(s, 2)
    f = of(ev, "FinalWindowStarted")
    assert f.eligible == (0, 1, 2) and set(R.awaiting(s)) == {0, 1, 2}  # no caller lock by default
    s, ev = act(s, 0, {"type": "Pass", "window_id": f.window_id})
    s1, ev = act(s, 1, {"type": "Pass", "window_id": f.window_id})
    assert R.awaiting(s1) == (2,) and names(ev) == ["Passed"]
    with pytest.raises(StaleWindow):  # a pass is final
        act(s1, 1, {"type": "SnapOwn", "window_id": f.window_id, "slot": "A", "penalty_to": "new"})
    s2, ev = act(s1, 2, {"type": "Pass", "window_id": f.window_id})
    assert of(ev, "FinalWindowEnded").reason == "all_passed" and s2.round == 2
    s3, ev = act(s1, None, {"type": "FinalWindowExpired", "window_id": f.window_id})
    assert of(ev, "FinalWindowEnded").reason == "expired" and s3.round == 2
    with pytest.raises(WrongPhase):
        act(s3, None, {"type": "FinalWindowExpired", "window_id": f.window_id})


def test_a_wrong_claim_on_the_final_window_does_not_end_it() -> None:
    s = game(THREE, stock_top=["8D", "9D"])
    s, _ = act(s, 0, {"type": "CallCorte"})
    s, _ = turn(s, 1)
    s, _ = turn(s, 2)
    s, ev = act(s, 1, {"type": "SnapOwn", "window_id": s.window.id, "slot": "A", "penalty_to": "new"})
    assert of(ev, "ClaimResolved").outcome == "wrong" and s.phase == "FINAL_WINDOW"


# ---------------------------------------------------------------- common options


def test_round_turn_limit_ends_the_round_when_its_nth_turn_has_ended() -> None:
    s = game(THREE, options={"common.round_turn_limit": 2})
    s, _ = turn(s, 0)
    s, ev = turn(s, 1)
    scored = of(ev, "RoundScored")
    assert scored.reason == "turn_limit" and s.round == 2


def test_round_turn_limit_still_judges_a_caller() -> None:
    s = game(TWO, options={"common.round_turn_limit": 1})
    s, ev = act(s, 0, {"type": "CallCorte"})
    scored = of(ev, "RoundScored")
    assert scored.caller == 0 and scored.call_outcome == "failed"  # 10 vs 10: a tie


def test_memory_notebook_reshows_seen_cards_and_strict_shows_none() -> None:
    s = game(TWO)
    assert [x["card"] for x in R.view(s, 0)["players"][0]["cards"]] == [None, None, "3S", "4S"]
    assert [x["card"] for x in R.view(s, 1)["players"][0]["cards"]] == [None] * 4
    assert [x["card"] for x in R.view(s, None)["players"][0]["cards"]] == [None] * 4
    s = game(TWO, options={"common.memory": "strict"})
    assert [x["card"] for x in R.view(s, 0)["players"][0]["cards"]] == [None] * 4


@pytest.mark.parametrize("tiebreak, last, expected", [
    ("shared", (5, 9), (0, 1)),
    ("fewest_points_last_round", (5, 9), (0,)),
    ("fewest_points_last_round", (7, 7), (0, 1)),
    ("play_another_round", (5, 9), None),
])
def test_common_tiebreak_decides_a_tie_for_the_lowest_cumulative_score(tiebreak, last, expected) -> None:
    assert winners((60, 60, 120), last + (40,), tiebreak) == expected
    assert winners((50, 60, 120), last + (40,), tiebreak) == (0,)


def test_play_another_round_deals_again_on_a_tie() -> None:
    s = game([["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"], ["QD", "KD", "QC", "KC"]], scores=[5, 5, 30],
             options={"common.tiebreak": "play_another_round", "common.round_turn_limit": 1})
    s, ev = turn(s, 0)
    assert s.scores == (15, 15, 110) and names(ev)[-1] == "RoundDealt"


def test_every_event_and_command_survives_a_json_round_trip() -> None:
    import json

    from domain.codec import build, to_json, typed
    from domain.simulation import play

    result = play(R, 3, {"target_score": 30, "initial_upcard": True}, 5, "random", max_steps=600)
    for e in result.events:
        data = json.loads(json.dumps(typed(e)))
        name = data.pop("type")
        assert build(R.event_types[name], data) == e, name
        for seat in (None, 0, 1, 2):
            json.dumps(R.redact(e, seat))
    state = None
    for e in result.events[:200]:
        state = R.evolve(state, e)
        for seat in range(3):
            json.dumps(R.view(state, seat))
            for action in R.legal_actions(state, seat):
                command = R.parse_command(json.loads(json.dumps(action)))
                assert R.parse_command(to_json(typed(command))) == command


def test_a_claim_by_the_active_player_while_holding_never_moves_the_turn() -> None:
    s = game(THREE, stock_top=["7S", "9S"])
    s, _ = turn(s, 0)  # a window on the 7
    s, _ = act(s, 1, {"type": "Draw", "source": "stock"})
    s, ev = act(s, 1, {"type": "SnapRival", "window_id": s.window.id, "rival": 2, "rival_slot": "A",
                       "give_slot": "B", "penalty_to": "new"})  # wrong: AD
    assert of(ev, "ClaimResolved").outcome == "wrong"
    assert (s.turn, s.step, s.held) == (1, "HOLDING", "9S")
    assert grid(s, 1)["E1"] is not None and grid(s, 1)["B"] == "2H"  # no gift on a wrong snap
    s, _ = act(s, 1, {"type": "Replace", "slot": "E1"})  # the penalty card may be replaced like any card
    assert grid(s, 1)["E1"] == "9S" and s.turn == 2


def test_the_view_has_the_common_shape() -> None:
    s = game(THREE, stock_top=["7S"])
    s, _ = turn(s, 0)
    v = R.view(s, 1)
    assert {"ruleset", "seat", "round", "phase", "turn", "dealer", "scores", "players", "stock_count",
            "discard_top", "window", "call"} <= set(v)
    assert v["window"] == {"id": s.window.id, "card": "7S", "won": False, "won_by": None, "final": False,
                           "passed": []}
    assert v["players"][0]["cards"][0] == {"slot": "A", "card": None, "empty": False}
    assert R.summary(s) == {"round": 1, "phase": "turns", "turn": 1, "dealer": 2, "scores": [0, 0, 0], "turn_no": 2}
