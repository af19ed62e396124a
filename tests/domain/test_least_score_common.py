"""Least Score: the common options (§7.1), stock exhaustion (§4.7), timeouts (§2.11),
the information model and the event vocabulary (Appendix B)."""
from __future__ import annotations

from dataclasses import replace

from domain import chance
from domain.errors import InvalidCommand, WrongPhase
from tests.domain.test_least_score_support import (
    KEY, R, game, lap, of_type, play, refused, send, total,
)

# --------------------------------------------------------------------------- common.tiebreak


def test_tiebreak_shared_fewest_points_last_round_and_play_another_round() -> None:
    # Seat 1 scores 21 and seat 2 scores 20: with cumulative 90 and 91 both end on 111.
    hands = [["KS", "KH", "KC"], ["KD", "QS", "AS"], ["QH", "QD"]]
    state = game(hands, upcard="AD", cumulative=[100, 90, 91], options={"common.round_turn_limit": 1})
    events, _ = send(state, 0, play(["KC"], "open:AD"))     # seat 0: KS KH AD = 21
    assert of_type(events, "RoundScored")[0].cumulative == (121, 111, 111)
    assert of_type(events, "GameEnded")[0].winners == (1, 2)  # shared
    state = game(hands, upcard="AD", cumulative=[100, 90, 91],
                 options={"common.round_turn_limit": 1, "common.tiebreak": "fewest_points_last_round"})
    events, _ = send(state, 0, play(["KC"], "open:AD"))
    assert of_type(events, "GameEnded")[0].winners == (2,)    # 20 < 21 this round
    state = game(hands, upcard="AD", cumulative=[100, 90, 91],
                 options={"common.round_turn_limit": 1, "common.tiebreak": "play_another_round"})
    events, state = send(state, 0, play(["KC"], "open:AD"))
    assert not of_type(events, "GameEnded")
    assert of_type(events, "TiebreakRound")[0].seats == (1, 2)
    assert of_type(events, "RoundDealt")[0].seated == (1, 2) and state.playoff
    # the tiebreak round ends with a single lowest total: that seat wins, nobody is eliminated
    for _ in range(50):
        seat = state.turn
        events, state = send(state, seat, play([state.hands[seat][0]], "stock"))
        if R.is_terminal(state):
            break
    ended = of_type(events, "GameEnded")
    assert ended and len(ended[0].winners) == 1 and not of_type(events, "PlayerEliminated")
    final = of_type(events, "RoundScored")[0].cumulative
    assert final[ended[0].winners[0]] == min(final[1], final[2])


# --------------------------------------------------------------------------- common.memory


def _shown(player: dict) -> list:
    """A hand as the view shows it: known cards, then None for each unknown one."""
    return [c["card"] for c in player["cards"]]


def _known(player: dict) -> list:
    return [c for c in _shown(player) if c is not None]


def test_notebook_memory_shows_cards_an_opponent_took_while_they_hold_them() -> None:
    state = game([["7S", "8H", "9D", "KS", "KH"], ["2C", "3C", "4C", "6C", "2H"],
                  ["AS", "AH", "QD", "QS", "5C"]], upcard="JD")
    _, state = send(state, 0, play(["9D", "7S", "8H"]))
    _, state = send(state, 1, play(["3C"], "open:8H"))
    assert _known(R.view(state, 0)["players"][1]) == ["8H"]
    assert _known(R.view(state, 2)["players"][1]) == ["8H"]
    assert _known(R.view(state, None)["players"][1]) == ["8H"]
    assert None not in _shown(R.view(state, 1)["players"][1])   # its own hand is shown whole
    _, state = send(state, 2, play(["QD", "QS"], "open:3C"))
    _, state = send(state, 0, play(["KS", "KH"], "stock"))
    _, state = send(state, 1, play(["8H"], "stock"))           # the 8H leaves seat 1's hand
    assert _known(R.view(state, 0)["players"][1]) == []
    assert _known(R.view(state, 0)["players"][2]) == ["3C"]
    strict = game([["7S", "8H", "9D", "KS", "KH"], ["2C", "3C", "4C", "6C", "2H"],
                   ["AS", "AH", "QD", "QS", "5C"]], upcard="JD", options={"common.memory": "strict"})
    _, strict = send(strict, 0, play(["9D", "7S", "8H"]))
    _, strict = send(strict, 1, play(["3C"], "open:8H"))
    view = R.view(strict, 0)
    assert _shown(view["players"][1]) == [None] * 5 and view["extension"]["open_set"] == ["3C"]
    assert _shown(R.view(strict, 1)["players"][1]) == ["2C", "4C", "6C", "2H", "8H"]


