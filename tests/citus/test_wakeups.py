"""Wake-ups across the cluster's nodes. An append runs on the worker that holds its game, so a
NOTIFY sent inside it is heard on that worker only: a process listens on every node
(service/adapters/wakeups.py). The service's own hints, sent after commit through the coordinator, reach
the listener there. Both wake a waiter; the latencies are printed (docs/deployment-citus.md)."""
from __future__ import annotations

import statistics
import time
import uuid
from collections.abc import Iterator

import pytest

from events.citus import node_urls, workers
from events.citus_cluster import LocalCluster
from events.db import Database, connect
from events.notify import Listener
from events.store import EventStore, NewEvent
from service.adapters.wakeups import Live

ROUNDS = 20


@pytest.fixture
def live(coordinator: str) -> Iterator[Live]:
    hub = Live(coordinator)
    hub.waiters()  # listening on every node from here on
    yield hub
    hub.close()


@pytest.fixture
def store(coordinator: str) -> Iterator[EventStore]:
    db = Database(coordinator, max_size=2)  # as the service's role, as the service appends
    yield EventStore(db)
    db.close()


def _on_a_worker(coordinator: str, cluster: LocalCluster) -> uuid.UUID:
    sid = uuid.uuid4()
    with connect(coordinator) as conn:
        port = conn.execute("SELECT nodeport FROM citus_shards WHERE shardid ="
                            " get_shard_id_for_distribution_column('events', %s::uuid)", (sid,)).fetchone()[0]
    assert port in cluster.ports[1:]
    return sid


def _wake(live: Live, store: EventStore, sid: uuid.UUID, version: int, relay: bool) -> float:
    """Seconds from the append's call until the waiter of its stream wakes."""
    with live.waiters().watch(str(sid)) as watch:
        start = time.perf_counter()
        store.append(sid, version, [NewEvent("Probe", {"n": version + 1})], kind="probe", notify=not relay)
        if relay:
            live.hint(sid, version + 1)
        assert watch.wait(10), "the waiter was not woken"  # its own timer is not involved
        return time.perf_counter() - start


def test_a_waiter_wakes_when_its_games_append_ran_on_a_worker(
        coordinator: str, citus_cluster: LocalCluster, live: Live, store: EventStore) -> None:
    with connect(coordinator) as conn:  # this database's workers (a test may add one to the cluster)
        assert len(node_urls(coordinator)) == 1 + len(workers(conn)) >= 3
    sid = _on_a_worker(coordinator, citus_cluster)
    # a NOTIFY inside the append, sent on the worker that ran it
    in_append = [_wake(live, store, sid, v, relay=False) for v in range(ROUNDS)]
    # the service's way: the hint after commit, through the coordinator
    relayed = [_wake(live, store, sid, v, relay=True) for v in range(ROUNDS, 2 * ROUNDS)]
    print(f"append on a worker -> waiter awake: NOTIFY on the worker median "
          f"{statistics.median(in_append) * 1000:.1f} ms (max {max(in_append) * 1000:.1f}); hint relayed "
          f"through the coordinator median {statistics.median(relayed) * 1000:.1f} ms "
          f"(max {max(relayed) * 1000:.1f}); {ROUNDS} appends each")


def test_a_listener_on_the_coordinator_alone_would_not_hear_the_append(
        coordinator: str, citus_cluster: LocalCluster, live: Live, store: EventStore) -> None:
    """Why the service listens on every node: the worker's NOTIFY never reaches the coordinator."""
    sid = _on_a_worker(coordinator, citus_cluster)
    heard: list[str | None] = []
    solo = Listener(coordinator, heard.append)
    try:
        assert solo.connected.wait(5)
        _wake(live, store, sid, 0, relay=False)
        time.sleep(0.5)  # the coordinator's listener had the same chance
        assert str(sid) not in heard
        _wake(live, store, sid, 1, relay=True)
        deadline = time.monotonic() + 5
        while str(sid) not in heard and time.monotonic() < deadline:
            time.sleep(0.01)
        assert str(sid) in heard  # the relayed hint does reach it
    finally:
        solo.close()
