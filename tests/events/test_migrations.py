"""Migrations: applied once each, in order, even when two processes start at once."""
from __future__ import annotations

import threading

import psycopg

from events import migrations


def _empty_database(db_factory: object, suffix: str) -> str:
    """A new database with no migration applied (dropped with the factory's others)."""
    from events.testing import with_database

    admin = db_factory.admin  # type: ignore[attr-defined]
    name = db_factory.prefix + suffix  # type: ignore[attr-defined]
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')  # type: ignore[arg-type]
    db_factory.created.append(name)  # type: ignore[attr-defined]
    return with_database(admin, name)  # type: ignore[no-any-return]


def test_a_migrated_database_has_nothing_pending(database_url: str) -> None:
    assert migrations.pending(database_url) == []
    assert migrations.applied(database_url) == [p.name for p in migrations.migration_files()]
    assert migrations.upgrade(database_url) == []


def test_two_concurrent_upgrades_apply_each_file_once(db_factory: object) -> None:
    url = _empty_database(db_factory, "_empty")
    results: list[list[str]] = []
    barrier = threading.Barrier(2)

    def run() -> None:
        barrier.wait()
        results.append(migrations.upgrade(url))

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    every = [p.name for p in migrations.migration_files()]
    assert sorted(results[0] + results[1]) == sorted(every)
    assert migrations.applied(url) == every


def test_databases_migrated_at_once_on_one_server_all_succeed(db_factory: object) -> None:
    """The roles are the server's: migrations of different databases (parallel test runs, two
    services) alter them at once, and each must still apply every file."""
    urls = [_empty_database(db_factory, f"_side_by_side_{i}") for i in range(4)]
    results: dict[str, list[str]] = {}
    barrier = threading.Barrier(len(urls))

    def run(url: str) -> None:
        barrier.wait()
        results[url] = migrations.upgrade(url)

    threads = [threading.Thread(target=run, args=(url,)) for url in urls]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    every = [p.name for p in migrations.migration_files()]
    assert all(results.get(url) == every for url in urls), results


def test_004_moves_seated_players_out_of_the_game_index(db_factory: object, tmp_path: object) -> None:
    """Games indexed before 004 keep their players: "my games" reads game_players after it."""
    import shutil
    import uuid
    from pathlib import Path

    from events import game_index
    from events.db import Database

    url = _empty_database(db_factory, "_before_004")
    older = Path(str(tmp_path))
    for path in migrations.migration_files():
        if path.name < "004":
            shutil.copy(path, older / path.name)
    migrations.upgrade(url, older)
    game, alice, bob = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("INSERT INTO game_index (stream_id, ruleset, name, status, seats, player_ids, updated_at, version)"
                     " VALUES (%s, 'corte', 'g', 'active', '[]', %s, now(), 9)", (game, [alice, bob]))
    assert "004_game_players.sql" in migrations.upgrade(url)
    db = Database(url)
    try:
        assert [r.id for r in game_index.of_player(db, alice, 10)] == [game]
        assert [r.id for r in game_index.of_player(db, bob, 10)] == [game]
        assert game_index.of_player(db, uuid.uuid4(), 10) == []
    finally:
        db.close()
