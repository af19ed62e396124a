"""Adding a worker and rebalancing (docs/deployment-citus.md): the new worker takes whole shard
groups, a moved game keeps its rows together and plays on, and its log stays append-only."""
from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from events import citus
from events.citus_cluster import LocalCluster
from events.db import Database, connect
from events.notifications import Item, effect
from events.store import EventStore, NewEvent

BY_STREAM = [t for t, how in citus.PLAN.items() if how == "stream_id"]


@pytest.fixture(scope="module")
def database(db_factory: Any) -> str:
    return db_factory.new()  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def store(database: str) -> Iterator[EventStore]:
    db = Database(database, max_size=2)
    yield EventStore(db)
    db.close()


def _nodes_of(conn: Any, stream: uuid.UUID) -> dict[str, int]:
    return {table: conn.execute(
        "SELECT nodeport FROM citus_shards WHERE shardid = get_shard_id_for_distribution_column(%s, %s::uuid)",
        (table, stream)).fetchone()[0] for table in BY_STREAM}


def _append(store: EventStore, stream: uuid.UUID, version: int, player: str) -> int:
    return store.append(stream, version, [NewEvent("Step", {"n": version + 1})], kind="probe", notify=False,
                        effects=[effect([Item(player, "your_turn", str(stream), version + 1)])]).version


def test_a_new_worker_takes_whole_shard_groups_and_a_moved_game_plays_on(
        database: str, store: EventStore, citus_cluster: LocalCluster) -> None:
    streams = {uuid.uuid4(): str(uuid.uuid4()) for _ in range(40)}  # stream -> a player it notifies
    for stream, player in streams.items():
        _append(store, stream, _append(store, stream, 0, player), player)
    name = psycopg.conninfo.conninfo_to_dict(database)["dbname"]
    new = citus_cluster.add_worker(name)
    with connect(database) as conn:
        conn.execute("SELECT citus_rebalance_start(shard_transfer_mode => 'block_writes')")
        conn.execute("SELECT citus_rebalance_wait()")
        moved = [s for s in streams if set(_nodes_of(conn, s).values()) == {citus_cluster.ports[new]}]
        # a stream's shard group moved as a whole: every table of it on one node, moved or not
        assert all(len(set(_nodes_of(conn, s).values())) == 1 for s in streams)
        shard = conn.execute("SELECT get_shard_id_for_distribution_column('events', %s::uuid)",
                             (moved[0],)).fetchone()[0] if moved else None
    assert moved, "the new worker took no shard"
    for stream in moved:
        assert _append(store, stream, 2, streams[stream]) == 3
        assert store.verify(stream) is None  # the hash chain runs on across the move
    with connect(database) as conn:
        heads = [conn.execute("SELECT seq FROM notification_heads WHERE player_id = %s", (streams[s],)).fetchone()[0]
                 for s in moved]
    assert heads == [3] * len(moved)
    # the triggers came along with the moved shard
    with psycopg.connect(citus_cluster.url(new, name), autocommit=True) as conn:
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="append-only"):
            conn.execute(f"DELETE FROM events_{shard}")
    print(f"{len(moved)} of {len(streams)} streams moved to the new worker 127.0.0.1:{citus_cluster.ports[new]}")
