"""Store workloads: appends through the event store, and the plain-INSERT floor beside them."""
from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from events.bench_sql import PAYLOAD, floor_insert, floor_setup
from events.db import Database
from events import migrations, notifications
from events.notifications import Item
from events.notify import Notifier
from events.store import EventStore, NewEvent, Snapshot
from service.tools.bench.threads import run_threads


def store_appends(db: Database, threads: int, seconds: float, snapshot_bytes: int = 0,
                  batched_hints: bool = True, notified: int = 0) -> dict[str, Any]:
    """Each thread appends one event at a time to its own game, with the expected version.

    With ``batched_hints`` (what the service does) the wake-up NOTIFY is sent after
    commit by a :class:`~events.notify.Notifier`; otherwise inside the append. ``notified``:
    each append also writes a notification for that many players of its game (as a command
    does), numbered in the append's transaction.
    """
    store = EventStore(db)
    notifier = Notifier(db.url) if batched_hints else None

    def factory(_: int) -> Callable[[], None]:
        game = uuid.uuid4()
        version = [0]
        snap = b"s" * snapshot_bytes
        players = [str(uuid.uuid4()) for _ in range(notified)]

        def op() -> None:
            effects = [notifications.effect([Item(p, "your_turn", str(game), version[0] + 1) for p in players])]
            result = store.append(game, version[0], [NewEvent("Bench", PAYLOAD, {"actor": 1})],
                                  snapshot=Snapshot(version[0] + 1, "bench", snap) if snapshot_bytes else None,
                                  notify=not batched_hints, effects=effects if notified else ())
            version[0] = result.version
            if notifier is not None:
                notifier.hint(game, result.version)

        return op

    try:
        return run_threads(threads, seconds, factory)
    finally:
        if notifier is not None:
            notifier.close()


def plain_inserts(db: Database, threads: int, seconds: float) -> dict[str, Any]:
    """The floor: one single-row INSERT per transaction, from psycopg, same payload."""
    floor_setup(db)

    def factory(_: int) -> Callable[[], None]:
        game = uuid.uuid4()
        return lambda: floor_insert(db, game)

    return run_threads(threads, seconds, factory)


def single_node_and_cluster(seconds: float, threads: tuple[int, ...] = (1, 4, 8)) -> list[dict[str, Any]]:
    """Appends on a 3-node Citus cluster (a coordinator, two workers) and on one plain node,
    both started here with the same settings (durable commits), in one run: plain appends,
    and appends that notify three players (whose shards may be on the other worker)."""
    from events.citus_cluster import LocalCluster

    rows: list[dict[str, Any]] = []
    for setup, cluster in (("single node", LocalCluster(citus=False, durable=True)),
                           ("Citus 3 nodes", LocalCluster(workers=2, durable=True))):
        try:
            url = cluster.start()
            migrations.upgrade(url)
            db = Database(url, min_size=8, max_size=8)
            try:
                for n in threads:
                    rows.append({"setup": setup, "workload": "store append", **store_appends(db, n, seconds)})
                    rows.append({"setup": setup, "workload": "append+3 notified",
                                 **store_appends(db, n, seconds, notified=3)})
            finally:
                db.close()
        finally:
            cluster.stop()
    return rows
