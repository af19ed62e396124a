"""Fixtures of the transparency tests: a real HTTP server on the test's app (the SDK and the
witness speak HTTP), and an owner's edit of the log."""
from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import psycopg
import pytest
from werkzeug.serving import make_server

from events.canonical import chain_hash, event_body


@pytest.fixture
def serve() -> Iterator[Callable[[Any], str]]:
    """``serve(app)``: the app behind a real HTTP server in this process; its base URL."""
    servers: list[Any] = []

    def start(app: Any) -> str:
        server = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.port}"

    yield start
    for server in servers:
        server.shutdown()


def rewrite_event(database_url: str, game_id: str, version: int, data: dict[str, Any]) -> None:
    """What a dishonest operator does, as the database's owner: replace one event's data and
    recompute its chain hash and every later one, so that the chain itself still holds."""
    from psycopg.types.json import Jsonb

    gid = uuid.UUID(game_id)
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute("ALTER TABLE events DISABLE TRIGGER USER")
        try:
            conn.execute("UPDATE events SET data = %s WHERE stream_id = %s AND version = %s", (Jsonb(data), gid, version))
            rows = conn.execute("SELECT version, type, schema_version, data, metadata, prev_hash FROM events"
                                " WHERE stream_id = %s AND version >= %s ORDER BY version", (gid, version)).fetchall()
            prev = bytes(rows[0][5])
            for v, kind, schema, d, meta, _ in rows:
                h = chain_hash(prev, v, event_body(kind, schema, d, meta))
                conn.execute("UPDATE events SET prev_hash = %s, hash = %s WHERE stream_id = %s AND version = %s",
                             (prev, h, gid, v))
                prev = h
            conn.execute("UPDATE streams SET head = %s WHERE stream_id = %s", (prev, gid))
            conn.execute("DELETE FROM snapshots WHERE stream_id = %s", (gid,))
        finally:
            conn.execute("ALTER TABLE events ENABLE TRIGGER USER")
