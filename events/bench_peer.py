"""The peer for benchmarks: the ``eventsourcing`` library's load + one event + save cycle.

What a team would otherwise write: an aggregate per game in ``eventsourcing``
(PostgreSQL persistence, on the same database), where each command loads the
aggregate (replaying its events), triggers one event and saves it. Installed with the
``bench`` extra.
"""
from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from psycopg.conninfo import conninfo_to_dict

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event

from events.bench import _run_threads


class Game(Aggregate):  # type: ignore[misc]
    """A game as an ``eventsourcing`` aggregate: one event per command."""

    def __init__(self) -> None:
        self.moves = 0

    @event("Moved")  # type: ignore[misc]
    def move(self, seat: int, slot: str) -> None:
        self.moves += 1


class Games(Application):  # type: ignore[misc]
    """The peer application."""


def _environment(url: str, pool: int) -> dict[str, str]:
    parts = conninfo_to_dict(url)
    env = {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": str(parts.get("dbname", "postgres")),
        "POSTGRES_HOST": str(parts.get("host", "127.0.0.1")),
        "POSTGRES_PORT": str(parts.get("port", "5432")),
        "POSTGRES_USER": str(parts.get("user", "postgres")),
        "POSTGRES_PASSWORD": str(parts.get("password", "")),
        "POSTGRES_POOL_SIZE": str(pool),
        "CREATE_TABLE": "y",
    }
    return env


def peer_commands(url: str, threads: int, seconds: float, warm_events: int = 50) -> dict[str, Any]:
    """Commands/s of load + one event + save, each thread on its own aggregate.

    Each aggregate first gets ``warm_events`` events, about a short round of a game.
    """
    app = Games(env=_environment(url, threads + 2))

    def factory(t: int) -> Callable[[], None]:
        game = Game()
        for _ in range(warm_events):
            game.move(t, "A")
        app.save(game)
        game_id: uuid.UUID = game.id

        def op() -> None:
            loaded = app.repository.get(game_id)
            loaded.move(t, "B")
            app.save(loaded)

        return op

    try:
        return _run_threads(threads, seconds, factory)
    finally:
        app.close()
