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
    """``db_factory`` on the cluster: each :meth:`new` is a fresh distributed database."""

    def __init__(self, cluster: LocalCluster) -> None:
        self.cluster = cluster
        self.count = 0

    def new(self) -> str:
        from events import citus, migrations
        from events.db import connect

        self.count += 1
        url = self.cluster.new_database(f"fd_{self.count}_{uuid.uuid4().hex[:6]}")
        migrations.upgrade(url)  # on a coordinator: the migrations, then the distribution
        with connect(url) as conn:
            assert citus.placement(conn) == citus.PLAN, "the database is not distributed as planned"
        return url


@pytest.fixture(scope="session")
def citus_cluster() -> Iterator[LocalCluster]:
    why = citus_missing()
    if why:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must run the Citus tests, but {why}", pytrace=False)
        pytest.skip(f"Citus tests skipped: {why}")
    cluster = LocalCluster(workers=2)
    cluster.start()
    yield cluster
    cluster.stop()


@pytest.fixture(scope="session")
def db_factory(citus_cluster: LocalCluster) -> ClusterDatabases:
    return ClusterDatabases(citus_cluster)


@pytest.fixture(scope="session")
def coordinator(db_factory: ClusterDatabases) -> str:
    """One distributed database shared by the tests that only add their own games (a fresh one
    costs a migration and a distribution on three nodes, about 8 s)."""
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
