"""``facedown simulate`` with bots that leave standing orders keeps every invariant.

The full check is 1,000 games of each game with windows; the suite runs a smaller count
of the same command, and counts that the orders were really left, fired and cancelled.
"""
from __future__ import annotations

import json
from collections import Counter

import pytest
from click.testing import CliRunner

from domain import rules
from domain.simulation import play
from service.entrypoints.cli_simulate import simulate


@pytest.mark.parametrize("ruleset, bot, games", [("corte", "greedy", 40), ("cuatro-cartas", "greedy", 40),
                                                  ("corte", "random", 60), ("cuatro-cartas", "random", 60)])
def test_simulate_with_order_leaving_bots_passes_every_invariant(ruleset: str, bot: str, games: int) -> None:
    result = CliRunner().invoke(simulate, ["--ruleset", ruleset, "--players", "4", "--games", str(games),
                                           "--seed", "1", "--bot", bot, "--json"])
    report = json.loads(result.output[result.output.index("{"):])
    assert result.exit_code == 0 and report["ok"], report["invariants"]
    assert all(check["ok"] for check in report["invariants"].values())
    kinds = report["event_types"]  # the orders were left, fired and cancelled
    assert kinds["OrderPlaced"] > 0 and kinds["OrderFired"] > 0 and kinds["OrderCancelled"] > 0


@pytest.mark.parametrize("ruleset", ["corte", "cuatro-cartas"])
def test_the_greedy_bots_leave_orders_that_fire_right_wrong_or_late_and_get_cancelled(ruleset: str) -> None:
    seen: Counter[str] = Counter()
    for seed in range(1, 6):
        for e in play(rules.get(ruleset), 4, {}, seed, "greedy").events:
            name = type(e).__name__
            seen[name] += 1
            if name == "OrderCancelled":
                seen[e.reason] += 1
    assert seen["OrderPlaced"] > 100 and seen["OrderFired"] > 20 and seen["OrdersRevealed"] > 10
    assert seen["slot_changed"] > 0 and seen["round_ended"] > 0
