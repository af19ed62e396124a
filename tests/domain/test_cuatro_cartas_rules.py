"""4 Cartas and the common model (RULES §2): skips, timeouts, turn limit, tiebreaks, memory,
windows and the close flag on power commands."""
from __future__ import annotations

from dataclasses import replace

from domain.errors import InvalidCommand, NoWindow, StaleWindow, WrongPhase
from domain.rules.cuatro_cartas import RULESET as R, game_winners
from tests.domain.test_cuatro_cartas_support import card, names, of, refused, send, table, wid

LOW = ["5S", "6S", "7S", "10S"]
HIGH = ["4H", "9H", "JH", "QH"]


def test_start_deals_a_committed_round_with_its_order_hidden_from_everyone() -> None:
    events = R.start(3, R.resolve_options({}, 3), b"s" * 32)
    assert names(events) == ["GameStarted", "RoundDealt"]
    dealt = events[1]
    assert len(dealt.order) == 52 and dealt.commitment
    for seat in (0, 1, 2, None):
        red = R.redact(dealt, seat)
        assert red["order"] is None and red["salt"] is None and red["commitment"] == dealt.commitment
    assert R.start(3, R.resolve_options({}, 3), b"s" * 32) == events  # chance comes from the key only


def test_round_revealed_publishes_the_orders_that_match_their_commitments() -> None:
    from domain import chance
    s = table([LOW, HIGH], stock=["3D"])
    _, s = send(s, 0, {"type": "Close"})
    _, s = send(s, 1, {"type": "Draw", "source": "stock"})
    _, s = send(s, 1, {"type": "DiscardDrawn", "close": False})
    events, _ = send(s, None, {"type": "FinalWindowExpired", "window_id": wid(s)})
    dealt = [e for e in events if type(e).__name__ == "RoundDealt"][0]
    salt = bytes.fromhex(dealt.salt)
    assert chance.commit(dealt.order, salt) == dealt.commitment


def test_skip_turn_only_without_a_card_and_a_lap_of_skips_ends_the_round() -> None:
    s = table([LOW, HIGH], upcard="3C", options={"allow_rediscard": False})
    assert isinstance(refused(s, 0, {"type": "SkipTurn"}), WrongPhase)
    # A probe state (the other cards are off the table): no stock, one pile card, empty
    # layouts and no rediscard, so nobody can draw.
    empty = tuple(lay.__class__(lay.slots, (None,) * 4) for lay in s.layouts)
    two = s._replace(layouts=empty, stock=(), pile=("3C", "4C"))
    assert {"type": "Draw", "source": "stock"} in R.legal_actions(two, 0)  # a reshuffle is possible
    only_top = two._replace(pile=("3C",))
    assert {"type": "SkipTurn"} in R.legal_actions(only_top, 0)
    assert {"type": "Close"} in R.legal_actions(only_top, 0)
    events, after = send(only_top, 0, {"type": "SkipTurn"})
    # Seat 1 cannot draw either; it may still Close, so it is not skipped automatically.
    assert names(events) == ["TurnSkipped", "TurnStarted"] and after.turn == 1
    events, after = send(after, 1, {"type": "SkipTurn"})
    assert of(events, "RoundRevealed")[0].reason == "all_skipped"


def test_round_turn_limit_ends_the_round_after_that_many_turns() -> None:
    s = table([LOW, HIGH], stock=["3D", "4D"], options={"common.round_turn_limit": 2})
    _, s = send(s, 0, {"type": "Draw", "source": "stock"})
    _, s = send(s, 0, {"type": "DiscardDrawn", "close": False})
    _, s = send(s, 1, {"type": "Draw", "source": "stock"})
    events, s = send(s, 1, {"type": "DiscardDrawn", "close": False})
    assert of(events, "RoundRevealed")[0].reason == "turn_limit" and s.round == 2


def test_timeouts_peek_c_and_d_then_draw_and_discard_without_power() -> None:
    s = table([LOW, HIGH], peek=False, stock=["KD"])
    assert refused(s, 0, {"type": "TurnTimedOut", "seat": 0, "turn_no": 0}).status == 422
    events, s = send(s, None, {"type": "TurnTimedOut", "seat": 0, "turn_no": 0})
    assert of(events, "PeekChosen")[0].slots == ("C", "D") and of(events, "PeekChosen")[0].automatic
    _, s = send(s, 1, {"type": "ChoosePeek", "slots": ["A", "B"]})
    assert isinstance(refused(s, None, {"type": "TurnTimedOut", "seat": 0, "turn_no": 7}), WrongPhase)
    events, s = send(s, None, {"type": "TurnTimedOut", "seat": 0, "turn_no": 1})
    assert "CallMade" not in names(events) and "PowerStarted" not in names(events)
    assert of(events, "CardDiscarded")[0].card == "KD" and s.turn == 1


