"""One test per RULES §3.10 decision (P1-P21): the default, and what each option changes."""
from __future__ import annotations

import pytest

from domain.choices import covers
from domain.errors import InvalidOptions
from domain.rules.pedro import RULESET as R, game_result, card_values, with_ as update
from tests.domain.test_pedro_fixtures import KEY, act, cards_of, of_type, one, refused, table

TWO = [["3C", "KS", "4H", "7D"], ["9S", "9H", "9D", "8C"]]
THREE = TWO + [["2S", "2H", "2D", "2C"]]


def values(**options: object) -> dict[str, int]:
    return card_values(R.resolve_options(options, 2))


def test_p1_default_pack_is_french_with_jokers_k_diamonds_zero_and_faces_11_12_13() -> None:
    v = values()
    assert (v["KD"], v["KS"], v["KH"], v["QD"], v["JC"], v["AS"], v["JK"], v["7H"]) == (0, 13, 13, 12, 11, 1, 1, 7)
    state, _ = table(TWO)
    assert len(R.full_pack(state)) == 54 and R.full_pack(state).count("JK") == 2


@pytest.mark.parametrize("zero_card,zeros,not_zero", [
    ("KD", {"KD"}, {"KH", "QD"}), ("red_kings", {"KD", "KH"}, {"KS", "QD"}), ("QD", {"QD"}, {"KD"}),
    ("all_diamonds", {"KD", "7D", "AD"}, {"KH", "7H"}), ("none", set(), {"KD"})])
def test_p1_zero_card_option_chooses_which_cards_are_worth_zero(zero_card: str, zeros: set[str],
                                                                 not_zero: set[str]) -> None:
    v = values(zero_card=zero_card)
    assert all(v[c] == 0 for c in zeros) and all(v[c] != 0 for c in not_zero)


def test_p1_face_values_10_prices_every_face_card_at_ten_except_the_zero_card() -> None:
    v = values(face_values="10")
    assert (v["JC"], v["QH"], v["KS"], v["KD"]) == (10, 10, 10, 0)


def test_p1_spanish50_profile_is_48_spanish_cards_and_two_comodines_with_12_de_oros_zero() -> None:
    v = values(deck_profile="spanish50", zero_card="QD", face_values="10")  # both ignored here
    assert (v["12O"], v["12C"], v["11E"], v["1B"], v["JK"]) == (0, 12, 11, 1, 1)
    state, _ = table([["1O", "2O", "3O", "4O"], ["5C", "6C", "7C", "8C"]], upcard="9E",
                     options={"deck_profile": "spanish50"})
    assert len(R.full_pack(state)) == 50


@pytest.mark.parametrize("matches,outcome", [(True, "correct"), (False, "wrong")])
def test_p2_the_zero_king_matches_other_kings_unless_the_option_says_otherwise(matches: bool, outcome: str) -> None:
    state, _ = table([["KD", "KS", "4H", "7D"], TWO[1]], stock=["2C"], options={"zero_card_matches_rank": matches})
    state, _ = act(state, 0, {"type": "Draw", "source": "stock"})
    _, events = act(state, 0, {"type": "Keep", "replace": "A", "also_discard": ["B"]})
    assert one(events, "ClaimResolved").outcome == outcome


@pytest.mark.parametrize("direction,step", [("right", -1), ("left", 1)])
def test_p3_play_and_the_deal_go_to_the_right_by_default(direction: str, step: int) -> None:
    events = R.start(4, R.resolve_options({"direction": direction}, 4), KEY)
    dealt = one(events, "RoundDealt")
    assert dealt.first_player == (dealt.dealer + step) % 4
    state = None
    for e in events:
        state = R.evolve(state, e)
    first = state.turn
    state, _ = act(state, first, {"type": "Draw", "source": "stock"})
    state, _ = act(state, first, {"type": "Keep", "replace": "A", "also_discard": []})
    assert state.turn == (first + step) % 4


