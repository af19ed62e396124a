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

from service.tools.bench.threads import run_threads


# aggregates saved per transaction while warming: one save of a whole ring (thousands of
# events in one pipelined statement) stalled on a Unix socket, client and server each
# waiting for the other
SAVE_CHUNK = 8


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


def peer_commands(url: str, threads: int, seconds: float, warm_events: int = 50, ring: int = 128) -> dict[str, Any]:
    """Commands/s of load + one event + save, each thread on its own ``ring`` aggregates in turn.

    Each aggregate first gets ``warm_events`` events, about a short round of a game. The
    peer replays every event on each load, so a single aggregate per thread would grow by
    every command and slow down with the run's length and fewer threads; spread over a ring,
    each grows by about ``commands / (threads * ring)``, reported as ``mean_events_loaded``.
    """
    app = Games(env=_environment(url, threads + 2))
    loaded_events = [0] * threads

    def factory(t: int) -> Callable[[], None]:
        games = []
        for _ in range(ring):
            game = Game()
            for _ in range(warm_events):
                game.move(t, "A")
            games.append(game)
        for i in range(0, ring, SAVE_CHUNK):
            app.save(*games[i:i + SAVE_CHUNK])
        ids: list[uuid.UUID] = [g.id for g in games]
        turn = [0]

        def op() -> None:
            game_id = ids[turn[0] % ring]
            turn[0] += 1
            loaded = app.repository.get(game_id)
            loaded_events[t] += loaded.version
            loaded.move(t, "B")
            app.save(loaded)

        return op

    try:
        result = run_threads(threads, seconds, factory)
    finally:
        app.close()
    result.update(warm_events=warm_events, aggregates_per_thread=ring,
                  mean_events_loaded=round(sum(loaded_events) / max(result["operations"], 1), 1))
    return result
