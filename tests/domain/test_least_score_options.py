"""Least Score: one test per decision of the ambiguity table (RULES §4.9, L1–L18), each
showing the default and the effect of its option, plus the common options of §7.1."""
from __future__ import annotations

from collections import Counter

import pytest

from domain.errors import InvalidOptions, NotYourTurn
from tests.domain.test_least_score_support import (
    R, game, lap, of_type, play, refused, send, total,
)

OTHER = ["3C", "4C", "6C", "8C", "10C"]
UP = "JC"


def accepted(hand: list[str], discard: list[str], **options: object) -> bool:
    state = game([hand, OTHER], upcard=UP, options=dict(options))
    try:
        send(state, 0, play(discard))
    except Exception as exc:  # noqa: BLE001 - the status is what matters
        assert getattr(exc, "status", None) == 422, exc
        return False
    return True


def offered(hand: list[str], discard: list[str], **options: object) -> bool:
    state = game([hand, OTHER], upcard=UP, options=dict(options))
    sets = {tuple(sorted(a["discard"])) for a in R.legal_actions(state, 0) if a["type"] == "Play"}
    return tuple(sorted(discard)) in sets


def test_l1_no_jokers_by_default_two_per_pack_worth_0_wild_only_in_runs() -> None:
    assert "JK" not in R.full_pack(game([["AS"], ["AH"]]))
    two = game([["AS"], ["AH"]], options={"jokers": 2, "common.decks": 2})
    assert Counter(R.full_pack(two))["JK"] == 4 and len(R.full_pack(two)) == 108
    hand = ["JK", "JK", "5S", "7H", "5H"]
    opts = {"jokers": 2}
    assert accepted(hand, ["JK"], **opts) and accepted(hand, ["JK", "JK"], **opts)
    assert accepted(hand, ["5S", "JK", "7H"], **opts)            # joker as the 6
    assert not accepted(hand, ["5S", "5H", "JK"], **opts)        # no three of a kind with a joker
    assert not accepted(hand, ["5S", "JK"], **opts)              # no natural + joker pair
    assert not accepted(["JK", "JK", "5S", "5H", "5D"], ["5S", "5H", "5D", "JK"], **opts)  # not a four
    assert not accepted(["JK", "2H", "5H", "9H", "KH"], ["JK", "2H", "5H", "9H", "KH"], **opts)  # not a flush
    hand_total = game([["JK", "AS"], ["AH"]], options=opts)
    assert R.view(hand_total, 0)["extension"]["hand_total"] == 1
    assert not accepted(["JK", "JK", "JK", "2S", "3S"], ["JK", "JK", "JK"], jokers=2, **{"common.decks": 2})


def test_l2_a_turn_is_one_atomic_command_discard_then_take() -> None:
    state = game([["9S", "KH"], ["2C", "3C"]], upcard="QD")
    # the open card cannot be discarded in the same turn: it is not yet in the hand
    assert refused(state, 0, play(["QD"], "open:QD")).status == 422
    events, state = send(state, 0, play(["KH"], "open:QD"))
    assert [type(e).__name__ for e in events] == ["SetPlayed"]
    assert state.open_set == ("KH",) and state.hands[0] == ("9S", "QD")


def test_l3_four_of_a_kind_yes_mixed_two_pairs_only_with_the_option() -> None:
    assert accepted(["KS", "KH", "KD", "KC", "2S"], ["KS", "KH", "KD", "KC"])
    hand = ["5S", "5H", "9D", "9C", "2S"]
    assert not accepted(hand, ["5S", "5H", "9D", "9C"]) and not offered(hand, ["5S", "5H", "9D", "9C"])
    assert accepted(hand, ["5S", "5H", "9D", "9C"], mixed_two_pairs=True)
    assert offered(hand, ["5S", "5H", "9D", "9C"], mixed_two_pairs=True)


def test_l4_runs_ignore_suit_unless_run_same_suit() -> None:
    hand = ["2S", "3H", "4D", "5S", "6S"]
    assert accepted(hand, ["2S", "3H", "4D"])
    assert not accepted(hand, ["2S", "3H", "4D"], run_same_suit=True)
    assert accepted(["4S", "5S", "6S", "2H", "9D"], ["4S", "5S", "6S"], run_same_suit=True)