def test_p4_by_default_c_and_d_are_shown_privately_to_each_seat_at_the_deal() -> None:
    events = R.start(3, R.resolve_options({}, 3), KEY)
    shown = of_type(events, "CardsShown")
    assert sorted(e.seat for e in shown) == [0, 1, 2]
    assert all([slot for _o, slot, _c in e.cards] == ["C", "D"] for e in shown)
    assert R.redact(shown[0], shown[0].seat)["cards"] and R.redact(shown[0], (shown[0].seat + 1) % 3) is None
    state, _ = table(TWO)
    assert refused(state, 1, {"type": "PeekBottom"}).status == 409


def test_p4_with_before_own_first_turn_peek_bottom_works_once_and_only_before_acting() -> None:
    events = R.start(3, R.resolve_options({"peek_timing": "before_own_first_turn"}, 3), KEY)
    assert not of_type(events, "CardsShown")
    state, _ = table(THREE, options={"peek_timing": "before_own_first_turn"})
    assert {"type": "PeekBottom"} in R.legal_actions(state, 1)
    state, events = act(state, 1, {"type": "PeekBottom"})
    assert one(events, "CardsShown").cards == ((1, "C", "9D"), (1, "D", "8C"))
    assert refused(state, 1, {"type": "PeekBottom"}).status == 409
    state, _ = act(state, 0, {"type": "Draw", "source": "stock"})
    assert refused(state, 0, {"type": "PeekBottom"}).status == 409
    assert {"type": "PeekBottom"} not in R.legal_actions(state, 0)


def test_p4_peek_bottom_is_refused_once_the_timeout_has_played_the_seats_first_turn() -> None:
    """RULES revision 4, §3.3: a turn played by the timeout's automatic action is a turn had."""
    state, _ = table(THREE, options={"peek_timing": "before_own_first_turn"})
    assert {"type": "PeekBottom"} in R.legal_actions(state, 0)
    state, events = act(state, None, {"type": "TurnTimedOut", "seat": 0, "turn_no": state.turn_no})
    assert one(events, "TimeoutApplied").seat == 0 and state.turn != 0
    assert refused(state, 0, {"type": "PeekBottom"}).status == 409
    assert {"type": "PeekBottom"} not in R.legal_actions(state, 0)
    # the seats that have not had a turn yet still may
    assert {"type": "PeekBottom"} in R.legal_actions(state, 2)
    _, events = act(state, 2, {"type": "PeekBottom"})
    assert one(events, "CardsShown").cards == ((2, "C", "2D"), (2, "D", "2C"))


@pytest.mark.parametrize("show", [True, False])
def test_p5_a_card_drawn_from_the_stock_is_shown_to_everyone_unless_show_drawn_card_is_false(show: bool) -> None:
    state, _ = table(TWO, stock=["5S"], options={"show_drawn_card": show})
    state, events = act(state, 0, {"type": "Draw", "source": "stock"})
    drawn = one(events, "CardDrawn")
    assert R.redact(drawn, 0)["card"] == "5S"
    assert R.redact(drawn, 1)["card"] == ("5S" if show else None)
    assert R.redact(drawn, None)["card"] == ("5S" if show else None)
    assert R.view(state, 1)["held"]["card"] == ("5S" if show else None)
    state, events = act(state, 0, {"type": "Keep", "replace": "B", "also_discard": []})
    assert R.redact(one(events, "CardKept"), 1)["card"] == ("5S" if show else None)
    assert R.view(state, 1)["players"][0]["cards"][1]["card"] == ("5S" if show else None)
    assert R.view(state, 0)["players"][0]["cards"][1]["card"] == "5S"