def test_timeout_with_a_pile_card_and_no_rediscard_replaces_the_first_card() -> None:
    s = table([LOW, HIGH], upcard="3C", options={"allow_rediscard": False})
    _, s = send(s, 0, {"type": "Draw", "source": "discard"})
    events, s = send(s, None, {"type": "TurnTimedOut", "seat": 0, "turn_no": 1})
    assert of(events, "CardReplaced")[0].slot == "A" and card(s, 0, "A") == "3C"


def test_windows_refuse_stale_and_absent_claims_with_409_and_no_penalty() -> None:
    s = table([LOW, HIGH], stock=["3D", "KD"])
    w0 = wid(s)
    _, s = send(s, 0, {"type": "Draw", "source": "stock"})
    _, s = send(s, 0, {"type": "DiscardDrawn", "close": False})
    assert isinstance(refused(s, 1, {"type": "Match", "window_id": w0, "slot": "A"}), StaleWindow)
    _, s = send(s, 1, {"type": "Draw", "source": "stock"})
    _, s = send(s, 1, {"type": "DiscardDrawn", "close": False})
    assert s.step == "POWER_LOOK"
    assert isinstance(refused(s, 0, {"type": "Match", "window_id": s.last_window_id, "slot": "A"}), NoWindow)
    assert not [a for a in R.legal_actions(s, 0) if a["type"] == "Match"]


def test_a_claim_never_moves_the_turn_and_replace_on_a_matched_slot_is_422() -> None:
    s = table([["3S", "6S", "7S", "10S"], HIGH], upcard="3C", stock=["2D"])
    _, s = send(s, 0, {"type": "Draw", "source": "stock"})
    events, s = send(s, 0, {"type": "Match", "window_id": wid(s), "slot": "A"})
    assert s.step == "HOLDING" and s.held == "2D" and s.turn == 0
    assert refused(s, 0, {"type": "Replace", "slot": "A", "close": False}).status == 422


def test_close_flag_on_a_power_takes_effect_when_the_power_ends() -> None:
    s = table([LOW, HIGH], stock=["QD"], options={"close_timing": "after_turn"})
    _, s = send(s, 0, {"type": "Draw", "source": "stock"})
    _, s = send(s, 0, {"type": "DiscardDrawn", "close": True})
    assert s.step == "POWER_LOOK" and s.closer is None
    events, s = send(s, 0, {"type": "Look", "targets": [[1, "A"]], "close": False})
    assert names(events)[-3:] == ["WindowOpened", "CallMade", "TurnStarted"] and s.closer == 0


def test_a_king_look_cannot_carry_close_while_a_swap_is_possible() -> None:
    s = table([LOW, HIGH], stock=["KD"], options={"close_timing": "after_turn"})
    _, s = send(s, 0, {"type": "Draw", "source": "stock"})
    _, s = send(s, 0, {"type": "DiscardDrawn", "close": False})
    assert isinstance(refused(s, 0, {"type": "Look", "targets": [], "close": True}), InvalidCommand)
    _, s = send(s, 0, {"type": "Look", "targets": [], "close": False})
    events, s = send(s, 0, {"type": "NoSwap", "close": True})
    assert "CallMade" in names(events)


def test_strict_memory_shows_no_face_down_card_but_the_peek_event_still_does() -> None:
    s = table([LOW, HIGH], options={"common.memory": "strict"}, peek=False)
    events, s = send(s, 0, {"type": "ChoosePeek", "slots": ["A", "B"]})
    assert R.redact(events[0], 0)["cards"] == ["5S", "6S"]
    assert all(x["card"] is None for p in R.view(s, 0)["players"] for x in p["cards"])


def test_tiebreaks_shared_fewest_points_last_round_and_play_another_round() -> None:
    s = table([LOW, HIGH])
    tied = s._replace(scores=(10, 10), last_round=(4, 2))
    assert game_winners(tied)[0] == (0, 1)
    assert game_winners(tied._replace(opts=replace(tied.opts, tiebreak="fewest_points_last_round")))[0] == (1,)
    assert game_winners(tied._replace(opts=replace(tied.opts, tiebreak="play_another_round")))[0] == ()


def test_view_and_summary_have_the_shape_the_service_expects() -> None:
    s = table([LOW, HIGH])
    v = R.view(s, 0)
    for k in ("ruleset", "seat", "round", "phase", "turn", "dealer", "scores", "players", "stock_count",
              "discard_top", "window", "call"):
        assert k in v
    assert v["players"][0]["cards"][0] == {"slot": "A", "card": None, "empty": False}
    assert v["players"][0]["cards"][2] == {"slot": "C", "card": "7S", "empty": False}
    assert R.view(s, None)["players"][0]["cards"][2]["card"] is None
    assert set(R.summary(s)) >= {"round", "phase", "turn", "dealer", "scores"}
    assert R.awaiting(s) == (0,)
