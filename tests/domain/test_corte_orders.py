"""Corte: standing snap orders, given/when/then.

An order is a blind claim left in advance; it fires in the ``decide`` step that opens a
window on its rank, in the fair order (the seats after the discarder in the direction of
play), and is judged like the same claim sent by hand.
"""
from __future__ import annotations

from typing import Any

import pytest

from domain.cards import RANKS
from domain.choices import commands, count, covers, find
from domain.errors import InvalidCommand, Locked, WrongPhase
from domain.orders import OrderFired, OrderPlaced
from domain.rules.corte import State
from domain.table import Layout
from tests.domain.test_corte_support import R, act, game, grid, names, of, turn

SEVENS = [["7S", "2S", "3S", "4S"], ["7H", "2H", "3H", "4H"], ["7D", "2D", "3D", "4D"], ["9C", "5H", "5D", "5C"]]


def seated(layouts: list[list[str]], **kw: Any) -> State:
    """``game`` with each seat holding exactly ``layouts`` (whatever the direction of the deal)."""
    s = game(layouts, **kw)
    return s._replace(layouts=tuple(Layout.dealt(lay) for lay in layouts))


def order(s: State, seat: int, rank: str, slot: str, **fields: Any) -> tuple[State, list[Any]]:
    body = {"type": "PlaceOrder", "rank": rank, "claim": "SnapOwn", "slot": slot, "penalty_to": "new", **fields}
    return act(s, seat, body)


def fired(events: list[Any]) -> list[tuple[int, str]]:
    """(seat, outcome) of each fired order's claim, in the order they were judged."""
    out, pending = [], None
    for e in events:
        if isinstance(e, OrderFired):
            pending = e.seat
        elif type(e).__name__ == "ClaimResolved" and pending is not None:
            assert e.actor == pending
            out.append((e.actor, e.outcome))
            pending = None
    return out


@pytest.mark.parametrize("direction, expected", [
    ("left", [(1, "correct"), (2, "late"), (3, "late"), (0, "late")]),
    ("right", [(3, "wrong"), (2, "correct"), (1, "late"), (0, "late")]),  # seat 3's A is a 9
])
def test_orders_fire_in_the_discarding_step_from_the_seat_after_the_discarder_in_the_direction_of_play(
        direction: str, expected: list[tuple[int, str]]) -> None:
    s = seated(SEVENS, stock_top=["7C"], options={"direction": direction})
    for seat in (3, 2, 1, 0):  # placed in this order: placement time does not decide
        s, _ = order(s, seat, "7", "A")
    s, ev = turn(s, 0)  # seat 0 draws the 7C and discards it
    assert fired(ev) == expected
    assert names(ev).index("WindowOpened") < names(ev).index("OrderFired") < names(ev).index("TurnEnded")
    winner = next(p for p, outcome in expected if outcome == "correct")
    assert grid(s, winner)["A"] is None and s.window.won_by == winner
    assert all(len(s.layouts[p].slots) == 5 for p, outcome in expected if outcome != "correct")  # penalty cards


def test_orders_fire_before_any_hand_sent_claim_on_the_same_window() -> None:
    s = seated(SEVENS, stock_top=["7C"])
    s, _ = order(s, 3, "7", "B")  # wrong: seat 3's B is the 5H
    s, ev = turn(s, 0)
    assert fired(ev) == [(3, "wrong")]
    s, ev = act(s, 1, {"type": "SnapOwn", "window_id": s.window.id, "slot": "A", "penalty_to": "new"})
    assert of(ev, "ClaimResolved").outcome == "correct"  # the hand-sent snap comes after the order
    s2, _ = order(seated(SEVENS, stock_top=["7C"]), 2, "7", "A")
    s2, _ = turn(s2, 0)
    s2, ev = act(s2, 1, {"type": "SnapOwn", "window_id": s2.window.id, "slot": "A", "penalty_to": "new"})
    assert of(ev, "ClaimResolved").outcome == "late"  # the order won the window first


def test_a_wrong_order_is_penalised_exactly_like_a_wrong_hand_sent_snap() -> None:
    s = seated(SEVENS, stock_top=["7C"])
    s_hand, _ = turn(s, 0)
    by_hand = act(s_hand, 3, {"type": "SnapOwn", "window_id": s_hand.window.id, "slot": "B", "penalty_to": "new"})[1]
    s_order, _ = order(s, 3, "7", "B")
    s_order, ev = turn(s_order, 0)
    from_order = ev[ev.index(of(ev, "OrderFired")) + 1:]
    judged = [e for e in from_order if type(e).__name__ in ("ClaimResolved", "PenaltyCardDealt")]
    assert judged == by_hand  # the same events, field for field
    assert of(judged, "ClaimResolved").outcome == "wrong" and of(judged, "ClaimResolved").revealed == ("5H",)
    assert s_order.layouts[3].card("B") == "5H" and len(s_order.layouts[3].slots) == 5


