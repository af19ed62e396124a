"""Shared fixtures: a real PostgreSQL, one fresh migrated database per test."""
from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(scope="session")
def db_factory() -> Iterator[object]:
    from events.testing import DatabaseFactory, admin_url

    url, server = admin_url()
    factory = DatabaseFactory(url)
    yield factory
    factory.drop_all()
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
