"""Corte: NO ORACLE (metamorphic). Shuffling the face-down cards a seat has never seen (its
unknown grid cards, the stock, another seat's drawn card) changes neither that seat's
``legal_actions``, its ``view``, nor the errors its commands get; and every blind claim
listed is accepted, whether it turns out right or wrong. Standing orders included: their
listing, the seat's own orders in its view, and the answers to placing or cancelling one.
"""
from __future__ import annotations

import random
from typing import Any

from domain.errors import RuleError
from domain.rules.corte import State
from domain.simulation import play
from tests.domain.test_corte_support import R, Record


def scramble(s: State, seat: int, known: set[tuple[int, str]], rng: random.Random) -> State:
    """``s`` with every card ``seat`` cannot locate permuted among those places."""
    places = [(p, slot) for p, lay in enumerate(s.layouts) for slot in lay.occupied() if (p, slot) not in known]
    cards = [s.layouts[p].card(slot) for p, slot in places] + list(s.stock)
    other_held = s.held is not None and s.turn != seat
    if other_held:
        cards.append(s.held)
    rng.shuffle(cards)
    layouts = list(s.layouts)
    for (p, slot), c in zip(places, cards):
        layouts[p] = layouts[p].put(slot, c)
    rest = cards[len(places):]
    held = rest.pop() if other_held else s.held
    out = s._replace(layouts=tuple(layouts), stock=tuple(rest), held=held)
    assert sorted(R.cards_in_play(out)) == sorted(R.cards_in_play(s))
    return out


def probes(s: State, seat: int) -> list[dict[str, Any]]:
    """Commands whose refusal must not depend on hidden cards: every slot, right or wrong."""
    wid = s.window.id if s.window else 0
    out: list[dict[str, Any]] = [{"type": t} for t in ("Draw", "SkipTurn", "DiscardDrawn", "CallCorte", "SkipPower",
                                                        "KingSwap", "KingKeep")]
    rival = (seat + 1) % s.players
    for slot in ("A", "B", "C", "D", "E1", "E2"):
        out += [{"type": "Replace", "slot": slot}, {"type": "PeekOwn", "slot": slot},
                {"type": "PeekRival", "player": rival, "slot": slot},
                {"type": "BlindSwap", "own_slot": slot, "rival": rival, "rival_slot": "A"},
                {"type": "SnapOwn", "window_id": wid, "slot": slot, "penalty_to": "new"},
                {"type": "SnapOwn", "window_id": wid + 1, "slot": slot, "penalty_to": "empty:" + slot},
                {"type": "SnapRival", "window_id": wid, "rival": rival, "rival_slot": slot, "give_slot": "A",
                 "penalty_to": "new"},
                {"type": "Pass", "window_id": wid},
                {"type": "PlaceOrder", "rank": "7", "claim": "SnapOwn", "slot": slot, "penalty_to": "new"},
                {"type": "PlaceOrder", "rank": "K", "claim": "SnapRival", "rival": rival, "rival_slot": slot,
                 "give_slot": "A", "penalty_to": "new"}]
    out += [{"type": "CancelOrder", "order_id": i} for i in (1, 2, 3)]
    return out


def outcome(s: State, seat: int, command: dict[str, Any]) -> str:
    """The answer: the refusal, else "accepted"; for an order placed or cancelled, which
    judges no card, the events themselves as every seat and a spectator would see them."""
    try:
        events = R.decide(s, seat, R.parse_command(command), b"oracle")
    except RuleError as exc:
        return f"{exc.status} {exc.code}"
    if command["type"] in ("PlaceOrder", "CancelOrder"):
        return repr([[R.redact(e, viewer) for e in events] for viewer in (None, *range(s.players))])
    return "accepted"


def test_scrambling_unseen_cards_changes_nothing_a_seat_can_observe() -> None:
    rng = random.Random(7)
    compared = claims = with_orders = 0
    for seed, (players, options, bot) in enumerate([(3, {}, "random"), (2, {"initial_upcard": True}, "random"),
                                                    (4, {"lock_caller": False}, "greedy"),
                                                    (3, {"zero_card_rival_snap": "forbid"}, "random")]):
        result = play(R, players, {"target_score": 30, "common.round_turn_limit": 12, **options}, 900 + seed,
                      bot, max_steps=300)
        record = Record(players, list(range(players)))
        state = None
        for i, e in enumerate(result.events):
            record.apply(e)
            state = R.evolve(state, e)
            if i % 4 or not state.layouts or R.is_terminal(state) or not R.awaiting(state):
                continue
            with_orders += bool(state.book.live)
            for seat in range(players):
                twin = scramble(state, seat, record.known[seat], rng)
                assert R.legal_actions(twin, seat) == R.legal_actions(state, seat)
                assert R.view(twin, seat) == R.view(state, seat)
                for command in probes(state, seat):
                    assert outcome(twin, seat, command) == outcome(state, seat, command), command
                actions = R.legal_actions(state, seat)
                for command in rng.sample(actions, min(len(actions), 12)):
                    answer = outcome(state, seat, command)
                    assert not answer[0].isdigit() and answer == outcome(twin, seat, command), (command, answer)
                    claims += command["type"].startswith("Snap") or command["type"] == "PlaceOrder"
                compared += 1
    assert compared > 100 and claims > 50 and with_orders > 20


def test_a_wrong_and_a_right_snap_get_the_same_acknowledgement() -> None:
    from tests.domain.test_corte_support import act, game
    s = game([["KS", "KH", "KD", "KC"], ["7H", "2H", "3H", "6H"]], stock_top=["7S"])
    s, _ = act(s, 0, {"type": "Draw", "source": "stock"})
    s, _ = act(s, 0, {"type": "DiscardDrawn"})
    right = R.decide(s, 1, R.parse_command({"type": "SnapOwn", "window_id": s.window.id, "slot": "A",
                                            "penalty_to": "new"}), b"k")
    wrong = R.decide(s, 1, R.parse_command({"type": "SnapOwn", "window_id": s.window.id, "slot": "B",
                                            "penalty_to": "new"}), b"k")
    assert type(right[0]) is type(wrong[0])
    assert (right[0].outcome, wrong[0].outcome) == ("correct", "wrong")
