"""Snapshots are versioned JSON: a cold worker reads them, and one it cannot read (a pickle,
a class it does not know, another format) is rebuilt from the log without running anything."""
from __future__ import annotations

import json
import pickle
import uuid
from pathlib import Path
from typing import Any

import psycopg
import pytest
from flask.testing import FlaskClient

from service.model import snapshots
from service.model.snapshots import fingerprint


@pytest.fixture
def apps(make_app: Any) -> Any:
    """New apps on one database: each is a worker with a cold cache."""
    return lambda: make_app().test_client()


def _played(client: FlaskClient, ruleset: str, commands: int) -> tuple[str, list[dict[str, str]]]:
    """A four-seat game with at least ``commands`` commands played; its id and the seats' headers."""
    auths = [{"Authorization": "Bearer " + client.post("/v1/players", json={"name": f"p{i}"}).get_json()["token"]}
             for i in range(4)]
    gid = client.post("/v1/games", json={"ruleset": ruleset, "seats": 4}, headers=auths[0]).get_json()["id"]
    for auth in auths[1:]:
        assert client.post(f"/v1/games/{gid}/join", json={}, headers=auth).status_code == 200
    played = 0
    while played < commands:
        for auth in auths:
            view = client.get(f"/v1/games/{gid}/view", headers=auth).get_json()
            if view["seat"] in view["awaiting"] and view["legal_actions"]:
                r = client.post(f"/v1/games/{gid}/commands", json=view["legal_actions"][0], headers=auth)
                assert r.status_code == 200, r.get_json()
                played += 1
                break
    return gid, auths


def _snapshot_row(database_url: str, gid: str) -> tuple[int, str, bytes]:
    with psycopg.connect(database_url) as conn:
        row = conn.execute("SELECT version, fingerprint, state FROM snapshots WHERE stream_id = %s",
                           (uuid.UUID(gid),)).fetchone()
    assert row is not None
    return int(row[0]), str(row[1]), bytes(row[2])


def _overwrite(database_url: str, gid: str, state: bytes) -> None:
    with psycopg.connect(database_url) as conn:
        conn.execute("UPDATE snapshots SET state = %s WHERE stream_id = %s", (state, uuid.UUID(gid)))


@pytest.mark.parametrize("ruleset", ["corte", "least-score"])
def test_the_stored_snapshot_is_json_of_the_game_the_log_folds_to(apps: Any, database_url: str,
                                                                     ruleset: str) -> None:
    client = apps()
    gid, _ = _played(client, ruleset, 20)
    version, fp, state = _snapshot_row(database_url, gid)
    assert fp == fingerprint() and version >= 16
    doc = json.loads(state)
    assert doc["format"] == 1 and set(doc) == {"format", "game"}
    repo = client.application.extensions["facedown"].games
    assert snapshots.loads(state) == repo.load_at(uuid.UUID(gid), version)


def test_a_cold_worker_answers_from_the_snapshot_as_the_warm_one_does(apps: Any) -> None:
    warm = apps()
    gid, auths = _played(warm, "corte", 20)
    cold = apps()
    for auth in auths:
        assert cold.get(f"/v1/games/{gid}/view", headers=auth).get_json() == \
            warm.get(f"/v1/games/{gid}/view", headers=auth).get_json()


class _Touch:
    """A pickle that creates a file when it is loaded: what a writer of the table could plant."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __reduce__(self) -> tuple[Any, ...]:
        return (open, (self.path, "w"))


@pytest.mark.parametrize("planted", ["pickle", "foreign class", "other format", "not json"])
def test_a_snapshot_this_code_cannot_read_is_rebuilt_from_the_log_and_runs_nothing(
        apps: Any, database_url: str, tmp_path: Path, planted: str) -> None:
    warm = apps()
    gid, auths = _played(warm, "corte", 20)
    expected = [warm.get(f"/v1/games/{gid}/view", headers=a).get_json() for a in auths]
    marker = tmp_path / "ran"
    state = {
        "pickle": pickle.dumps(_Touch(str(marker))),
        "foreign class": json.dumps({"format": 1, "game": {"builtins.open": [str(marker), "w"]}}).encode(),
        "other format": json.dumps({"format": 0, "game": None}).encode(),
        "not json": b"\x80\x05garbage",
    }[planted]
    _overwrite(database_url, gid, state)
    cold = apps()
    assert [cold.get(f"/v1/games/{gid}/view", headers=a).get_json() for a in auths] == expected
    assert not marker.exists()
