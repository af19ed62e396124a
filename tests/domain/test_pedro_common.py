"""Pedro under the common rules: tiebreaks, turn limit, memory, no card to draw, timeouts (RULES §2)."""
from __future__ import annotations

import pytest

from domain.rules.pedro import RULESET as R, game_result, with_ as update
from tests.domain.test_pedro_fixtures import act, cards_of, of_type, one, refused, table

TWO = [["3C", "KS", "4H", "7D"], ["9S", "9H", "9D", "8C"]]
THREE = TWO + [["2S", "2H", "2D", "2C"]]


@pytest.mark.parametrize("tiebreak,winners", [
    ("shared", (0, 1)), ("fewest_points_last_round", (1,)), ("play_another_round", None)])
def test_a_tie_for_the_lowest_total_is_shared_or_broken_as_common_tiebreak_says(tiebreak: str, winners: object) -> None:
    state, _ = table(THREE, options={"common.tiebreak": tiebreak})
    state = update(state, scores=(100, 100, 120), last_round=(30, 20, 25))
    assert game_result(state) == winners


def test_fewest_points_last_round_still_tied_is_shared() -> None:
    state, _ = table(THREE, options={"common.tiebreak": "fewest_points_last_round"})
    assert game_result(update(state, scores=(100, 100, 120), last_round=(20, 20, 25))) == (0, 1)


def test_round_turn_limit_ends_the_round_after_that_many_turns_with_no_caller() -> None:
    state, _ = table(TWO, options={"common.round_turn_limit": 3})
    for seat in (0, 1):
        state, _ = act(state, seat, {"type": "Draw", "source": "stock"})
        state, events = act(state, seat, {"type": "Release"})
        assert not of_type(events, "RoundScored")
    state, _ = act(state, 0, {"type": "Draw", "source": "stock"})
    _, events = act(state, 0, {"type": "Release"})
    scored = one(events, "RoundScored")
    assert scored.reason == "turn_limit" and scored.caller is None and scored.cumulative == scored.totals


def test_strict_memory_never_reshows_a_face_down_card_while_notebook_does() -> None:
    for memory, expect in (("notebook", "5S"), ("strict", None)):
        state, _ = table(TWO, stock=["5S"], options={"common.memory": memory})
        state, _ = act(state, 0, {"type": "Draw", "source": "stock"})
        assert R.view(state, 1)["held"]["card"] == "5S"  # face up while held, in both modes
        state, _ = act(state, 0, {"type": "Keep", "replace": "A", "also_discard": []})
        assert R.view(state, 0)["players"][0]["cards"][0]["card"] == expect
        assert R.view(state, 1)["players"][0]["cards"][0]["card"] == expect


def test_knowledge_follows_a_card_through_a_public_swap_and_a_six_look_stays_private() -> None:
    state, _ = table(THREE, stock=["7S", "5S", "6S"])  # to the right: 0 -> 2 -> 1
    state, _ = act(state, 0, {"type": "Draw", "source": "stock"})
    state, _ = act(state, 0, {"type": "Keep", "replace": "A", "also_discard": []})
    assert all(R.view(state, s)["players"][0]["cards"][0]["card"] == "7S" for s in (0, 1, 2, None))
    state, _ = act(state, 2, {"type": "Draw", "source": "stock"})
    state, _ = act(state, 2, {"type": "Release"})
    state, _ = act(state, 2, {"type": "UsePower5", "own": "B", "other": [0, "A"]})
    for seat in (0, 1, 2, None):
        players = R.view(state, seat)["players"]
        assert players[2]["cards"][1]["card"] == "7S" and players[0]["cards"][0]["card"] is None
    state, _ = act(state, 1, {"type": "Draw", "source": "stock"})
    state, _ = act(state, 1, {"type": "Release"})
    state, events = act(state, 1, {"type": "UsePower6", "target": [0, "A"]})
    peek = one(events, "CardPeeked")
    assert R.redact(peek, 1)["card"] == "2H" and R.redact(peek, 0)["card"] is None
    assert R.view(state, 1)["players"][0]["cards"][0]["card"] == "2H"
    assert R.view(state, 0)["players"][0]["cards"][0]["card"] is None


def _no_cards(state):  # type: ignore[no-untyped-def]
    """Every card out of stock and pile: stock and pile go into seat 0's extra slots (public facts only)."""
    lay = state.layouts[0]
    for card in state.stock + state.pile:
        lay, _slot = lay.add(card)
    return update(state, stock=(), pile=(), layouts=(lay,) + state.layouts[1:])