def test_l5_runs_are_exactly_3_or_5() -> None:
    hand = ["6S", "7H", "8D", "9C", "10S"]
    assert accepted(hand, ["6S", "7H", "8D"]) and accepted(hand, ["6S", "7H", "8D", "9C", "10S"])
    assert not accepted(hand, ["6S", "7H", "8D", "9C"]) and not offered(hand, ["6S", "7H", "8D", "9C"])


def test_l6_the_ace_is_low_or_high_but_never_wraps() -> None:
    assert accepted(["AS", "2H", "3D", "9C", "9S"], ["AS", "2H", "3D"])
    assert accepted(["QS", "KH", "AD", "9C", "9S"], ["QS", "KH", "AD"])
    assert accepted(["10S", "JH", "QD", "KC", "AS"], ["10S", "JH", "QD", "KC", "AS"])
    assert not accepted(["KS", "AH", "2D", "9C", "9S"], ["KS", "AH", "2D"])


def test_l7_a_flush_is_exactly_5_cards_of_one_suit_never_three_of_a_kind() -> None:
    assert accepted(["2H", "5H", "9H", "JH", "KH"], ["2H", "5H", "9H", "JH", "KH"])
    assert not accepted(["2H", "5H", "9H", "JH", "KS"], ["2H", "5H", "9H", "JH"])
    assert not accepted(["2H", "5H", "9H", "JS", "KS"], ["2H", "5H", "9H"])
    assert not accepted(["5S", "5H", "5D", "JS", "KS"], ["5S", "5H", "5D"])


def test_l8_any_open_card_by_default_only_a_runs_ends_with_the_option() -> None:
    for any_card in (True, False):
        state = game([["7S", "8H", "9D", "KS", "KH"], ["2C", "3C", "4C", "6C", "2H"]],
                     options={"pickup_any_open_card": any_card})
        _, state = send(state, 0, play(["9D", "7S", "8H"]))
        assert state.open_set == ("7S", "8H", "9D")
        takes = {a["take"] for a in R.legal_actions(state, 1) if a["type"] == "Play"}
        if any_card:
            assert takes == {"stock", "open:7S", "open:8H", "open:9D"}
            send(state, 1, play(["2C"], "open:8H"))
        else:
            assert takes == {"stock", "open:7S", "open:9D"}
            assert refused(state, 1, play(["2C"], "open:8H")).status == 422
            send(state, 1, play(["2C"], "open:9D"))
        # from a pair, either card, under both options
        _, pair = send(state, 1, play(["2C", "2H"]))
        assert {a.get("take") for a in R.legal_actions(pair, 0)} >= {"open:2C", "open:2H"}


def test_l9_the_first_player_may_take_the_up_card_unless_initial_upcard_is_false() -> None:
    state = game([["9S", "KH"], ["2C", "3C"]], upcard="QD")
    assert {a["take"] for a in R.legal_actions(state, 0)} == {"stock", "open:QD"}
    no_up = game([["9S", "KH"], ["2C", "3C"]], upcard=None, options={"initial_upcard": False})
    assert no_up.open_set == ()
    assert {a["take"] for a in R.legal_actions(no_up, 0)} == {"stock"}
    assert refused(no_up, 0, play(["KH"], "open:QD")).status == 422
    events = R.start(3, {"initial_upcard": False}, b"k")
    assert events[1].upcard is None and len(events[1].stock) == 52 - 15


def test_l10_declare_only_after_a_completed_own_turn_unless_the_option_is_off() -> None:
    hands = [["AS", "2S"], ["AH", "2H"]]
    state = game(hands, upcard="AD")
    assert {"type": "Declare"} not in R.legal_actions(state, 0)
    assert refused(state, 0, {"type": "Declare"}).status == 422
    state = lap(state, ["2S", "2H"])
    assert {"type": "Declare"} in R.legal_actions(state, 0)
    send(state, 0, {"type": "Declare"})
    free = game(hands, upcard="AD", options={"no_declare_first_lap": False})
    assert {"type": "Declare"} in R.legal_actions(free, 0)
    events, _ = send(free, 0, {"type": "Declare"})
    assert of_type(events, "RoundScored")[0].declarer == 0


