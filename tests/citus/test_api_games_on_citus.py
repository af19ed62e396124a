"""The bots' end-to-end tests, on the cluster: a game played to the end by greedy seats through
`facedown serve` pointed at the coordinator (the same moves as in-process, then the audit's deals
re-derived), and `facedown bot` playing every game of its players."""
from __future__ import annotations

import pytest

from tests.e2e import test_bots_through_the_api as single
from tests.e2e.test_bots_through_the_api import *  # noqa: F401,F403 - the same tests, on the cluster
from tests.sdk.conftest import Served


# One ruleset here, not all four: every ruleset reaches the cluster through the same statements
# (a game's stream and its read models, distributed by game), and the single-server run plays all
# four. Corte's log has the most kinds of events (windows, snaps, powers, standing orders).
@pytest.mark.parametrize("ruleset", ["corte"])
def test_greedy_makes_the_same_moves_over_http_as_in_process_with_the_same_deal_and_seed(
        served: Served, ruleset: str) -> None:
    single.test_greedy_makes_the_same_moves_over_http_as_in_process_with_the_same_deal_and_seed(served, ruleset)
