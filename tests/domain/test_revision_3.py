"""Revision 3 of the rules: each changed default, the new option, and games stored before it.

Every default is checked on what a game plays by (the behaviour), not only on the option
table; the option tests of each ruleset cover the other value.
"""
from __future__ import annotations

import pytest

from domain import rules
from domain.choices import count, covers
from domain.errors import WrongPhase
from domain.rules.corte import RULESET as CORTE
from domain.rules.cuatro_cartas import RULESET as QUATRO
from domain.rules.pedro import RULESET as PEDRO
from tests.domain import test_corte_support as corte
from tests.domain import test_cuatro_cartas_support as quatro
from tests.domain.test_pedro_fixtures import act as pedro_act, cards_of, one, table as pedro_table

THREE = [["JS", "KH", "KD", "KC"], ["7H", "2H", "3H", "6H"], ["9C", "7C", "3C", "4C"]]


def test_revision_3_defaults_are_the_resolved_options_of_a_new_game() -> None:
    assert {k: CORTE.resolve_options({}, 3)[k] for k in ("lock_caller", "powers_optional")} == \
        {"lock_caller": False, "powers_optional": False}
    assert {k: QUATRO.resolve_options({}, 3)[k] for k in ("lock_closer", "rediscard_power")} == \
        {"lock_closer": False, "rediscard_power": False}


def test_corte_by_default_a_caller_is_not_locked_and_anyone_may_snap_on_any_grid() -> None:
    s = corte.game(THREE, stock_top=["7S"], first=1)
    s, _ = corte.turn(s, 1)  # a window on a 7
    s, _ = corte.act(s, 2, {"type": "CallCorte"})
    w = s.window.id
    s, ev = corte.act(s, 2, {"type": "SnapOwn", "window_id": w, "slot": "B", "penalty_to": "new"})
    assert corte.of(ev, "ClaimResolved").outcome == "correct"  # the caller snapped its own 7


def test_corte_by_default_a_power_with_a_target_must_be_used_but_the_king_may_keep() -> None:
    s = corte.game(THREE, stock_top=["6D"])
    s, _ = corte.turn(s, 0)
    offered = {a["type"] for a in CORTE.legal_actions(s, 0)}
    assert "PeekRival" in offered and offered <= {"PeekRival", "PlaceOrder", "CancelOrder"}
    with pytest.raises(WrongPhase):
        corte.act(s, 0, {"type": "SkipPower"})
    s = corte.game(THREE, stock_top=["KS"])
    s, _ = corte.turn(s, 0)
    s, _ = corte.act(s, 0, {"type": "KingLook", "own_slot": "B", "rival": 1, "rival_slot": "A"})
    s, ev = corte.act(s, 0, {"type": "KingKeep"})
    assert corte.names(ev)[0] == "KingKept"


def test_cuatro_cartas_by_default_the_closer_may_still_match_and_be_swapped() -> None:
    s = quatro.table([["5S", "6S", "7S", "10S"], ["4H", "9H", "JH", "QH"]], upcard="5H", stock=["KD"])
    _, s = quatro.send(s, 0, {"type": "Close"})
    events, s = quatro.send(s, 0, {"type": "Match", "window_id": quatro.wid(s), "slot": "A"})
    assert quatro.of(events, "ClaimResolved")[0].outcome == "correct"
    _, s = quatro.send(s, 1, {"type": "Draw", "source": "stock"})  # the KD: look, then swap
    _, s = quatro.send(s, 1, {"type": "DiscardDrawn", "close": False})
    _, s = quatro.send(s, 1, {"type": "Look", "targets": [], "close": False})
    events, s = quatro.send(s, 1, {"type": "Swap", "a": [0, "B"], "b": [1, "A"], "close": False})
    assert quatro.names(events)[0] == "CardsSwapped" and quatro.card(s, 0, "B") == "4H"


def test_cuatro_cartas_by_default_a_pile_king_discarded_again_fires_no_power() -> None:
    s = quatro.table([["5S", "6S", "7S", "10S"], ["4H", "9H", "JH", "QH"]], upcard="KC")
    _, s = quatro.send(s, 0, {"type": "Draw", "source": "discard"})
    events, s = quatro.send(s, 0, {"type": "DiscardDrawn", "close": False})
    assert "PowerStarted" not in quatro.names(events) and s.turn == 1