@pytest.mark.parametrize("allow", [True, False])
def test_p6_a_card_taken_from_the_pile_may_be_put_back_unless_the_option_forbids_it(allow: bool) -> None:
    state, _ = table(TWO, options={"allow_return_discard_draw": allow})
    state, _ = act(state, 0, {"type": "Draw", "source": "discard"})
    if allow:
        assert {"type": "Release"} in R.legal_actions(state, 0)
        state, events = act(state, 0, {"type": "Release"})
        assert one(events, "CardReleased").power is None and state.pile[-1] == "9C"
    else:
        assert {"type": "Release"} not in R.legal_actions(state, 0)
        assert refused(state, 0, {"type": "Release"}).status == 422


@pytest.mark.parametrize("optional", [False, True])
def test_p7_a_released_stock_power_must_be_used_unless_powers_are_optional(optional: bool) -> None:
    state, _ = table(TWO, stock=["5S"], options={"powers_optional": optional})
    state, _ = act(state, 0, {"type": "Draw", "source": "stock"})
    state, events = act(state, 0, {"type": "Release"})
    assert one(events, "CardReleased").power == 5 and state.step == "POWER_PROMPT"
    if optional:
        state, events = act(state, 0, {"type": "SkipPower"})
        assert one(events, "PowerSkipped").reason == "declined" and state.turn == 1
    else:
        assert {"type": "SkipPower"} not in R.legal_actions(state, 0)
        assert refused(state, 0, {"type": "SkipPower"}).status == 409


@pytest.mark.parametrize("any_two", [False, True])
def test_p8_a_five_swaps_own_with_another_players_card_or_with_the_option_any_two(any_two: bool) -> None:
    state, _ = table(THREE, stock=["5S"], options={"power5_any_two": any_two})
    state, _ = act(state, 0, {"type": "Draw", "source": "stock"})
    state, _ = act(state, 0, {"type": "Release"})
    rivals = {"type": "UsePower5", "a": [1, "A"], "b": [2, "B"]}
    if any_two:
        assert covers(R.legal_actions(state, 0), rivals)
        state, events = act(state, 0, rivals)
        assert cards_of(state, 1)["A"] == "2H" and cards_of(state, 2)["B"] == "9S"
    else:
        assert refused(state, 0, rivals).status == 422
        state, events = act(state, 0, {"type": "UsePower5", "own": "A", "other": [1, "D"]})
        assert cards_of(state, 0)["A"] == "8C" and cards_of(state, 1)["D"] == "3C"
        assert R.redact(one(events, "CardsSwapped"), 2) == {"type": "CardsSwapped", "seat": 0, "a": [0, "A"],
                                                             "b": [1, "D"]}


@pytest.mark.parametrize("sources", ["stock_only", "any"])
def test_p9_a_multi_discard_needs_a_stock_draw_unless_sources_is_any(sources: str) -> None:
    state, _ = table([["3C", "3S", "4H", "7D"], TWO[1]], upcard="2C", options={"multi_discard_sources": sources})
    state, _ = act(state, 0, {"type": "Draw", "source": "discard"})
    cmd = {"type": "Keep", "replace": "A", "also_discard": ["B"]}
    if sources == "any":
        assert covers(R.legal_actions(state, 0), cmd)
        _, events = act(state, 0, cmd)
        assert one(events, "ClaimResolved").outcome == "correct"
    else:
        assert not covers(R.legal_actions(state, 0), cmd)
        assert refused(state, 0, cmd).status == 422


@pytest.mark.parametrize("joker_groups,outcome", [("wild", "correct"), ("wild_needs_natural", "correct")])
def test_p10_a_joker_joins_any_group_of_naturals_under_both_options(joker_groups: str, outcome: str) -> None:
    state, _ = table([["JK", "7S", "4H", "7D"], TWO[1]], stock=["2C"], options={"joker_groups": joker_groups})
    state, _ = act(state, 0, {"type": "Draw", "source": "stock"})
    _, events = act(state, 0, {"type": "Keep", "replace": "A", "also_discard": ["B", "D"]})
    assert one(events, "ClaimResolved").outcome == outcome
    # (all-joker groups differ between the options: test_a25 in test_pedro_examples.py)