def test_l11_a_declaration_replaces_a_play_never_follows_one() -> None:
    state = lap(game([["AS", "2S"], ["AH", "2H"]], upcard="AD"), ["2S", "2H"])
    _, after = send(state, 0, play(["AS"]))
    assert isinstance(refused(after, 0, {"type": "Declare"}), NotYourTurn)
    events, _ = send(state, 0, {"type": "Declare"})
    assert not of_type(events, "SetPlayed")


def test_l12_no_maximum_total_for_declaring_by_default_else_a_cap_checked_with_422() -> None:
    hands = [["KS", "KH", "QS"], ["AH", "2H", "3D"]]
    state = lap(game(hands, upcard="KD"), ["KS", "AH"])      # 0: KH QS KD = 30, 1: 2H 3D KS = 15
    events, _ = send(state, 0, {"type": "Declare"})          # a hopeless declaration, still accepted
    assert of_type(events, "RoundScored")[0].round_scores == (35, 0)
    capped = lap(game(hands, upcard="KD", options={"max_declare_total": 7}), ["KS", "AH"])
    assert {"type": "Declare"} not in R.legal_actions(capped, 0)
    assert refused(capped, 0, {"type": "Declare"}).status == 422
    for hand, ok in ((["AS", "5S", "9C"], True), (["AS", "6S", "9C"], False)):
        state = lap(game([hand, ["AH", "9H"]], upcard="AD", options={"max_declare_total": 7}), ["9C", "9H"])
        assert total(state.hands[0]) == (7 if ok else 8)
        assert ({"type": "Declare"} in R.legal_actions(state, 0)) is ok
        if ok:
            send(state, 0, {"type": "Declare"})
        else:
            assert refused(state, 0, {"type": "Declare"}).status == 422


def test_l13_a_tie_is_false_by_default_and_a_success_with_the_option() -> None:
    hands = [["4S", "AS", "AH", "AD", "AC"], ["4H", "AS", "AH", "AD", "AC"], ["4C", "KS", "KH"]]
    for tie_false, expected in ((True, (20, 0, 0)), (False, (0, 0, 16))):
        state = game(hands, upcard="4D", options={"common.decks": 2, "declare_tie_is_false": tie_false})
        state = lap(state, ["4S", "4H", "4C"])
        assert [total(h) for h in state.hands] == [8, 8, 24]
        events, _ = send(state, 0, {"type": "Declare"})
        scored = of_type(events, "RoundScored")[0]
        assert scored.round_scores == expected
        assert scored.options_applied["declare_tie_is_false"] is tie_false


def _round_to(cumulative: list[int], round_scores_hands: list[list[str]], **options: object) -> tuple:
    """Seat 0 declares falsely with a 20-point penalty plus (D - m) after one lap."""
    state = game(round_scores_hands, upcard="AD", cumulative=cumulative, options=dict(options))
    state = lap(state, [h[0] for h in round_scores_hands])
    return send(state, 0, {"type": "Declare"})


def test_l14_l15_the_threshold_and_exceed_or_reach() -> None:
    # seat 0 holds 2 and seat 1 holds 2: a tie, so seat 0 scores exactly 20.
    hands = [["AS", "2S"], ["AH", "2H"]]
    events, _ = _round_to([80, 0], hands)
    assert of_type(events, "RoundScored")[0].cumulative == (100, 0)
    assert not of_type(events, "PlayerEliminated")                     # 100 does not exceed 100
    events, _ = _round_to([80, 0], hands, eliminate_at="reach")
    assert [e.seat for e in of_type(events, "PlayerEliminated")] == [0]  # 100 reaches 100
    events, _ = _round_to([6, 0], hands, elimination_threshold=25)
    assert [e.seat for e in of_type(events, "PlayerEliminated")] == [0]  # 26 > 25
    events, _ = _round_to([31, 0], hands, elimination_threshold=50)
    assert of_type(events, "PlayerEliminated")[0].threshold == 50
    with pytest.raises(InvalidOptions):
        R.resolve_options({"elimination_threshold": 75}, 3)