def test_the_view_shows_the_own_hand_counts_and_open_set_only() -> None:
    state = game([["7S", "8H"], ["2C", "3C", "4C"]], upcard="JD")
    view = R.view(state, 0)
    assert _shown(view["players"][0]) == ["7S", "8H"] and _shown(view["players"][1]) == [None] * 3
    assert [p["card_count"] for p in view["players"]] == [2, 3]
    assert view["extension"]["open_set"] == ["JD"] and view["stock_count"] == 52 - 6
    assert _shown(R.view(state, None)["players"][0]) == [None, None]
    for key in ("ruleset", "seat", "round", "phase", "turn", "dealer", "scores", "players", "stock_count",
                "discard_top", "window", "call"):
        assert key in view


# --------------------------------------------------------------------------- stock exhaustion


def test_an_empty_stock_is_refilled_from_the_dead_pile_only() -> None:
    state = game([["7S", "8H", "9D"], ["2C", "3C", "4C"]], upcard="JD")
    state = replace(state, stock=(), dead=("KS", "KH", "QS"))   # a given late-round table
    events, after = send(state, 0, play(["9D"], "stock"))
    shuffled = of_type(events, "StockReshuffled")[0]
    assert sorted(shuffled.order) == ["KH", "KS", "QS"] and shuffled.shuffle_no == 1
    played = of_type(events, "SetPlayed")[0]
    assert played.card == shuffled.order[0]
    assert after.dead == ("JD",) and after.stock == shuffled.order[1:]
    # the reshuffle is recorded: the same key gives the same order and commitment
    assert shuffled.order == chance.shuffle(KEY, chance.shuffle_label(1, 1), ["KH", "KS", "QS"])
    # and the commitment is revealed with the round
    after = lap(after, ["2C"])
    events, _ = send(after, 0, {"type": "Declare"})
    orders = of_type(events, "RoundRevealed")[0].orders
    assert [o["shuffle_no"] for o in orders] == [0, 1]
    assert chance.commit(orders[1]["order"], bytes.fromhex(orders[1]["salt"])) == shuffled.commitment


def test_take_stock_is_refused_when_neither_stock_nor_dead_pile_holds_a_card() -> None:
    state = replace(game([["7S", "8H", "9D"], ["2C", "3C", "4C"]], upcard="JD"), stock=(), dead=())
    err = refused(state, 0, play(["9D"], "stock"))
    assert isinstance(err, InvalidCommand) and err.status == 422
    assert {a["take"] for a in R.legal_actions(state, 0) if a["type"] == "Play"} == {"open:JD"}
    send(state, 0, play(["9D"], "open:JD"))


# --------------------------------------------------------------------------- timeouts