@pytest.mark.parametrize("reveal", ["public", "private", "none"])
def test_p11_a_wrong_group_is_kept_and_revealed_as_failed_group_reveal_says(reveal: str) -> None:
    state, _ = table(THREE, stock=["2C"][:0] + ["AC", "AH"], options={"failed_group_reveal": reveal})
    state, _ = act(state, 0, {"type": "Draw", "source": "stock"})
    state, events = act(state, 0, {"type": "Keep", "replace": "A", "also_discard": ["B"]})
    claim = one(events, "ClaimResolved")
    assert claim.outcome == "wrong" and claim.new_slot == "E1" and cards_of(state, 0)["E1"] == "AC"
    seen = {seat: R.redact(claim, seat)["revealed"] for seat in (0, 1, None)}
    full, blank = [["A", "3C"], ["B", "KS"]], [["A", None], ["B", None]]
    assert seen == {"public": {0: full, 1: full, None: full}, "private": {0: full, 1: blank, None: blank},
                    "none": {0: blank, 1: blank, None: blank}}[reveal]
    assert R.view(state, 1)["players"][0]["cards"][0]["card"] == ("3C" if reveal == "public" else None)
    assert R.view(state, 0)["players"][0]["cards"][0]["card"] == (None if reveal == "none" else "3C")


def test_p11_every_further_wrong_group_adds_the_next_new_slot() -> None:
    state, _ = table([["3C", "KS", "4H", "7D"], ["9S", "9H", "9D", "8C"]], stock=["AC", "AH", "AD"])
    state, _ = act(state, 0, {"type": "Draw", "source": "stock"})
    state, _ = act(state, 0, {"type": "Keep", "replace": "A", "also_discard": ["B"]})
    state, _ = act(state, 1, {"type": "Draw", "source": "stock"})
    state, _ = act(state, 1, {"type": "Release"})
    state, _ = act(state, 0, {"type": "Draw", "source": "stock"})
    state, events = act(state, 0, {"type": "Keep", "replace": "C", "also_discard": ["D"]})
    assert one(events, "ClaimResolved").new_slot == "E2" and cards_of(state, 0)["E2"] == "AD"


def test_p12_the_drawn_card_is_never_part_of_the_group() -> None:
    state, _ = table([["3C", "KS", "4H", "7D"], TWO[1]], stock=["3H"])
    state, _ = act(state, 0, {"type": "Draw", "source": "stock"})
    assert refused(state, 0, {"type": "Keep", "replace": "A", "also_discard": ["A"]}).status == 422
    _, events = act(state, 0, {"type": "Keep", "replace": "A", "also_discard": ["B"]})
    assert one(events, "ClaimResolved").outcome == "wrong"  # a drawn 3 does not make 3C + KS identical


@pytest.mark.parametrize("minimum", [0, 1])
def test_p13_a_call_is_allowed_on_the_first_turn_unless_a_minimum_is_set(minimum: int) -> None:
    state, _ = table(TWO, options={"min_own_turns_before_call": minimum})
    if minimum == 0:
        assert {"type": "CallPedro"} in R.legal_actions(state, 0)
        return
    assert {"type": "CallPedro"} not in R.legal_actions(state, 0)
    assert refused(state, 0, {"type": "CallPedro"}).status == 409
    for seat in (0, 1):
        state, _ = act(state, seat, {"type": "Draw", "source": "stock"})
        state, _ = act(state, seat, {"type": "Release"})
    _, events = act(state, 0, {"type": "CallPedro"})
    assert one(events, "CallMade").seat == 0


def test_p14_by_default_a_call_ends_the_round_at_once() -> None:
    state, _ = table(THREE)
    _, events = act(state, 0, {"type": "CallPedro"})
    assert [type(e).__name__ for e in events][:4] == ["CallMade", "RoundRevealed", "CallJudged", "RoundScored"]


