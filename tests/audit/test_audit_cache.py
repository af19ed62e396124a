"""A worker builds an audit once per content and serves it again with a strong ETag
(If-None-Match → 304); a built audit is trusted for a bounded time only."""
from __future__ import annotations

from typing import Any

import psycopg
import pytest

from domain import rules
from events.store import EventStore, NewEvent
from tests.audit import builder

ROUND_TYPES = {"RoundDealt", "RoundRevealed", "GameEnded", "SecretRevealed"}


def _append(store: EventStore, game: builder.Game, start: int, stop: int) -> None:
    """Write ``game``'s appends ``start`` .. ``stop - 1`` (as builder.write does, in part)."""
    version = sum(len(b) for b in game.appends[:start])
    for batch in game.appends[start:stop]:
        version = store.append(game.game_id, version, [NewEvent(t, d, m) for t, d, m in batch],
                               command_id=batch[0][2]["command_id"]).version


def test_an_audit_carries_a_strong_etag_and_if_none_match_is_304(new_client: Any, store: EventStore, database_url: str) -> None:
    game = builder.play(rules.names()[0], players=2, seed=3)
    builder.write(store, game)
    client = new_client()
    path = f"/v1/games/{game.game_id}/audit"
    first = client.get(path)
    etag = first.headers["ETag"]
    assert first.status_code == 200 and etag.startswith('"') and not etag.startswith('W/')
    again = client.get(path)
    assert again.headers["ETag"] == etag and again.data == first.data
    assert new_client().get(path).headers["ETag"] == etag  # another worker builds the same bytes
    for header in (etag, f"W/{etag}", f'"other", {etag}', "*"):
        unchanged = client.get(path, headers={"If-None-Match": header})
        assert unchanged.status_code == 304 and unchanged.data == b"" and unchanged.headers["ETag"] == etag
    assert client.get(path, headers={"If-None-Match": '"other"'}).status_code == 200


def test_moves_inside_the_current_round_keep_the_etag_and_a_finished_round_changes_it(
        new_client: Any, store: EventStore, database_url: str) -> None:
    name = "least-score" if "least-score" in rules.names() else rules.names()[0]
    whole = builder.play(name, players=2, seed=12)
    prefix = builder.play(name, players=2, seed=12, stop_after_rounds=1).appends  # the same bots, stopped
    first_round = len(prefix)
    assert whole.appends[:first_round] == prefix
    # past the next deal: the appends of the second round up to (not including) its end
    deal = next(i for i in range(first_round, len(whole.appends))
                if any(t == "RoundDealt" for t, _, _ in whole.appends[i]))
    end = next(i for i in range(deal + 1, len(whole.appends)) if any(t in ROUND_TYPES for t, _, _ in whole.appends[i]))
    assert end - deal > 2
    _append(store, whole, 0, deal + 1)
    client = new_client()
    path = f"/v1/games/{whole.game_id}/audit"
    etag = client.get(path).headers["ETag"]
    for i in range(deal + 1, end):
        _append(store, whole, i, i + 1)
        assert client.get(path, headers={"If-None-Match": etag}).status_code == 304
    _append(store, whole, end, len(whole.appends))
    finished = client.get(path, headers={"If-None-Match": etag})
    assert finished.status_code == 200 and finished.headers["ETag"] != etag
    assert finished.get_json()["status"] == "finished"


def test_a_worker_serves_its_built_audit_for_at_most_its_max_age(new_client: Any, store: EventStore, database_url: str) -> None:
    game = builder.play(rules.names()[-1], players=2, seed=4)
    builder.write(store, game)
    client = new_client()
    path = f"/v1/games/{game.game_id}/audit"
    assert client.get(path).get_json()["verification"]["ok"]
    with psycopg.connect(database_url, autocommit=True) as conn:  # an edit around the append-only log
        conn.execute("ALTER TABLE events DISABLE TRIGGER USER")
        conn.execute("UPDATE events SET metadata = jsonb_set(metadata, '{at}', '\"1999-01-01T00:00:00Z\"')"
                     " WHERE stream_id = %s AND version = 9", (game.game_id,))
        conn.execute("ALTER TABLE events ENABLE TRIGGER USER")
    assert client.get(path).get_json()["verification"]["ok"]  # this worker's build, not read again
    assert not new_client().get(path).get_json()["verification"]["ok"]
    client.application.extensions["facedown"].audits.max_age = 0
    assert not client.get(path).get_json()["verification"]["ok"]


@pytest.mark.parametrize("budget", [3000, 2 << 20])
def test_the_cache_stays_within_its_bytes(new_client: Any, store: EventStore, database_url: str, budget: int) -> None:
    client = new_client()
    cache = client.application.extensions["facedown"].audits
    cache.max_bytes = budget
    games = [builder.play(rules.names()[0], players=2, seed=s) for s in (20, 21, 22)]
    for game in games:
        builder.write(store, game)
        assert client.get(f"/v1/games/{game.game_id}/audit").status_code == 200
    kept = [g for g in games if cache.latest(g.game_id) is not None]
    assert kept and kept[-1] is games[-1]
    assert len(kept) == (1 if budget == 3000 else 3)
