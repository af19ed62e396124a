"""4 Cartas: standing match orders, given/when/then.

``Match`` orders (and ``MatchRival`` ones under ``rival_matching``) fire in the ``decide``
step that opens a window on their rank, from the seat after the discarder on, and are
judged like the same claims sent by hand.
"""
from __future__ import annotations

from typing import Any

import pytest

from domain.choices import count, covers
from domain.errors import InvalidCommand, Locked, WrongPhase
from domain.orders import OrderFired
from tests.domain.test_cuatro_cartas_support import R, card, names, of, play, refused, send, table

FOURS = [["4S", "6S", "7S", "10S"], ["4H", "9H", "JH", "QH"], ["4C", "5D", "6D", "7D"]]


def order(s: Any, seat: int, rank: str, slot: str) -> Any:
    return send(s, seat, {"type": "PlaceOrder", "rank": rank, "claim": "Match", "slot": slot})[1]


def fired(events: tuple[Any, ...]) -> list[tuple[int, str]]:
    out = []
    for i, e in enumerate(events):
        if isinstance(e, OrderFired):
            claim = events[i + 1]
            assert type(claim).__name__ == "ClaimResolved" and claim.actor == e.seat
            out.append((e.seat, claim.outcome))
    return out


def test_every_seats_order_fires_in_the_fair_order_and_each_right_one_matches() -> None:
    s = table(FOURS, upcard="2C", stock=["4D"])
    for seat in (0, 2, 1):
        s = order(s, seat, "4", "A")
    _, s = send(s, 0, {"type": "Draw", "source": "stock"})
    events, s = send(s, 0, {"type": "DiscardDrawn", "close": False})
    assert fired(events) == [(1, "correct"), (2, "correct"), (0, "correct")]  # no race: all may match
    assert names(events).index("WindowOpened") < names(events).index("OrderFired") < names(events).index("TurnStarted")
    assert [card(s, p, "A") for p in range(3)] == [None, None, None] and s.turn == 1


def test_with_single_match_per_discard_the_later_orders_are_cancelled_at_no_cost() -> None:
    s = table(FOURS, upcard="2C", stock=["4D"], options={"single_match_per_discard": True})
    for seat in (2, 1):
        s = order(s, seat, "4", "A")
    _, s = send(s, 0, {"type": "Draw", "source": "stock"})
    events, s = send(s, 0, {"type": "DiscardDrawn", "close": False})
    assert fired(events) == [(1, "correct")]
    cancelled = of(events, "OrderCancelled")[0]
    assert (cancelled.seat, cancelled.reason) == (2, "not_claimable") and card(s, 2, "A") == "4C"


def test_a_wrong_order_costs_one_penalty_card_exactly_like_a_wrong_hand_sent_match() -> None:
    s = table(FOURS, upcard="2C", stock=["4D"])
    _, hand = send(s, 0, {"type": "Draw", "source": "stock"})
    _, hand = send(hand, 0, {"type": "DiscardDrawn", "close": False})
    by_hand, _ = send(hand, 1, {"type": "Match", "window_id": hand.window.id, "slot": "B"})
    s = order(s, 1, "4", "B")  # seat 1's B is the 9H
    _, s = send(s, 0, {"type": "Draw", "source": "stock"})
    events, s = send(s, 0, {"type": "DiscardDrawn", "close": False})
    assert fired(events) == [(1, "wrong")]
    start = names(events).index("OrderFired") + 1
    assert list(events[start:start + len(by_hand)]) == list(by_hand)  # ClaimResolved and PenaltyCardDealt
    assert card(s, 1, "B") == "9H" and s.layouts[1].slots[-1] == "E1"


def test_an_order_on_a_slot_a_king_swapped_away_is_cancelled_and_never_fires() -> None:
    s = table(FOURS, upcard="2C", stock=["KD", "4D"])
    s = order(s, 2, "4", "A")
    _, s = send(s, 0, {"type": "Draw", "source": "stock"})
    _, s = send(s, 0, {"type": "DiscardDrawn", "close": False})  # the K: look, then swap
    _, s = send(s, 0, {"type": "Look", "targets": [], "close": False})
    events, s = send(s, 0, {"type": "Swap", "a": [1, "B"], "b": [2, "A"], "close": False})
    cancelled = of(events, "OrderCancelled")[0]
    assert (cancelled.seat, cancelled.reason) == (2, "slot_changed")
    assert R.redact(cancelled, 2) is not None and R.redact(cancelled, 1) is None
    _, s = send(s, 1, {"type": "Draw", "source": "stock"})
    events, s = send(s, 1, {"type": "DiscardDrawn", "close": False})  # the 4D lands
    assert "OrderFired" not in names(events)