def test_p14_with_final_lap_after_call_every_other_player_plays_once_and_a_five_cannot_touch_the_caller() -> None:
    state, _ = table(THREE, stock=["5S", "7C"], options={"final_lap_after_call": True})
    state, events = act(state, 0, {"type": "CallPedro"})
    assert not of_type(events, "RoundRevealed") and state.turn == 2  # to the right: 0 -> 2 -> 1
    state, _ = act(state, 2, {"type": "Draw", "source": "stock"})
    state, _ = act(state, 2, {"type": "Release"})
    assert all(a["other"][0] != 0 for a in R.legal_actions(state, 2))
    assert refused(state, 2, {"type": "UsePower5", "own": "A", "other": [0, "A"]}).code == "locked"
    state, _ = act(state, 2, {"type": "UsePower5", "own": "A", "other": [1, "A"]})
    assert refused(state, 1, {"type": "CallPedro"}).status == 409
    state, _ = act(state, 1, {"type": "Draw", "source": "stock"})
    _, events = act(state, 1, {"type": "Release"})
    assert one(events, "RoundRevealed").reason == "call" and one(events, "CallJudged").caller == 0


def test_p15_a_tie_loses_for_the_caller() -> None:
    state, _ = table([["2S", "2H", "2D", "AS"], ["AH", "AD", "AC", "4S"]])  # 7 and 7
    _, events = act(state, 0, {"type": "CallPedro"})
    assert one(events, "RoundScored").caller_won is False


@pytest.mark.parametrize("peekable", [False, True])
def test_p16_the_penalty_card_is_unpeeked_unless_penalty_card_peekable(peekable: bool) -> None:
    state, _ = table([["2S", "2H", "2D", "AS"], ["AH", "AD", "AC", "4S"]], options={"penalty_card_peekable": peekable})
    state, events = act(state, 0, {"type": "CallPedro"})
    mine = [e for e in of_type(events, "CardsShown") if e.seat == 0][0]
    assert [slot for _o, slot, _c in mine.cards] == (["C", "D", "E1"] if peekable else ["C", "D"])
    assert cards_of(state, 0)["E1"] is not None


def test_p16_the_penalty_card_is_an_ordinary_card_and_lasts_only_one_round() -> None:
    state, _ = table([["2S", "2H", "2D", "AS", "KS"], ["AH", "AD", "AC", "4S"]], penalty_seat=0)
    assert state.layouts[0].slots[-1] == "E1"
    state, _ = act(state, 0, {"type": "Draw", "source": "stock"})
    state, _ = act(state, 0, {"type": "Keep", "replace": "E1", "also_discard": []})  # replaced like any card
    state, _ = act(state, 1, {"type": "CallPedro"})  # seat 1 has 7, seat 0 more: seat 1 wins
    assert len(state.layouts[0].slots) == 4 and len(state.layouts[1].slots) == 4


def _after(state, **changes):  # type: ignore[no-untyped-def]
    return update(state, **changes)


@pytest.mark.parametrize("mode,changes,ends", [
    ("points", {"scores": (99, 40)}, False), ("points", {"scores": (100, 40)}, True),
    ("rounds", {"round": 4}, False), ("rounds", {"round": 5}, True),
    ("round_wins", {"round_wins": (2, 1)}, False), ("round_wins", {"round_wins": (3, 1)}, True)])
def test_p17_match_modes_end_the_game_by_points_by_rounds_or_by_round_wins(mode: str, changes: dict,
                                                                           ends: bool) -> None:
    state, _ = table(TWO, options={"match_mode": mode})
    assert (game_result(_after(state, **changes)) is not None) is ends


def test_p17_round_wins_go_to_a_winning_caller_or_else_the_lowest_non_caller() -> None:
    state, _ = table([["2S", "2H", "2D", "AS"], ["AH", "AD", "AC", "4S"], ["KS", "QS", "JS", "10S"]],
                     options={"match_mode": "round_wins"})
    _, events = act(state, 0, {"type": "CallPedro"})  # 7 ties 7: lost; seat 1 wins the round
    assert one(events, "RoundScored").round_winners == (1,) and one(events, "RoundScored").round_wins == (0, 1, 0)


