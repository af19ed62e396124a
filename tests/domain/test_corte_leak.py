"""Corte: NO LEAK. For every event of many games and every seat (and a spectator), nothing in
``redact`` or ``view`` names a card the seat was not shown, according to the test's own
record (:class:`Record`), kept from the true events independently of the code under test.
Standing orders show nothing to anyone but their owner until the round ends, and then only
which seats had orders (:class:`Orders`).
"""
from __future__ import annotations

from typing import Any

import pytest

from domain.codec import typed
from domain.simulation import play
from tests.domain.order_record import OTHER, Orders
from tests.domain.test_corte_support import R, Record, cards_in

CASES: list[tuple[int, dict[str, Any], str]] = [
    (3, {}, "greedy"),
    (3, {"initial_upcard": True, "replaced_card_power": True}, "random"),
    (3, {"failed_snap_reveal": "snapper_only", "penalty_card_visible_to_owner": True}, "random"),
    (2, {"failed_snap_reveal": "none", "zero_card_rival_snap": "leave_empty"}, "random"),
    (3, {"common.memory": "strict"}, "random"),
    (7, {"lock_caller": False}, "greedy"),
    (3, {"common.stock_exhausted": "end_round"}, "random"),
    (5, {"failed_snap_reveal": "snapper_only"}, "random"),  # random orders, right and wrong
]


def check_game(players: int, options: dict[str, Any], bot: str, seed: int) -> tuple[int, int]:
    """Play one game, then replay it checking every redacted event and every view; returns the
    views checked and the standing orders placed."""
    full = {"target_score": 30, "common.round_turn_limit": 14, **options}
    result = play(R, players, full, seed, bot, max_steps=600)
    seats: list[int | None] = [None, *range(players)]
    record = Record(players, seats)
    strict = full.get("common.memory") == "strict"
    orders = Orders()
    state = None
    checks = 0
    for e in result.events:
        for seat in seats:
            shown = R.redact(e, seat)
            leaked = set(cards_in(shown)) - record.event_shows(e, seat)
            assert not leaked, f"{type(e).__name__} shows seat {seat} {leaked}"
            assert orders.shows(e, seat, typed(e)) in (OTHER, shown), (type(e).__name__, seat)
        record.apply(e)
        orders.apply(e)
        state = R.evolve(state, e)
        if not state.layouts:
            continue
        for seat in seats:
            v = R.view(state, seat)
            leaked = set(cards_in(v)) - record.shown[seat]
            assert not leaked, f"view of seat {seat} after {type(e).__name__} names {leaked}"
            assert [o["order_id"] for o in v["extension"]["orders"]] == orders.live_ids(seat), (seat, v["extension"]["orders"])
            for p, player in enumerate(v["players"]):
                for entry in player["cards"]:
                    if entry["card"] is None:
                        continue
                    assert not strict, "strict memory shows no face-down card"
                    assert (p, entry["slot"]) in record.known[seat], (seat, p, entry)
                    assert entry["card"] == state.layouts[p].card(entry["slot"])
            checks += 1
    return checks, orders.placed


@pytest.mark.parametrize("players, options, bot", CASES)
def test_no_event_and_no_view_names_a_card_the_seat_was_not_shown(players: int, options: dict[str, Any],
                                                                   bot: str) -> None:
    views, placed = map(sum, zip(*(check_game(players, options, bot, seed) for seed in range(3))))
    assert views > 100 and placed > 0


def test_the_record_itself_catches_a_leak() -> None:
    """The checker can fail: a redact that forgets to hide a drawn card is caught."""
    from tests.domain.test_corte_support import game
    s = game([["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], stock_top=["9D"])
    events = R.decide(s, 0, R.parse_command({"type": "Draw", "source": "stock"}), b"k")
    record = Record(2, [None, 0, 1])
    unredacted = {"type": "CardDrawn", "seat": 0, "source": "stock", "card": events[0].card}
    assert set(cards_in(unredacted)) - record.event_shows(events[0], 1) == {"9D"}
    assert set(cards_in(R.redact(events[0], 1))) - record.event_shows(events[0], 1) == set()


def test_the_order_record_itself_catches_an_order_shown_to_another_seat() -> None:
    from tests.domain.test_corte_support import game
    s = game([["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]])
    placed = R.decide(s, 0, R.parse_command({"type": "PlaceOrder", "rank": "A", "claim": "SnapOwn", "slot": "A",
                                              "penalty_to": "new"}), b"k")[0]
    assert Orders().shows(placed, 1, typed(placed)) is None
    assert R.redact(placed, 1) is None and R.redact(placed, 0) == typed(placed)