def test_an_order_on_a_slot_that_was_swapped_away_is_cancelled_and_never_fires() -> None:
    s = seated([["QS", "2S", "3S", "4S"], ["7H", "2H", "3H", "4H"]], stock_top=["QD", "6C", "7C"])
    s, _ = order(s, 1, "7", "A")
    s, _ = turn(s, 0)  # the Q: a blind swap of seat 0's A with seat 1's A
    s, ev = act(s, 0, {"type": "BlindSwap", "own_slot": "A", "rival": 1, "rival_slot": "A"})
    cancelled = of(ev, "OrderCancelled")
    assert (cancelled.seat, cancelled.order_id, cancelled.reason) == (1, 1, "slot_changed")
    assert names(ev).index("CardsSwapped") < names(ev).index("OrderCancelled")
    assert R.redact(cancelled, 1) is not None and R.redact(cancelled, 0) is None
    assert R.view(s, 1)["extension"]["orders"] == []
    s, _ = turn(s, 1)  # a 6 (its power: a look)
    s, _ = act(s, 1, {"type": "PeekRival", "player": 0, "slot": "B"})
    s, ev = turn(s, 0)  # the 7C lands: nothing fires
    assert "OrderFired" not in names(ev)


@pytest.mark.parametrize("move", ["replace", "rival_snap", "penalty_into_the_named_hole"])
def test_an_order_is_cancelled_when_a_slot_it_names_changes_card(move: str) -> None:
    s = seated([["7S", "2S", "3S", "4S"], ["8H", "2H", "3H", "4H"], ["9D", "2D", "3D", "4D"]],
               stock_top=["8C", "9C", "KS"], first=1)
    if move == "replace":
        s, _ = order(s, 1, "8", "A")
        s, _ = act(s, 1, {"type": "Draw", "source": "stock"})
        s, ev = act(s, 1, {"type": "Replace", "slot": "A"})  # the 8H goes, the 8C comes
        gone = (1, "slot_changed")
    elif move == "rival_snap":
        s, _ = order(s, 1, "K", "A")
        s, _ = act(s, 1, {"type": "Draw", "source": "stock"})
        s, _ = act(s, 1, {"type": "DiscardDrawn"})  # an 8 on the pile
        s, ev = act(s, 0, {"type": "SnapRival", "window_id": s.window.id, "rival": 1, "rival_slot": "A",
                           "give_slot": "B", "penalty_to": "new"})
        gone = (1, "slot_changed")
    else:
        s = s._replace(layouts=s.layouts[:2] + (s.layouts[2].put("B", None),) + s.layouts[3:],
                       pile=s.pile + ("2D",))
        s, _ = order(s, 2, "5", "A", penalty_to="empty:B")
        s, _ = act(s, 1, {"type": "Draw", "source": "stock"})
        s, _ = act(s, 1, {"type": "DiscardDrawn"})  # an 8 on the pile
        s, ev = act(s, 2, {"type": "SnapOwn", "window_id": s.window.id, "slot": "C", "penalty_to": "empty:B"})
        gone = (2, "slot_changed")
    cancelled = of(ev, "OrderCancelled")
    assert (cancelled.seat, cancelled.reason) == gone
    assert R.view(s, gone[0])["extension"]["orders"] == []