def test_a_timed_out_turn_discards_the_highest_single_and_takes_the_stock() -> None:
    state = game([["KS", "QH", "KH", "2D"], ["2C", "3C", "4C"]], upcard="JD", stock_top=["AC"])
    cmd = {"type": "TurnTimedOut", "seat": 0, "turn_no": 1}
    assert refused(state, 0, cmd).status == 422                # a system command only
    assert isinstance(refused(state, None, {"type": "TurnTimedOut", "seat": 1, "turn_no": 1}), WrongPhase)
    assert isinstance(refused(state, None, {"type": "TurnTimedOut", "seat": 0, "turn_no": 2}), WrongPhase)
    events, state = send(state, None, cmd)
    played = of_type(events, "SetPlayed")[0]
    assert played.discard == ("KS",) and played.take == "stock" and played.timed_out
    assert state.hands[0] == ("QH", "KH", "2D", "AC")
    # with no card in stock or dead pile: the first open card
    empty = replace(state, stock=(), dead=())
    events, _ = send(empty, None, {"type": "TurnTimedOut", "seat": 1, "turn_no": 2})
    assert of_type(events, "SetPlayed")[0].take == "open:KS"
    assert of_type(events, "SetPlayed")[0].discard == ("4C",)


def test_a_timeout_never_declares_and_counts_as_a_turn() -> None:
    state = lap(game([["AS", "2S"], ["AH", "2H"]], upcard="AD"), ["2S", "2H"])
    events, state = send(state, None, {"type": "TurnTimedOut", "seat": 0, "turn_no": 3})
    assert [type(e).__name__ for e in events] == ["SetPlayed"]
    assert state.turns_done == (2, 1)


# --------------------------------------------------------------------------- turn limit and lifecycle


def test_the_turn_limit_ends_the_round_with_own_totals_and_deals_the_next() -> None:
    state = game([["KS", "2S"], ["AH", "2H"]], upcard="AD", options={"common.round_turn_limit": 2})
    _, state = send(state, 0, play(["2S"], "open:AD"))        # KS AD = 11
    events, state = send(state, 1, play(["2H"], "open:2S"))   # AH 2S = 3
    scored = of_type(events, "RoundScored")[0]
    assert scored.round_scores == (11, 3) and scored.declarer is None
    assert [type(e).__name__ for e in events] == [
        "SetPlayed", "RoundRevealed", "RoundScored", "RoundDealt"]
    assert state.round == 2 and state.turn_no == 0


def test_start_emits_game_started_then_the_first_deal_with_a_public_commitment() -> None:
    events = R.start(4, {}, KEY)
    started, dealt = events
    assert type(started).__name__ == "GameStarted" and started.ruleset == "least-score"
    assert started.first_dealer == chance.pick(KEY, "first-dealer", 4)
    assert dealt.dealer == started.first_dealer and dealt.starter == (dealt.dealer + 1) % 4
    assert chance.commit(dealt.order, bytes.fromhex(dealt.salt)) == dealt.commitment
    for seat in (0, 1, 2, 3, None):
        public = R.redact(dealt, seat)
        assert "order" not in public and "stock" not in public and "salt" not in public
        assert public["commitment"] == dealt.commitment
        assert [h is not None for h in public["hands"]] == [p == seat for p in range(4)]


def test_a_stock_draw_is_private_and_an_open_take_public() -> None:
    state = game([["7S", "8H"], ["2C", "3C"]], upcard="JD", stock_top=["AC"])
    events, state = send(state, 0, play(["8H"], "stock"))
    drawn = of_type(events, "SetPlayed")[0]
    assert R.redact(drawn, 0)["card"] == "AC"
    assert R.redact(drawn, 1)["card"] is None and R.redact(drawn, None)["card"] is None
    events, _ = send(state, 1, play(["2C"], "open:8H"))
    assert R.redact(events[0], 0)["card"] == "8H"


def test_the_declaration_is_judged_in_words_and_data() -> None:
    state = lap(game([["AS", "2S"], ["AH", "KH"]], upcard="AD"), ["2S", "KH"])
    events, _ = send(state, 0, {"type": "Declare"})
    names = [type(e).__name__ for e in events]
    assert names[:3] == ["CallMade", "RoundRevealed", "RoundScored"]
    revealed, scored = events[1], events[2]
    assert revealed.totals == tuple(total(h) for h in state.hands)
    assert scored.rule == "RULES §4.5" and "declared with 2" in scored.explanation
    assert scored.options_applied["declare_tie_is_false"] is True
    assert R.redact(revealed, 1)["hands"][0] == list(state.hands[0])