def test_cuatro_cartas_rediscard_power_true_lets_a_pile_king_fire_then_the_window_opens() -> None:
    s = quatro.table([["5S", "6S", "7S", "10S"], ["4H", "9H", "JH", "QH"]], upcard="KC",
                     options={"rediscard_power": True})
    _, s = quatro.send(s, 0, {"type": "Draw", "source": "discard"})
    events, s = quatro.send(s, 0, {"type": "DiscardDrawn", "close": False})
    assert quatro.names(events)[-1] == "PowerStarted" and s.step == "POWER_LOOK" and s.window is None
    events, s = quatro.send(s, 0, {"type": "SkipPower", "close": False})
    assert quatro.of(events, "WindowOpened")[0].card == "KC" and s.turn == 1


def test_pedro_lists_the_discard_of_every_card_but_the_kept_one_in_a_penalty_round() -> None:
    state, _ = pedro_table([["7S", "7H", "7D", "7C", "JK"], ["9S", "9H", "9D", "8C"]], stock=["2C"],
                           penalty_seat=0)
    state, _ = pedro_act(state, 0, {"type": "Draw", "source": "stock"})
    everything = {"type": "Keep", "replace": "A", "also_discard": ["B", "C", "D", "E1"]}
    keeps = [a for a in PEDRO.legal_actions(state, 0) if a["type"] == "Keep"]
    assert covers(keeps, everything)
    assert len(keeps) == 5  # one entry per replace r (revision 4), standing for every subset of the other four
    assert sum(count(a) for a in keeps) == 5 * 2 ** 4
    state, events = pedro_act(state, 0, everything)
    assert one(events, "ClaimResolved").outcome == "correct"
    assert cards_of(state, 0) == {"A": "2C", "B": None, "C": None, "D": None, "E1": None}


# ---------------------------------------------------------------- games stored before revision 3

OLD_CORTE = {"lock_caller": True, "powers_optional": True}  # the defaults before revision 3


def test_a_corte_game_stored_with_the_old_defaults_keeps_them() -> None:
    s = corte.game(THREE, stock_top=["7S", "5D"], first=1, options=OLD_CORTE)
    s, _ = corte.turn(s, 1)
    s, _ = corte.act(s, 2, {"type": "CallCorte"})
    assert s.locked() == 2
    s, _ = corte.turn(s, 0)  # the 5: its power may be skipped
    s, ev = corte.act(s, 0, {"type": "SkipPower"})
    assert corte.of(ev, "PowerSkipped").reason == "declined"


def test_a_cuatro_cartas_option_set_stored_before_rediscard_power_is_kept_as_it_was() -> None:
    stored = {k: v for k, v in QUATRO.resolve_options({"lock_closer": True}, 2).items() if k != "rediscard_power"}
    assert QUATRO.resolve_options(stored, 2) == stored  # not completed with the new key
    started = QUATRO.start(2, stored, b"k" * 32)[0]
    assert started.options == stored  # so the audit's start() reproduces the stored GameStarted
    s = quatro.table([["5S", "6S", "7S", "10S"], ["4H", "9H", "JH", "QH"]], upcard="KC", options=stored)
    assert s.opts.rediscard_power is False and s.opts.lock_closer is True
    assert "rediscard_power" in QUATRO.resolve_options({"lock_closer": True}, 2)  # a new game has it


@pytest.mark.parametrize("name", ["corte", "cuatro-cartas", "pedro", "least-score"])
def test_no_option_description_cites_the_specification_and_each_points_to_the_rules_page(name: str) -> None:
    page = {"cuatro-cartas": "cuatro-cartas", "least-score": "least-score"}.get(name, name)
    for spec in rules.get(name).options:
        text = spec.schema()["description"]
        assert "RULES" not in text and "§" not in text, (spec.key, text)
        where = "docs/rules/README.md#common-options" if spec.key.startswith("common.") \
            else f"docs/rules/{page}.md#5-options"
        assert text.endswith(f"({where})"), (spec.key, text)
