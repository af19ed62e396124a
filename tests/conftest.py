"""Shared fixtures: a real PostgreSQL, one fresh migrated database per test; and how the
suite is shared between parallel processes."""
from __future__ import annotations

from collections.abc import Iterator

import pytest

#: directories whose tests share one costly session fixture, so run in one process together:
#: a Citus cluster of three servers, a browser with its server
_ONE_PROCESS = ("tests/citus/", "tests/browser/")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The suite runs in parallel processes (pytest-xdist, ``--dist loadgroup``): each module
    stays in one process, so that its module-scoped server starts once, and each directory of
    ``_ONE_PROCESS`` stays in one, so that its cluster or browser does."""
    for item in items:
        module = item.nodeid.split("::")[0]
        group = next((d for d in _ONE_PROCESS if module.startswith(d)), module)
        item.add_marker(pytest.mark.xdist_group(group))


@pytest.fixture(scope="session")
def db_factory() -> Iterator[object]:
    from events.testing import DatabaseFactory, admin_url

    url, server = admin_url()
    factory = DatabaseFactory(url)
    yield factory
    # on a shared server the drops (a checkpoint each) finish after the run, not before its end
    factory.drop_all(background=server is None)
    if server is not None:
        server.stop()


@pytest.fixture
def database_url(db_factory: object) -> str:
    """The URL of a fresh, migrated database used by this test alone."""
    return db_factory.new()  # type: ignore[attr-defined,no-any-return]


@pytest.fixture
def store(database_url: str) -> Iterator[object]:
    from events.db import Database
    from events.store import EventStore

    db = Database(database_url, max_size=12)
    yield EventStore(db)
    db.close()
