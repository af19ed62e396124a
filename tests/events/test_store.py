"""The event store contract, on a real PostgreSQL."""
from __future__ import annotations

import statistics
import threading
import time
import uuid
from typing import Any

import psycopg
import pytest

from events.db import Database
from events.errors import AppendOnly, ConcurrencyError, IdempotencyConflict
from events.store import EventStore, FeedCursor, NewEvent, Snapshot


def ev(n: int) -> NewEvent:
    return NewEvent("Tested", {"n": n, "text": "ñ ü €"}, {"actor": "test"})


def test_versions_start_at_one_and_chain_verifies(store: EventStore) -> None:
    game = uuid.uuid4()
    first = store.append(game, 0, [ev(1), ev(2)])
    second = store.append(game, 2, [ev(3)])
    assert (first.first_version, first.last_version, second.version) == (1, 2, 3)
    assert [e.version for e in store.read(game)] == [1, 2, 3]
    assert store.read(game)[1].prev_hash == store.read(game)[0].hash
    assert store.head(game) == (3, store.read(game)[-1].hash)
    assert store.verify(game) is None


def test_stale_expected_version_raises_with_actual_and_writes_nothing(store: EventStore) -> None:
    game = uuid.uuid4()
    store.append(game, 0, [ev(1), ev(2)])
    with pytest.raises(ConcurrencyError) as info:
        store.append(game, 1, [ev(3)])
    assert info.value.actual == 2
    assert len(store.read(game)) == 2


def test_eight_threads_racing_on_one_game_get_gap_free_versions(store: EventStore) -> None:
    game = uuid.uuid4()
    store.append(game, 0, [ev(0)])
    losers: list[int] = []
    barrier = threading.Barrier(8)
    per_thread = 10

    def worker(t: int) -> None:
        barrier.wait()
        for i in range(per_thread):
            while True:
                version = store.head(game)[0]  # type: ignore[index]
                try:
                    store.append(game, version, [ev(t * 100 + i)])
                    break
                except ConcurrencyError as exc:
                    assert exc.actual > version or exc.actual != version
                    losers.append(t)

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    versions = [e.version for e in store.read(game)]
    assert versions == list(range(1, 8 * per_thread + 2))
    assert sorted(e.data["n"] for e in store.read(game))[1:] == sorted(t * 100 + i for t in range(8) for i in range(per_thread))
    assert losers, "with 8 racing threads some appends must have lost"
    assert store.verify(game) is None


def test_a_retry_with_the_same_command_id_returns_the_first_result(store: EventStore) -> None:
    game = uuid.uuid4()
    first = store.append(game, 0, [ev(1), ev(2)], command_id="c1", request_hash="h")
    again = store.append(game, 0, [ev(1), ev(2)], command_id="c1", request_hash="h")
    assert again.duplicate and (again.first_version, again.last_version) == (first.first_version, first.last_version)
    assert len(store.read(game)) == 2
    with pytest.raises(IdempotencyConflict):
        store.append(game, 2, [ev(9)], command_id="c1", request_hash="other")
    assert len(store.read(game)) == 2


@pytest.mark.parametrize("statement", [
    "UPDATE events SET data = '{}'::jsonb",
    "DELETE FROM events",
    "TRUNCATE events",
    "TRUNCATE events CASCADE",
])
def test_the_log_refuses_changes_as_the_service_role(store: EventStore, statement: str) -> None:
    game = uuid.uuid4()
    store.append(game, 0, [ev(1)])
    with pytest.raises(AppendOnly):
        with store.db.connection() as conn:
            assert conn.execute("SELECT current_user").fetchone()[0] == "facedown_app"  # type: ignore[index]
            conn.execute(statement)
    assert len(store.read(game)) == 1


@pytest.mark.parametrize("statement", [
    "UPDATE events SET data = '{}'::jsonb",
    "DELETE FROM events",
    "TRUNCATE events",
])
def test_the_log_refuses_changes_even_as_owner_or_superuser(database_url: str, store: EventStore,
                                                            statement: str) -> None:
    game = uuid.uuid4()
    store.append(game, 0, [ev(1)])
    owner = Database(database_url, service_role=False)
    try:
        with pytest.raises(AppendOnly):
            with owner.connection() as conn:
                conn.execute(statement)
    finally:
        owner.close()
    assert len(store.read(game)) == 1


