"""A live Citus cluster (a coordinator and two workers on this machine) for the tests of this
directory, started once per session and stopped at its end.

Every test here is marked ``citus``. Where Citus is not installed they are skipped, saying why;
on CI (``CI=true``) they fail instead: CI installs Citus (``.ci/run``) and must run them.

``db_factory`` is overridden here: the fixtures the rest of the suite builds on it (a live
server, ``facedown serve``, a fresh database) give, in this directory, a fresh database of the
cluster, migrated and distributed by facedown itself.
"""
from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from typing import Any
from pathlib import Path

import pytest

from events.citus_cluster import LocalCluster, citus_missing
from facedown_client import Client, play_seats, random_policy
from service.tools.contract.conformance import SHORT
from tests.sdk.conftest import Served, facedown_serve
from tests.service.conftest import live  # noqa: F401 - a fixture, found by pytest by its name

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in Path(str(item.fspath)).resolve().parents:
            item.add_marker(pytest.mark.citus)


class ClusterDatabases:
    """``db_factory`` on the cluster: each :meth:`new` is a fresh distributed database.

    One database is migrated and distributed by facedown itself (about 8 s on three nodes), then
    kept as a template: each fresh one is a copy of it made on every node under one name, as the
    template's own metadata (the same nodes, the database of the same name on each) expects,
    in about a second. A node added since (tests/citus/test_rebalance.py) gets a new template."""

    def __init__(self, cluster: LocalCluster) -> None:
        self.cluster = cluster
        self.count = 0
        self.templates: dict[tuple[int, ...], str] = {}  # the cluster's nodes -> their template

    def new(self) -> str:
        import psycopg

        from events import citus
        from events.db import connect

        nodes = tuple(self.cluster.ports)
        template = self.templates.get(nodes) or self._template(nodes)
        self.count += 1
        name = f"fd_{self.count}_{uuid.uuid4().hex[:6]}"
        for node in range(len(nodes)):
            with psycopg.connect(self.cluster.url(node, "postgres"), autocommit=True) as conn:
                conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}" STRATEGY WAL_LOG')  # type: ignore[arg-type]
            with psycopg.connect(self.cluster.url(node, name), autocommit=True) as conn:
                # Citus lists the database among its distributed objects by its oid: the copy is
                # its own database, not the template (else adding a node would create the template)
                conn.execute("UPDATE pg_dist_object SET objid = (SELECT oid FROM pg_database WHERE datname = %s)"
                             " WHERE classid = 'pg_database'::regclass"
                             " AND objid = (SELECT oid FROM pg_database WHERE datname = %s)", (name, template))
        url = self.cluster.url(0, name)
        with connect(url) as conn:
            assert citus.placement(conn) == citus.PLAN, "the database is not distributed as planned"
        return url

    def _template(self, nodes: tuple[int, ...]) -> str:
        """A database migrated and distributed as planned, closed to connections on every node:
        a database is copied only while nobody is connected to it, and Citus keeps its maintenance
        daemon and its own connections between the nodes on each of its databases."""
        import psycopg

        from events import citus, migrations
        from events.db import connect

        name = f"fd_template_{len(self.templates)}_{uuid.uuid4().hex[:6]}"
        url = self.cluster.new_database(name)
        migrations.upgrade(url)  # on a coordinator: the migrations, then the distribution
        with connect(url) as conn:
            assert citus.placement(conn) == citus.PLAN, "the database is not distributed as planned"
        for node in range(len(nodes)):
            with psycopg.connect(self.cluster.url(node, "postgres"), autocommit=True) as conn:
                conn.execute(f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS false')  # type: ignore[arg-type]
                conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,))
                _wait_until_unused(conn, name)
        self.templates[nodes] = name
        return name


def _wait_until_unused(conn: Any, name: str) -> None:
    """Until the backends told to end have ended (pg_terminate_backend only signals them)."""
    import time

    deadline = time.monotonic() + 10
    while conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s", (name,)).fetchone()[0]:
        assert time.monotonic() < deadline, f"the template {name} is still in use"
        time.sleep(0.02)


# package-scoped (as what is built on it): the cluster stops when the last test of this directory
# has run, not when the process that ran them has run all its other shares too
@pytest.fixture(scope="package")
def citus_cluster() -> Iterator[LocalCluster]:
    why = citus_missing()
    if why:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must run the Citus tests, but {why}", pytrace=False)
        pytest.skip(f"Citus tests skipped: {why}")
    # 8 shards per table rather than Citus's 32: still several on each worker, so routing,
    # co-location, queries over every shard and a rebalance are what they are with 32; but a
    # copy of a database, a query over every shard and a rebalance each touch a quarter of the
    # tables (docs/performance.md, "Ninth look")
    cluster = LocalCluster(workers=2, shard_count=8)
    cluster.start()
    yield cluster
    cluster.stop()


@pytest.fixture(scope="package")
def db_factory(citus_cluster: LocalCluster) -> ClusterDatabases:
    return ClusterDatabases(citus_cluster)


@pytest.fixture(scope="package")
def coordinator(db_factory: ClusterDatabases) -> str:
    """One distributed database shared by the tests that only add their own games (a fresh one
    is a copy of the template on three nodes, about a second)."""
    return db_factory.new()


@pytest.fixture(scope="module")
def served_cluster(coordinator: str) -> Any:
    """`facedown serve` on the shared database, through the coordinator (one per module)."""
    yield from facedown_serve(coordinator)


@pytest.fixture(scope="module")
def finished_game(served_cluster: Served) -> str:
    """A game of least-score played to its end through `facedown serve` on the coordinator."""
    seats = [Client(served_cluster.url) for _ in range(2)]
    for i, c in enumerate(seats):
        c.register(f"placed-{i}")
    gid = seats[0].create_game("least-score", 2, SHORT["least-score"]).id
    seats[1].join(gid)
    play_seats(seats, gid, random_policy, seed=3)
    assert seats[0].game(gid).status == "finished"
    return gid