def test_orders_on_the_up_card_fire_when_the_last_peek_opens_its_window_from_the_first_player_on() -> None:
    s = table(FOURS, upcard="4D", peek=False)
    for seat in (2, 0):
        _, s = play(s, seat, {"type": "ChoosePeek", "slots": ["C", "D"]})
        s = order(s, seat, "4", "A")
    events, s = play(s, 1, {"type": "ChoosePeek", "slots": ["C", "D"]})  # the last peek: W0 opens
    assert fired(events) == [(0, "correct"), (2, "correct")]  # seat 0 plays first
    assert card(s, 0, "A") is None and card(s, 2, "A") is None


def test_match_rival_orders_exist_only_under_rival_matching() -> None:
    body = {"type": "PlaceOrder", "rank": "4", "claim": "MatchRival", "rival": 1, "rival_slot": "A", "give_slot": "D"}
    assert isinstance(refused(table(FOURS), 0, body), InvalidCommand)
    s = table(FOURS, upcard="2C", stock=["4D"], options={"rival_matching": True})
    _, s = send(s, 2, body)
    _, s = send(s, 0, {"type": "Draw", "source": "stock"})
    events, s = send(s, 0, {"type": "DiscardDrawn", "close": False})
    assert fired(events) == [(2, "correct")]
    assert card(s, 1, "A") == "7D" and card(s, 2, "D") is None


def test_legal_actions_offer_an_order_for_every_rank_on_every_own_and_rival_slot_but_those_with_one() -> None:
    s = table(FOURS, options={"rival_matching": True})
    offered = [a for a in R.legal_actions(s, 1) if a["type"] == "PlaceOrder"]
    assert [(a["claim"], a.get("rival")) for a in offered] == [("Match", None), ("MatchRival", 0), ("MatchRival", 2)]
    assert [count(a) for a in offered] == [13 * 4, 13 * 4 * 4, 13 * 4 * 4]  # ranks x slots (x gives)
    s = order(s, 1, "9", "B")
    s = send(s, 1, {"type": "PlaceOrder", "rank": "9", "claim": "MatchRival", "rival": 0, "rival_slot": "A",
                    "give_slot": "C"})[1]
    offered = [a for a in R.legal_actions(s, 1) if a["type"] == "PlaceOrder"]
    assert [count(a) for a in offered] == [13 * 3, 13 * 3 * 4, 13 * 4 * 4]
    assert not covers(offered, {"type": "PlaceOrder", "rank": "9", "claim": "Match", "slot": "B"})
    assert not covers(offered, {"type": "PlaceOrder", "rank": "9", "claim": "MatchRival", "rival": 0,
                                "rival_slot": "A", "give_slot": "A"})
    assert R.view(s, 1)["extension"]["orders"][0] == {"order_id": 1, "rank": "9", "claim": "Match", "slot": "B"}
    assert R.view(s, 0)["extension"]["orders"] == []


def test_a_locked_closer_may_not_leave_orders_and_none_are_left_for_the_final_window() -> None:
    s = table(FOURS, upcard="2C", stock=["3D", "5C"], options={"lock_closer": True})
    _, s = send(s, 0, {"type": "Close"})
    assert isinstance(refused(s, 0, {"type": "PlaceOrder", "rank": "4", "claim": "Match", "slot": "A"}), Locked)
    _, s = send(s, 1, {"type": "Draw", "source": "stock"})
    _, s = send(s, 1, {"type": "DiscardDrawn", "close": False})
    _, s = send(s, 2, {"type": "Draw", "source": "stock"})
    _, s = send(s, 2, {"type": "DiscardDrawn", "close": False})
    assert s.phase == "FINAL_WINDOW"
    assert isinstance(refused(s, 1, {"type": "PlaceOrder", "rank": "4", "claim": "Match", "slot": "A"}), WrongPhase)


@pytest.mark.parametrize("reason", ["by_owner", "round_ended"])
def test_orders_end_with_the_round_and_everyone_then_sees_only_which_seats_had_them(reason: str) -> None:
    s = table([["AS", "2S", "3S", "4S"], ["5H", "6H", "7H", "8H"]], upcard="9C", stock=["10D"])
    s = order(s, 1, "K", "A")
    if reason == "by_owner":
        _, s = send(s, 1, {"type": "CancelOrder", "order_id": 1})
    _, s = send(s, 0, {"type": "Close"})
    _, s = send(s, 1, {"type": "Draw", "source": "stock"})
    _, s = send(s, 1, {"type": "DiscardDrawn", "close": False})
    _, s = send(s, 0, {"type": "Pass", "window_id": s.window.id})
    events, s = send(s, 1, {"type": "Pass", "window_id": s.window.id})
    revealed = of(events, "OrdersRevealed")[0]
    assert revealed.orders[0]["result"] == reason
    assert R.redact(revealed, 0)["orders"] == [{"order_id": 1, "seat": 1}]
    assert ("OrderCancelled" in names(events)) == (reason == "round_ended")
    assert s.round == 2 and s.book.live == ()