def test_tampering_with_triggers_disabled_is_found_at_its_version(database_url: str, store: EventStore) -> None:
    game = uuid.uuid4()
    store.append(game, 0, [ev(n) for n in range(1, 8)])
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute("ALTER TABLE events DISABLE TRIGGER USER")
        conn.execute("UPDATE events SET data = jsonb_set(data, '{n}', '99') WHERE stream_id = %s AND version = 5",
                     (game,))
        conn.execute("ALTER TABLE events ENABLE TRIGGER USER")
    assert store.verify(game) == 5


def test_the_global_feed_waits_for_a_transaction_that_commits_late(database_url: str, store: EventStore) -> None:
    early, late, later = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    store.append(early, 0, [ev(1)])
    slow = psycopg.connect(database_url)  # not autocommit: holds its transaction open
    try:
        slow.execute("SELECT * FROM fd_append(%s, 'game', 0, NULL, NULL, %s::jsonb, NULL, NULL)",
                     (late, '[{"type":"Late","schema_version":1,"data":{},"metadata":{},"canonical":"{}"}]'))
        store.append(later, 0, [ev(2)])  # a later transaction commits first
        seen, cursor = store.feed(FeedCursor())
        assert late not in {e.stream_id for e in seen}
        slow.commit()
        # the horizon is the cluster's oldest running transaction, and other databases on the
        # same server (parallel test processes) may hold it back for a moment: read on until
        # every event has come, the late one and the one committed before it
        more: list[Any] = []
        deadline = time.monotonic() + 30
        while not {late, later} <= {e.stream_id for e in seen + more} and time.monotonic() < deadline:
            page, cursor = store.feed(cursor)
            more += page
            time.sleep(0.05)
        assert late in {e.stream_id for e in more}, "the late commit was skipped"
        everything = [e.stream_id for e in seen + more]
        assert len(everything) == 3
    finally:
        slow.close()


def test_a_snapshot_with_another_fingerprint_is_ignored(store: EventStore) -> None:
    game = uuid.uuid4()
    store.append(game, 0, [ev(1), ev(2)], snapshot=Snapshot(2, "old-code", b"old-state"))
    loaded = store.load(game, "new-code")
    assert loaded is not None and loaded.snapshot is None and [e.version for e in loaded.events] == [1, 2]
    loaded = store.load(game, "old-code")
    assert loaded is not None and loaded.snapshot is not None and loaded.events == []


def _median_load_seconds(store: EventStore, game: uuid.UUID, runs: int = 60) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        loaded = store.load(game, "fp")
        times.append(time.perf_counter() - t0)
        assert loaded is not None and loaded.snapshot is not None
    return statistics.median(times)


def test_a_long_game_loads_as_fast_as_a_short_one(store: EventStore) -> None:
    short, long_ = uuid.uuid4(), uuid.uuid4()
    store.append(short, 0, [ev(n) for n in range(50)], snapshot=Snapshot(50, "fp", b"s" * 2000))
    for start in range(0, 5000, 500):
        store.append(long_, start, [ev(n) for n in range(500)],
                     snapshot=Snapshot(start + 500, "fp", b"s" * 2000))
    _median_load_seconds(store, long_, 10)  # warm up
    t_short = _median_load_seconds(store, short)
    t_long = _median_load_seconds(store, long_)
    assert t_long < t_short * 1.5 + 0.0005, (t_short, t_long)


def test_an_effect_is_written_with_the_append_and_only_if_it_happened(store: EventStore) -> None:
    from datetime import datetime, timezone

    from events import game_index

    game = uuid.uuid4()

    def row(version: int, status: str) -> game_index.IndexRow:
        return game_index.IndexRow(game, "corte", "g", status, [], [], datetime.now(timezone.utc), version)

    store.append(game, 0, [ev(1)], effects=[game_index.index_effect(row(1, "open"))])
    assert [(r.status, r.version) for r in game_index.all_rows(store.db)] == [("open", 1)]
    with pytest.raises(ConcurrencyError):
        store.append(game, 0, [ev(2)], effects=[game_index.index_effect(row(2, "active"))])
    assert [(r.status, r.version) for r in game_index.all_rows(store.db)] == [("open", 1)]