def test_with_no_card_to_draw_a_seat_may_call_or_skip_and_a_lap_of_skips_ends_the_round() -> None:
    state, _ = table(THREE)
    state = _no_cards(state)
    acts = R.legal_actions(state, 0)
    assert {"type": "SkipTurn"} in acts and {"type": "CallPedro"} in acts
    assert {"type": "Draw", "source": "stock"} not in acts and {"type": "Draw", "source": "discard"} not in acts
    assert refused(state, 0, {"type": "Draw", "source": "discard"}).status == 422
    for seat in (0, 2):
        state, events = act(state, seat, {"type": "SkipTurn"})
        assert one(events, "TurnSkipped").reason == "no_card"
    _, events = act(state, 1, {"type": "SkipTurn"})
    scored = one(events, "RoundScored")
    assert scored.reason == "no_card" and scored.caller is None


def test_skip_turn_is_refused_while_a_card_can_be_drawn() -> None:
    state, _ = table(TWO)
    assert refused(state, 0, {"type": "SkipTurn"}).status == 409


def test_a_seat_that_may_not_call_is_skipped_at_once_when_no_card_can_be_drawn() -> None:
    state, _ = table(THREE, options={"min_own_turns_before_call": 5})
    state = _no_cards(update(state, turn=None))
    from domain.rules.pedro import Emitter, start_turn  # the flow at a turn start
    em = Emitter(state)
    start_turn(em, 0, b"k" * 32)
    names = [type(e).__name__ for e in em.events]
    assert names.count("TurnSkipped") == 3 and "RoundScored" in names


def test_turn_timed_out_draws_and_releases_without_power_and_never_calls() -> None:
    state, _ = table(TWO, stock=["5S"])
    assert refused(state, 0, {"type": "TurnTimedOut", "seat": 0, "turn_no": 1}).status == 422  # system only
    assert refused(state, None, {"type": "TurnTimedOut", "seat": 0, "turn_no": 7}).code == "stale_turn"
    state, events = act(state, None, {"type": "TurnTimedOut", "seat": 0, "turn_no": 1})
    assert [type(e).__name__ for e in events] == ["TimeoutApplied", "CardDrawn", "CardReleased", "TurnStarted"]
    assert one(events, "CardReleased").power is None and state.turn == 1


def test_turn_timed_out_in_a_power_step_skips_it_even_when_powers_are_mandatory() -> None:
    state, _ = table(TWO, stock=["6S"])
    state, _ = act(state, 0, {"type": "Draw", "source": "stock"})
    state, _ = act(state, 0, {"type": "Release"})
    _, events = act(state, None, {"type": "TurnTimedOut", "seat": 0, "turn_no": 1})
    assert one(events, "PowerSkipped").reason == "timeout"


def test_turn_timed_out_keeps_a_pile_card_into_the_first_slot_when_it_may_not_go_back() -> None:
    state, _ = table(TWO, options={"allow_return_discard_draw": False})
    state, _ = act(state, 0, {"type": "Draw", "source": "discard"})
    state, events = act(state, None, {"type": "TurnTimedOut", "seat": 0, "turn_no": 1})
    assert one(events, "CardKept").slot == "A" and cards_of(state, 0)["A"] == "9C"


def test_commands_out_of_turn_or_in_the_wrong_step_are_refused_on_public_facts() -> None:
    state, _ = table(TWO)
    assert refused(state, 1, {"type": "Draw", "source": "stock"}).code == "not_your_turn"
    assert refused(state, 0, {"type": "Release"}).code == "wrong_phase"
    state, _ = act(state, 0, {"type": "Draw", "source": "stock"})
    assert refused(state, 0, {"type": "CallPedro"}).code == "wrong_phase"
    assert refused(state, 0, {"type": "Keep", "replace": "E9", "also_discard": []}).status == 422
    assert refused(state, 0, {"type": "Keep", "replace": "A", "also_discard": ["B", "B"]}).status == 422


def test_round_revealed_publishes_every_card_and_the_committed_orders_with_salts() -> None:
    from domain import chance
    events = R.start(2, R.resolve_options({}, 2), b"s" * 32)
    state = None
    for e in events:
        state = R.evolve(state, e)
    state, out = act(state, state.turn, {"type": "CallPedro"})
    revealed = one(out, "RoundRevealed")
    dealt = one(events, "RoundDealt")
    (order,) = revealed.orders
    assert order["commitment"] == dealt.commitment
    assert chance.commit(order["order"], bytes.fromhex(order["salt"])) == dealt.commitment
    assert R.redact(revealed, None)["layouts"] == R.redact(revealed, 0)["layouts"]