def test_the_round_end_cancels_live_orders_privately_and_then_shows_everyone_only_who_had_orders() -> None:
    s = seated([["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], stock_top=["9C"])
    s, _ = order(s, 1, "K", "A")
    s, _ = act(s, 0, {"type": "CallCorte"})
    s, ev = turn(s, 1)
    for p in (0, 1):
        s, ev = act(s, p, {"type": "Pass", "window_id": s.window.id}) if s.phase == "FINAL_WINDOW" else (s, ev)
    assert names(ev).index("OrderCancelled") < names(ev).index("OrdersRevealed") < names(ev).index("RoundRevealed")
    assert of(ev, "OrderCancelled").reason == "round_ended"
    revealed = of(ev, "OrdersRevealed")
    assert revealed.orders == ({"order_id": 1, "seat": 1, "rank": "K", "claim": "SnapOwn", "slot": "A",
                                "penalty_to": "new", "result": "round_ended", "window_id": None},)
    assert R.redact(revealed, 0)["orders"] == [{"order_id": 1, "seat": 1}]
    assert R.redact(revealed, None)["orders"] == [{"order_id": 1, "seat": 1}]
    assert R.redact(revealed, 1)["orders"][0]["rank"] == "K"
    assert s.round == 2 and R.view(s, 1)["extension"]["orders"] == []


def test_placing_an_order_is_accepted_whatever_the_card_and_shows_nobody_else_anything() -> None:
    s = seated(SEVENS)
    right = R.decide(s, 1, R.parse_command({"type": "PlaceOrder", "rank": "7", "claim": "SnapOwn", "slot": "A",
                                            "penalty_to": "new"}), b"k")
    wrong = R.decide(s, 1, R.parse_command({"type": "PlaceOrder", "rank": "7", "claim": "SnapOwn", "slot": "B",
                                            "penalty_to": "new"}), b"k")
    assert [type(e) for e in right] == [type(e) for e in wrong] == [OrderPlaced]
    assert (right[0].order_id, wrong[0].order_id) == (1, 1)
    for seat in (0, 2, 3, None):
        assert R.redact(right[0], seat) is None and R.redact(wrong[0], seat) is None
    assert R.redact(right[0], 1) == {"type": "OrderPlaced", "order_id": 1, "seat": 1, "rank": "7",
                                     "claim": {"type": "SnapOwn", "slot": "A", "penalty_to": "new"}}


def test_order_ids_count_each_seats_own_orders_so_an_id_tells_nothing_of_other_seats() -> None:
    s = seated(SEVENS)
    s, _ = order(s, 0, "7", "A")
    s, _ = order(s, 0, "2", "B")
    s, ev = order(s, 2, "7", "A")
    assert ev[0].order_id == 1
    assert [o["order_id"] for o in R.view(s, 0)["extension"]["orders"]] == [1, 2]
    assert R.view(s, 2)["extension"]["orders"] == [{"order_id": 1, "rank": "7", "claim": "SnapOwn", "slot": "A",
                                       "penalty_to": "new"}]
    assert R.view(s, 1)["extension"]["orders"] == [] and R.view(s, None)["extension"]["orders"] == []


@pytest.mark.parametrize("body, error", [
    ({"rank": "1", "claim": "SnapOwn", "slot": "A", "penalty_to": "new"}, InvalidCommand),
    ({"rank": "7", "claim": "Match", "slot": "A", "penalty_to": "new"}, InvalidCommand),
    ({"rank": "7", "claim": "SnapOwn", "slot": "E1", "penalty_to": "new"}, InvalidCommand),
    ({"rank": "7", "claim": "SnapOwn", "slot": "A"}, InvalidCommand),
    ({"rank": "7", "claim": "SnapOwn", "slot": "A", "rival": 2, "penalty_to": "new"}, InvalidCommand),
    ({"rank": "7", "claim": "SnapOwn", "slot": "A", "penalty_to": "empty:B"}, InvalidCommand),
    ({"rank": "7", "claim": "SnapRival", "rival": 1, "rival_slot": "A", "penalty_to": "new"}, InvalidCommand),
    ({"rank": "7", "claim": "SnapRival", "rival": 0, "rival_slot": "A", "give_slot": "B", "penalty_to": "new"},
     InvalidCommand),
])
def test_an_order_is_refused_only_on_public_facts(body: dict[str, Any], error: type) -> None:
    s = seated(SEVENS)
    with pytest.raises(error):
        act(s, 0, {"type": "PlaceOrder", **body})


def test_one_live_order_per_slot_and_a_cancelled_one_frees_it() -> None:
    s = seated(SEVENS)
    s, _ = order(s, 0, "7", "A")
    with pytest.raises(InvalidCommand) as refused:
        order(s, 0, "2", "A")
    assert refused.value.code == "order_exists"
    own = find(R.legal_actions(s, 0), type="PlaceOrder", claim="SnapOwn")
    assert own is not None and find(R.legal_actions(s, 0), type="PlaceOrder", claim="SnapOwn", slot="A") is None
    assert R.legal_actions(s, 0)[-1] == {"type": "CancelOrder", "order_id": 1}
    s, ev = act(s, 0, {"type": "CancelOrder", "order_id": 1})
    assert (of(ev, "OrderCancelled").reason, R.view(s, 0)["extension"]["orders"]) == ("by_owner", [])
    with pytest.raises(InvalidCommand) as again:
        act(s, 0, {"type": "CancelOrder", "order_id": 1})
    assert again.value.code == "no_order"
    s, _ = order(s, 0, "2", "A")


def test_orders_are_for_windows_still_to_open_and_a_locked_caller_may_not_leave_one() -> None:
    s = seated([["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], stock_top=["9C"],
               options={"lock_caller": True})
    s, _ = act(s, 0, {"type": "CallCorte"})
    with pytest.raises(Locked):
        order(s, 0, "9", "A")
    assert not [a for a in R.legal_actions(s, 0) if a["type"] == "PlaceOrder"]
    s, _ = turn(s, 1)
    assert s.phase == "FINAL_WINDOW"
    with pytest.raises(WrongPhase):
        order(s, 1, "9", "A")
    assert not [a for a in R.legal_actions(s, 1) if a["type"] == "PlaceOrder"]


def test_an_order_whose_claim_is_refused_when_it_fires_is_cancelled_at_no_cost() -> None:
    s = seated(SEVENS, stock_top=["7C"], options={"late_snap": "reject"})
    s, _ = order(s, 1, "7", "A")
    s, _ = order(s, 2, "7", "A")
    s, ev = turn(s, 0)
    assert fired(ev) == [(1, "correct")]
    cancelled = of(ev, "OrderCancelled")
    assert (cancelled.seat, cancelled.reason) == (2, "not_claimable") and "stale_window" in cancelled.detail
    assert grid(s, 2)["A"] == "7D" and len(s.layouts[2].slots) == 4


def test_a_rival_order_gives_the_named_card_and_is_judged_like_a_snap_rival() -> None:
    s = seated(SEVENS, stock_top=["7C"])
    s, _ = act(s, 2, {"type": "PlaceOrder", "rank": "7", "claim": "SnapRival", "rival": 1, "rival_slot": "A",
                      "give_slot": "D", "penalty_to": "new"})
    assert R.view(s, 2)["extension"]["orders"][0] == {"order_id": 1, "rank": "7", "claim": "SnapRival", "rival": 1,
                                         "rival_slot": "A", "give_slot": "D", "penalty_to": "new"}
    s, ev = turn(s, 0)
    assert fired(ev) == [(2, "correct")]
    assert names(ev)[names(ev).index("OrderFired"):][:4] == ["OrderFired", "ClaimResolved", "WindowWon", "CardGiven"]
    assert grid(s, 1)["A"] == "4D" and grid(s, 2)["D"] is None


def test_orders_on_the_up_card_window_fire_from_the_first_player_on() -> None:
    s = seated([["7S", "2S", "3S", "4S"], ["7H", "2H", "3H", "4H"], ["7D", "2D", "3D", "4D"]], upcard="7C",
               first=1, peeks=False)
    for p in (0, 2, 1):
        s, _ = act(s, p, {"type": "ChoosePeek", "slots": ["C", "D"]})
        if p != 1:
            s, _ = order(s, p, "7", "A")
    # the last peek opens W0 on the up-card: seat 1 starts, so seat 2's order fires before seat 0's
    assert s.window is not None and s.window.won_by == 2


def test_legal_actions_offer_an_order_for_every_rank_on_every_own_and_rival_slot_in_one_entry_each() -> None:
    s = seated(SEVENS)
    s = s._replace(layouts=(s.layouts[0].put("D", None),) + s.layouts[1:], pile=("4S",))
    offered = [a for a in R.legal_actions(s, 0) if a["type"] == "PlaceOrder"]
    # one entry for the own slots, one per rival: not 13 ranks x slots x penalty places x gives
    assert [(a["claim"], a.get("rival")) for a in offered] == [("SnapOwn", None), ("SnapRival", 1),
                                                               ("SnapRival", 2), ("SnapRival", 3)]
    assert offered[0]["choices"] == {"rank": {"one_of": list(RANKS)}, "slot": {"one_of": ["A", "B", "C"]},
                                     "penalty_to": {"one_of": ["new", "empty:D"]}}
    assert sum(count(a) for a in offered) == 13 * 3 * 2 + 3 * 13 * 4 * 3 * 2  # ranks x slots (x gives) x places
    assert covers(offered, {"type": "PlaceOrder", "rank": "Q", "claim": "SnapOwn", "slot": "C",
                            "penalty_to": "empty:D"})
    for a in offered:
        for c in [a, *commands(a)][::7]:
            assert names(act(s, 0, c)[1]) == ["OrderPlaced"]  # every one is accepted (a seventh of them here)


def test_orders_replay_to_the_same_state_and_their_events_round_trip() -> None:
    from domain import codec
    s0 = seated(SEVENS, stock_top=["7C"])
    events: list[Any] = []
    s = s0
    for seat in (1, 3):
        s, ev = order(s, seat, "7", "A")
        events += ev
    s, ev = turn(s, 0)
    events += ev
    again = s0
    for e in events:
        again = R.evolve(again, codec.build(type(e), codec.from_json(codec.to_json(e))))
    assert again == s
    assert names(events)[:2] == ["OrderPlaced", "OrderPlaced"] and "OrderFired" in names(events)
