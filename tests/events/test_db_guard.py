"""A request's guard (``Database.guard``): a check sent ahead of the next statement in the same
round trip. Refused, it raises ``NotLive`` and the statement after it never runs; passed, the
statement's results are there as usual; with no statement after it, ``settle`` runs it."""
from __future__ import annotations

import uuid

import pytest

from events import players
from events.errors import NotLive
from events.store import EventStore, NewEvent


def _append(store: EventStore, game: uuid.UUID) -> None:
    store.append(game, 0, [NewEvent("Opened", {"n": 1})], notify=False)


def test_a_refused_guard_skips_the_append_it_rides_ahead_of(store: EventStore) -> None:
    game = uuid.uuid4()
    players.require_live_token(store.db, "0" * 64)  # no such token
    with pytest.raises(NotLive):
        _append(store, game)
    assert store.head(game) is None  # nothing written, and the guard is spent
    _append(store, game)
    assert store.head(game) is not None and store.head(game)[0] == 1  # type: ignore[index]


def test_a_passed_guard_leaves_the_statement_and_its_results(store: EventStore) -> None:
    game = uuid.uuid4()
    store.db.guard("SELECT 1", ())
    _append(store, game)
    assert store.read(game)[0].type == "Opened"


def test_settle_runs_a_guard_that_no_statement_carried(store: EventStore) -> None:
    players.require_live_token(store.db, "0" * 64)
    with pytest.raises(NotLive):
        store.db.settle()
    store.db.settle()  # spent: nothing left to run
    store.db.guard("SELECT 1", ())
    store.db.unguard()
    _append(store, uuid.uuid4())  # forgotten: not refused


def test_a_refusal_when_the_statement_would_be_prepared_leaves_no_phantom_statement(database_url: str) -> None:
    """psycopg prepares a statement on a connection once it has run there five times; a refused
    guard ahead of that use makes the server skip the Parse. The statement's next use still runs
    (the connection it was counted on is not used again)."""
    from events.db import Database

    db = Database(database_url, max_size=1)  # one connection: the same one, or its replacement
    try:
        store = EventStore(db)
        game = uuid.uuid4()
        _append(store, game)
        for _ in range(5):  # the head's read, five times, each behind a passing guard
            db.guard("SELECT 1", ())
            assert store.head(game) is not None
        players.require_live_token(db, "0" * 64)
        with pytest.raises(NotLive):
            store.head(game)  # the sixth: psycopg sends a Parse, the server skips it
        for _ in range(6):
            db.guard("SELECT 1", ())
            assert store.head(game)[0] == 1  # type: ignore[index]
    finally:
        db.close()
