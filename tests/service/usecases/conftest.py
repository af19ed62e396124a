"""The use cases called directly, as plain functions, on a real PostgreSQL: each test gets a
fresh migrated database and the dependencies the app would give the use cases (the service's
own login, its store, wake-ups and repository), without any HTTP in between."""
from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from events import roles
from events.db import Database
from events.store import EventStore
from service.adapters.wakeups import Live
from service.config import Config
from service.usecases import accounts, lobby
from service.usecases.dependencies import Dependencies


def dependencies(database_url: str) -> Dependencies:
    """What ``create_app`` gives the use cases, for the database at ``database_url``."""
    db = Database(roles.service_url(database_url), max_size=4)
    return Dependencies(Config(database_url=database_url), EventStore(db), db, Live(db.url))


@pytest.fixture
def deps(database_url: str) -> Iterator[Dependencies]:
    made = dependencies(database_url)
    yield made
    made.close()


def player(deps: Dependencies, name: str) -> tuple[str, str]:
    """A registered player: (id, name)."""
    return accounts.register_player(deps, name)["id"], name


def two_seat_game(deps: Dependencies, ruleset: str = "pedro") -> tuple[uuid.UUID, tuple[str, str], tuple[str, str]]:
    """A game of two players, dealt: its id, its creator (seat 0) and the other player (seat 1)."""
    ann, bob = player(deps, "ann"), player(deps, "bob")
    cur, _ = lobby.create_game(deps, ann, ruleset, 2, {}, None, True, None)
    gid = uuid.UUID(cur.game.id)
    lobby.join_game(deps, gid, bob, None)
    return gid, ann, bob