def test_l16_play_goes_on_without_the_eliminated_unless_end_on_first_elimination() -> None:
    hands = [["AS", "2S"], ["AH", "2H"], ["AC", "KS", "KH"]]
    events, state = _round_to([90, 10, 30], hands)
    assert [e.seat for e in of_type(events, "PlayerEliminated")] == [0]
    assert of_type(events, "RoundDealt")[0].seated == (1, 2)
    assert state.hands[0] == () and state.turn in (1, 2)
    events, state = _round_to([90, 10, 30], hands, end_on_first_elimination=True)
    ended = of_type(events, "GameEnded")[0]
    assert ended.winners == (1,) and R.is_terminal(state)


def test_l17_the_deal_rotates_by_default_or_the_round_winner_starts() -> None:
    hands = [["AS", "2S"], ["AH", "KH"], ["AC", "KS", "KD"]]
    state = lap(game(hands, upcard="AD", starter=0), ["2S", "KH", "KS"])   # totals 2, 3, 21
    events, _ = send(state, 0, {"type": "Declare"})
    dealt = of_type(events, "RoundDealt")[0]
    assert (dealt.dealer, dealt.starter) == (0, 1)             # dealer 2 -> 0, and 1 starts
    winner_starts = {"round_starter": "previous_round_winner"}
    # the successful declarer starts, and the dealer is the seat before them
    state = lap(game([["AS", "2S"], ["KH", "QH"], ["QC", "QS", "KD"]], upcard="AD", starter=0,
                     options=winner_starts), ["2S", "KH", "QS"])          # totals 2, 12, 30
    events, _ = send(state, 0, {"type": "Declare"})
    assert of_type(events, "RoundScored")[0].outcome == "success"
    dealt = of_type(events, "RoundDealt")[0]
    assert (dealt.starter, dealt.dealer) == (0, 2)
    # after a false declaration, the lowest other total starts (ties: first after the declarer)
    state = lap(game([["KS", "2S"], ["AH", "2H"], ["AC", "3C"]], upcard="AD", starter=0,
                     options=winner_starts), ["2S", "2H", "3C"])          # totals 11, 3, 3
    assert [total(h) for h in state.hands] == [11, 3, 3]
    events, _ = send(state, 0, {"type": "Declare"})
    assert of_type(events, "RoundScored")[0].outcome == "false"
    dealt = of_type(events, "RoundDealt")[0]
    assert (dealt.starter, dealt.dealer) == (1, 0)


def test_l18_one_pack_up_to_6_players_two_from_7_and_decks_can_be_forced() -> None:
    for players, size in ((2, 52), (6, 52), (7, 104), (10, 104)):
        events = R.start(players, {}, b"key")
        state = None
        for e in events:
            state = R.evolve(state, e)
        assert len(R.full_pack(state)) == size
        assert sorted(R.cards_in_play(state)) == sorted(R.full_pack(state))
        assert all(len(h) == 5 for h in state.hands)
    events = R.start(3, {"common.decks": 2}, b"key")
    assert len(events[1].order) == 104
    with pytest.raises(InvalidOptions):
        R.resolve_options({}, 11)
    with pytest.raises(InvalidOptions):
        R.resolve_options({}, 1)


def test_common_stock_exhausted_end_round_is_rejected_and_unknown_keys_too() -> None:
    with pytest.raises(InvalidOptions) as info:
        R.resolve_options({"common.stock_exhausted": "end_round"}, 3)
    assert "common.stock_exhausted" in info.value.errors
    with pytest.raises(InvalidOptions):
        R.resolve_options({"least.jokers": 2}, 3)
    with pytest.raises(InvalidOptions):
        R.resolve_options({"jokers": True}, 3)
    assert R.resolve_options({}, 3)["max_declare_total"] is None
    assert {s.key for s in R.options} >= {
        "jokers", "mixed_two_pairs", "run_same_suit", "pickup_any_open_card", "initial_upcard",
        "no_declare_first_lap", "max_declare_total", "declare_tie_is_false", "elimination_threshold",
        "eliminate_at", "end_on_first_elimination", "round_starter", "common.decks", "common.tiebreak",
        "common.memory", "common.round_turn_limit", "common.stock_exhausted"}
