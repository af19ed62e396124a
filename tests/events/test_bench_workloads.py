"""The benchmark workloads measure what they claim: set-up is not timed, and the peer's
aggregates do not grow with the length of the run."""
from __future__ import annotations

import time

from service.tools.bench.threads import run_threads
from service.tools.bench.peer import peer_commands


def test_a_threads_set_up_is_not_counted_in_the_measured_time() -> None:
    def factory(_: int):  # type: ignore[no-untyped-def]
        time.sleep(0.6)  # as long as the measurement itself

        def op() -> None:
            time.sleep(0.01)

        return op

    result = run_threads(2, 0.6, factory)
    # about 60 operations per thread in 0.6 s; counting the set-up would halve the rate
    assert result["operations"] >= 60
    assert result["per_second"] > 150


def test_the_peer_spreads_its_commands_over_a_ring_of_warm_aggregates(database_url: str) -> None:
    result = peer_commands(database_url, threads=2, seconds=0.5, warm_events=10, ring=4)
    ops = result["operations"]
    assert ops > 8 and result["aggregates_per_thread"] == 4 and result["warm_events"] == 10
    # each load replays the warm events plus this run's earlier commands on that aggregate
    # (the aggregate's creation counts as its first version)
    per_aggregate = ops / (2 * 4)
    assert 11 <= result["mean_events_loaded"] <= 11 + per_aggregate / 2 + 1
