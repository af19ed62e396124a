"""The game chat on the cluster (docs/chat.md, docs/deployment-citus.md): the same tests as on
one server, through the coordinator; a chat's rows sit in its own stream's shard group."""
from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from events.db import connect
from service.model.chat import stream_of
from tests.service.helpers import Live, serve
from tests.service.http.test_chat import *  # noqa: F401,F403 - the same tests, on the cluster
from tests.service.http.test_chat import _game, _say


@pytest.fixture(scope="module")
def live(coordinator: str) -> Iterator[Live]:
    """On the session's distributed database: these tests' players and games are their own."""
    yield from serve(coordinator, recheck_seconds=60, stream_heartbeat_seconds=0.5,
                     extra={"chat_rate": (100.0, 100.0)})


def test_a_chats_rows_sit_with_its_stream_and_a_mute_with_its_player(live: Live) -> None:
    gid, (ann, bob) = _game(live)
    assert bob.post("/v1/me/mutes", {"player_id": ann.id}).status_code == 201
    n = _say(ann, gid, "placed").json()["n"]
    assert ann.post(f"/v1/games/{gid}/chat/{n}/report", {"reason": "test"}).status_code == 201
    chat = stream_of(uuid.UUID(gid))
    with connect(live.database_url) as conn:
        def node(table: str, column: str, key: object) -> tuple[str, int]:
            row = conn.execute(
                "SELECT nodename, nodeport FROM citus_shards WHERE table_name = %s::regclass"
                " AND shardid = get_shard_id_for_distribution_column(%s::regclass, %s::text)", (table, table, str(key))).fetchone()
            assert row is not None
            return row[0], row[1]

        assert node("chat_messages", "stream_id", chat) == node("streams", "stream_id", chat)
        assert node("chat_reports", "stream_id", chat) == node("events", "stream_id", chat)
        assert node("player_mutes", "player_id", bob.id) == node("streams", "stream_id", bob.id)
