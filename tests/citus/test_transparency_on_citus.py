"""Checkpoints, proofs and the log of finished games on the cluster (sql/040): the log's tables
are reference tables written by the append that finishes a game on whichever worker holds it;
games finishing at once get their leaves in order with no gap; every route answers through
the coordinator as on one server, and a witness cosigns."""
from __future__ import annotations

import base64
import threading
import uuid
from pathlib import Path
from typing import Any

import requests
from click.testing import CliRunner
from facedown_client import Client

from events import citus
from events.db import connect
from service.entrypoints.cli import main
from service.entrypoints.cli_witness import run as witness_run
from service.model.merkle import Tree, leaf_hash, verify_consistency, verify_inclusion
from service.model.signed_notes import VerifierKey, open_checkpoint
from tests.sdk.conftest import Served, facedown_serve

TABLES = ("log_keys", "log_entries", "log_head", "log_cosignatures")


def _hashes(answer: Any) -> list[bytes]:
    return [base64.b64decode(h) for h in answer["hashes"]]


def _log(url: str, key: VerifierKey) -> Any:
    return open_checkpoint(requests.get(f"{url}/v1/log/checkpoint", timeout=30).text, key)[0]


def test_the_log_tables_are_reference_tables(coordinator: str) -> None:
    with connect(coordinator) as conn:
        placed = citus.placement(conn)
    assert {t: placed[t] for t in TABLES} == {t: "reference" for t in TABLES}
    doc = (Path(__file__).resolve().parents[2] / "docs" / "deployment-citus.md").read_text()
    assert all(f"`{t}`" in doc for t in TABLES)


def test_a_finished_game_is_in_the_log_and_its_checkpoint_is_its_events(served_cluster: Served, finished_game: str,
                                                                       coordinator: str) -> None:
    url = served_cluster.url
    key = VerifierKey.parse(requests.get(f"{url}/v1/log/key", timeout=30).json()["vkey"])
    note = requests.get(f"{url}/v1/games/{finished_game}/checkpoint", timeout=30).text
    cp, _ = open_checkpoint(note, key)
    with connect(coordinator) as conn:
        hashes = [bytes(r[0]) for r in conn.execute(
            "SELECT hash FROM events WHERE stream_id = %s ORDER BY version", (uuid.UUID(finished_game),))]
    assert cp.size == len(hashes) and cp.root == Tree.of_entries(hashes).root()
    log = _log(url, key)
    answer = requests.get(f"{url}/v1/log/proof/inclusion", params={"game": finished_game, "size": log.size},
                          timeout=30).json()
    verify_inclusion(answer["index"], log.size, leaf_hash(note.encode()), _hashes(answer), log.root)


def _finish(url: str, n: int) -> str:
    a, b = Client(url), Client(url)
    a.register(f"racer-a{n}")
    b.register(f"racer-b{n}")
    gid = a.create_game("least-score", 2, take_seat=True).id
    b.join(gid)
    b.request("POST", f"/v1/games/{gid}/resign", {})
    return gid


def test_games_finishing_at_once_get_leaves_in_order_with_no_gap(served_cluster: Served, coordinator: str,
                                                                 tmp_path: Path) -> None:
    url = served_cluster.url
    key = VerifierKey.parse(requests.get(f"{url}/v1/log/key", timeout=30).json()["vkey"])
    runner = CliRunner()
    assert runner.invoke(main, ["witness", "keygen", "--name", "w.example", "--out", str(tmp_path / "w")]).exit_code == 0
    before = _log(url, key)
    done: list[str] = []
    threads = [threading.Thread(target=lambda i=i: done.append(_finish(url, i))) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(done) == 6
    after = _log(url, key)
    assert after.size == before.size + 6
    with connect(coordinator) as conn:
        rows = conn.execute("SELECT idx, game_id FROM log_entries ORDER BY idx").fetchall()
    assert [r[0] for r in rows] == list(range(after.size))
    assert {str(r[1]) for r in rows[before.size:]} == set(done)
    proof = requests.get(f"{url}/v1/log/proof/consistency", params={"from": before.size, "to": after.size},
                         timeout=30).json()
    verify_consistency(before.size, after.size, before.root, after.root, _hashes(proof))
    # a witness the server knows cosigns the log through the coordinator
    vkey = (tmp_path / "w.vkey").read_text().strip()
    served: Any = facedown_serve(coordinator, FACEDOWN_WITNESS_KEYS=vkey)
    with_witness = next(served)
    try:
        assert witness_run(with_witness.url, tmp_path / "w", tmp_path / "state") == 0
        note = requests.get(f"{with_witness.url}/v1/log/checkpoint", timeout=30).text
        assert note.count("\u2014 ") == 2
    finally:
        served.close()