def test_p17_the_game_ends_when_someone_reaches_the_target_and_the_lowest_wins() -> None:
    state, _ = table([P for P in (["2S", "2H", "2D", "AS"], ["KS", "QS", "JS", "10S"])], options={"target_score": 40})
    state, events = act(state, 0, {"type": "CallPedro"})
    assert one(events, "GameEnded").winners == (0,) and R.is_terminal(state) and R.awaiting(state) == ()
    assert refused(state, 0, {"type": "Draw", "source": "stock"}).status == 409


@pytest.mark.parametrize("zero", [False, True])
def test_p18_a_winning_caller_scores_the_own_total_unless_caller_win_scores_zero(zero: bool) -> None:
    state, _ = table([["AS", "2S", "2H", "KD"], ["AH", "AD", "AC", "4S"]], options={"caller_win_scores_zero": zero})
    _, events = act(state, 0, {"type": "CallPedro"})
    assert one(events, "RoundScored").cumulative == ((0 if zero else 5), 7)


def _drain_stock(state):  # type: ignore[no-untyped-def]
    """Empty the stock into the pile (a public fact), keeping conservation."""
    return update(state, stock=(), pile=state.stock + state.pile)


def test_p19_an_empty_stock_is_refilled_from_the_pile_except_its_top() -> None:
    state, _ = table(TWO)
    state = _drain_stock(state)
    top = state.pile[-1]
    state, events = act(state, 0, {"type": "Draw", "source": "stock"})
    shuffled = one(events, "StockReshuffled")
    assert shuffled.shuffle_no == 1 and R.redact(shuffled, 0)["order"] is None and state.pile == (top,)
    assert sorted(R.cards_in_play(state)) == sorted(R.full_pack(state))


def test_p19_with_end_round_an_empty_stock_ends_the_round_with_no_caller_judged() -> None:
    state, _ = table(TWO, options={"common.stock_exhausted": "end_round"})
    state = _drain_stock(state)
    _, events = act(state, 0, {"type": "Draw", "source": "stock"})
    assert one(events, "RoundScored").reason == "stock_exhausted" and not of_type(events, "CallJudged")


@pytest.mark.parametrize("players,decks,size", [(6, "auto", 54), (7, "auto", 108), (3, 2, 108), (7, 2, 108)])
def test_p20_one_pack_up_to_six_players_and_two_for_seven_to_ten(players: int, decks: object, size: int) -> None:
    events = R.start(players, R.resolve_options({"common.decks": decks}, players), KEY)
    state = None
    for e in events:
        state = R.evolve(state, e)
    assert len(R.full_pack(state)) == size


def test_p20_one_pack_is_refused_for_seven_players_and_eleven_players_are_refused() -> None:
    with pytest.raises(InvalidOptions):
        R.resolve_options({"common.decks": 1}, 7)
    with pytest.raises(InvalidOptions):
        R.resolve_options({}, 11)


def test_p21_a_five_or_six_from_the_pile_or_out_of_the_grid_has_no_power() -> None:
    state, _ = table([["6C", "KS", "4H", "7D"], TWO[1]], upcard="5H", stock=["2S", "3S"])
    state, _ = act(state, 0, {"type": "Draw", "source": "discard"})
    state, events = act(state, 0, {"type": "Release"})
    assert one(events, "CardReleased").power is None and state.turn == 1
    state, _ = act(state, 1, {"type": "Draw", "source": "stock"})
    state, _ = act(state, 1, {"type": "Release"})
    state, _ = act(state, 0, {"type": "Draw", "source": "stock"})
    state, events = act(state, 0, {"type": "Keep", "replace": "A", "also_discard": []})  # the 6 leaves the grid
    assert one(events, "CardKept").discarded == "6C" and state.step == "AWAIT_ACTION" and state.turn == 1
