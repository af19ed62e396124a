"""Where things are on the cluster: every table as planned, a game's rows on one worker, the log
append-only on its shards too."""
from __future__ import annotations

import uuid
from typing import Any

import psycopg
import pytest

from events import citus
from events.citus_cluster import LocalCluster
from events.db import connect

BY_GAME = [t for t, how in citus.PLAN.items() if how == "stream_id"]


def test_every_table_is_placed_and_the_append_is_delegated_as_planned(coordinator: str) -> None:
    with connect(coordinator) as conn:
        assert citus.placement(conn) == citus.PLAN
        groups = {r[0]: r[1] for r in conn.execute(
            "SELECT logicalrelid::regclass::text, colocationid FROM pg_dist_partition WHERE partmethod = 'h'")}
        # every distributed table in one co-location group: a game's rows and its players'
        # notifications move together when shards are rebalanced
        assert len(set(groups.values())) == 1, groups
        for signature, argument in citus.FUNCTIONS.items():
            row = conn.execute(
                "SELECT distribution_argument_index, colocationid FROM pg_dist_object"
                " WHERE objid = %s::regprocedure::oid", (signature,)).fetchone()
            assert row is not None and row[1] == groups["streams"], signature
            names = conn.execute("SELECT proargnames FROM pg_proc WHERE oid = %s::regprocedure::oid",
                                 (signature,)).fetchone()[0]
            assert names[row[0]] == argument


def _node_of(conn: Any, table: str, key: str) -> tuple[int, str, int]:
    row = conn.execute(
        "SELECT s.shardid, s.nodename, s.nodeport FROM citus_shards s"
        " WHERE s.shardid = get_shard_id_for_distribution_column(%s, %s::uuid)", (table, key)).fetchone()
    return row[0], row[1], row[2]


def test_a_games_events_and_every_row_of_it_are_on_one_worker(
        finished_game: str, coordinator: str, citus_cluster: LocalCluster) -> None:
    with connect(coordinator) as conn:
        places = {t: _node_of(conn, t, finished_game) for t in BY_GAME}
        version = conn.execute("SELECT version FROM streams WHERE stream_id = %s", (finished_game,)).fetchone()[0]
    nodes = {(host, port) for _, host, port in places.values()}
    assert len(nodes) == 1, places
    (_, port), = nodes
    assert port != citus_cluster.ports[0], "a game's shard is on a worker, not on the coordinator"
    shard = places["events"][0]
    database = psycopg.conninfo.conninfo_to_dict(coordinator)["dbname"]
    holder = citus_cluster.ports.index(port)
    with psycopg.connect(citus_cluster.url(holder, database)) as conn:
        stored = conn.execute(f"SELECT count(*), min(version), max(version) FROM events_{shard}"
                              " WHERE stream_id = %s", (finished_game,)).fetchone()
    assert stored == (version, 1, version)
    for other in range(1, len(citus_cluster.ports)):
        if other != holder:
            with psycopg.connect(citus_cluster.url(other, database)) as conn:
                assert conn.execute("SELECT to_regclass(%s)", (f"events_{shard}",)).fetchone()[0] is None
    print(f"game {finished_game}: its {version} events are in shard events_{shard} on the worker "
          f"127.0.0.1:{port}, with its head, snapshot, index row, seats, secret and processed commands")


def test_the_log_stays_append_only_on_the_cluster_and_on_the_shards(
        finished_game: str, coordinator: str, citus_cluster: LocalCluster) -> None:
    with connect(coordinator) as conn:
        shard, _, port = _node_of(conn, "events", finished_game)
        for statement in ("UPDATE events SET type = 'X' WHERE stream_id = %s",
                          "DELETE FROM events WHERE stream_id = %s"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege, match="append-only"):
                conn.execute(statement, (finished_game,))  # type: ignore[arg-type]
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="append-only"):
            conn.execute("TRUNCATE events")
    database = psycopg.conninfo.conninfo_to_dict(coordinator)["dbname"]
    # the shard itself, on its worker, even as a superuser
    with psycopg.connect(citus_cluster.url(citus_cluster.ports.index(port), database), autocommit=True) as conn:
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="append-only"):
            conn.execute(f"UPDATE events_{shard} SET type = 'X' WHERE stream_id = %s", (finished_game,))
    # the service's own login may not write a table at all
    with connect(coordinator) as conn:
        conn.execute("SET ROLE facedown_app")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("INSERT INTO streams (stream_id) VALUES (%s)", (uuid.uuid4(),))
    with connect(coordinator) as conn:
        conn.execute("SET ROLE facedown_app")
        # nor call the read models' writer that the Citus form of the functions put in place
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("SELECT fd_apply(%s, '{\"op\": \"webhook_remove\", \"row\": {}}')", (uuid.uuid4(),))
