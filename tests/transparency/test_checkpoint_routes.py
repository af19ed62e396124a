"""The checkpoints and proofs the API publishes (docs/fairness.md): each checked against the
game's events as stored, recomputed here, and the log of finished games."""
from __future__ import annotations

import base64
import uuid
from typing import Any

import psycopg
import pytest
from click.testing import CliRunner

from service.audit import export as exporting
from service.entrypoints.cli import main
from service.model.merkle import Tree, leaf_hash, verify_consistency, verify_inclusion
from service.model.signed_notes import Checkpoint, VerifierKey, open_checkpoint
from tests.transparency.helpers import finished_game, move, player, started_game
from tests.transparency.test_merkle import mth
from tests.transparency.test_signed_notes import spec_checkpoint, spec_verify


def _key(client: Any) -> VerifierKey:
    resp = client.get("/v1/log/key")
    assert resp.status_code == 200
    return VerifierKey.parse(resp.get_json()["vkey"])


def _hashes(answer: Any) -> list[bytes]:
    return [base64.b64decode(h) for h in answer["hashes"]]


def _stored_tree(store: Any, gid: str) -> Tree:
    return Tree.of_entries(e.hash for e in store.read(uuid.UUID(gid)))


def test_every_command_carries_the_signed_checkpoint_of_the_stored_events(make_app: Any, store: Any) -> None:
    client = make_app().test_client()
    key = _key(client)
    gid, alice, bob = started_game(client)
    answers = [a for a in (move(client, gid, (alice, bob)) for _ in range(6)) if a is not None]
    assert len(answers) == 6
    tree = _stored_tree(store, gid)
    previous: Checkpoint | None = None
    for answer in answers:
        cp, _ = open_checkpoint(answer["checkpoint"], key)
        assert cp.origin == f"{key.name}/game/{gid}"
        assert cp.size == answer["version"] and cp.root == tree.root(cp.size)
        if previous is not None:
            proof = client.get(f"/v1/games/{gid}/proof/consistency?from={previous.size}&to={cp.size}").get_json()
            verify_consistency(previous.size, cp.size, previous.root, cp.root, _hashes(proof))
        previous = cp
    latest = client.get(f"/v1/games/{gid}/checkpoint")
    assert latest.status_code == 200 and latest.mimetype == "text/plain"
    cp, _ = open_checkpoint(latest.get_data(as_text=True), key)
    assert cp.size == tree.size and cp.root == tree.root()
    # the same, by the verifier and the tree hash written in the tests from the texts alone
    text = spec_verify(latest.get_data(as_text=True), key.text())
    chain = [e.hash for e in store.read(uuid.UUID(gid))]
    assert spec_checkpoint(text) == (f"{key.name}/game/{gid}", len(chain), mth(chain))
    for index in range(cp.size):  # every event's chain hash is a leaf
        proof = client.get(f"/v1/games/{gid}/proof/inclusion?index={index}&size={cp.size}").get_json()
        verify_inclusion(index, cp.size, leaf_hash(chain[index]), _hashes(proof), cp.root)
    bad = client.get(f"/v1/games/{gid}/proof/inclusion?index={cp.size}&size={cp.size}")
    assert bad.status_code == 422 and bad.mimetype == "application/problem+json"
    assert client.get(f"/v1/games/{gid}/proof/consistency?from=1&to={cp.size + 1}").status_code == 422
    assert client.get(f"/v1/games/{uuid.uuid4()}/checkpoint").status_code == 404


def test_a_checkpoint_holds_chain_hashes_only(make_app: Any, store: Any) -> None:
    """The hidden-information rule: a checkpoint's text is the origin, the count of events and
    the root of their chain hashes, nothing else (no card, not even a hash of one alone)."""
    client = make_app().test_client()
    key = _key(client)
    gid, alice, bob = started_game(client)
    note = client.get(f"/v1/games/{gid}/checkpoint").get_data(as_text=True)
    tree = _stored_tree(store, gid)
    assert open_checkpoint(note, key)[1].text == Checkpoint(f"{key.name}/game/{gid}", tree.size, tree.root()).text()


def test_finished_games_are_leaves_of_the_server_log(make_app: Any, serve: Any, tmp_path: Any) -> None:
    app = make_app()
    client = app.test_client()
    key = _key(client)
    first, _, _ = finished_game(client)
    log1, _ = open_checkpoint(client.get("/v1/log/checkpoint").get_data(as_text=True), key)
    assert log1.origin == key.name and log1.size == 1
    second, _, _ = finished_game(client)
    log2, _ = open_checkpoint(client.get("/v1/log/checkpoint").get_data(as_text=True), key)
    assert log2.size == 2
    proof = client.get("/v1/log/proof/consistency?from=1&to=2").get_json()
    verify_consistency(1, 2, log1.root, log2.root, _hashes(proof))
    for index, gid in enumerate((first, second)):
        final = client.get(f"/v1/games/{gid}/checkpoint").get_data(as_text=True)
        answer = client.get(f"/v1/log/proof/inclusion?game={gid}&size=2").get_json()
        assert answer["index"] == index
        verify_inclusion(index, 2, leaf_hash(final.encode()), _hashes(answer), log2.root)
    ongoing, _, _ = started_game(client)
    assert client.get(f"/v1/log/proof/inclusion?game={ongoing}&size=2").status_code == 409
    assert client.get("/v1/log/proof/inclusion?game=nonsense&size=2").status_code == 422
    assert client.get(f"/v1/log/proof/inclusion?game={uuid.uuid4()}&size=2").status_code == 404
    # the offline verifier: the export's tree, the final checkpoint, the game in the log
    export = exporting.dumps(client.get(f"/v1/games/{first}/audit").get_json())
    url = serve(app)
    runner, path = CliRunner(), str(tmp_path / "game.json")
    (tmp_path / "game.json").write_text(export)
    ok = runner.invoke(main, ["audit", "verify", "-q", path, "--log", url, "--log-key", key.text()])
    assert ok.exit_code == 0, ok.output
    assert "leaf 0 of the log of 2 finished games" in ok.output
    (tmp_path / "game.json").write_text(export.replace(first, second))  # its tree is not the other's
    bad = runner.invoke(main, ["audit", "verify", "-q", path, "--log", url])
    assert bad.exit_code == 1 and "transparency" in bad.output


def test_the_log_key_is_made_once_and_kept(make_app: Any) -> None:
    one = _key(make_app().test_client())
    two = _key(make_app(log_name="another.example/log").test_client())
    assert one == two  # the second process reads back the key (and name) the first kept


def test_a_mistyped_setting_stops_the_server_at_its_start(make_app: Any) -> None:
    with pytest.raises(ValueError, match="FACEDOWN_WITNESS_KEYS"):
        make_app(witness_keys=("not-a-key",))
    log_vkey = _key(make_app().test_client()).text()  # a type 0x01 key is not a witness's
    with pytest.raises(ValueError, match="type 0x04"):
        make_app(witness_keys=(log_vkey,))


def test_games_finished_before_the_log_are_backfilled_once(make_app: Any, database_url: str) -> None:
    client = make_app().test_client()
    old, _, _ = finished_game(client)
    with psycopg.connect(database_url, autocommit=True) as conn:  # as if it finished before sql/040
        conn.execute("ALTER TABLE log_entries DISABLE TRIGGER USER")
        conn.execute("DELETE FROM log_entries")
        conn.execute("ALTER TABLE log_entries ENABLE TRIGGER USER")
        conn.execute("UPDATE log_head SET size = 0")
    assert client.get(f"/v1/log/proof/inclusion?game={old}&size=1").status_code == 409
    runner = CliRunner()
    out = runner.invoke(main, ["db", "backfill-log"], env={"DATABASE_URL": database_url})
    assert out.exit_code == 0 and "1 finished game(s) added" in out.output, out.output
    assert "0 finished game(s)" in runner.invoke(main, ["db", "backfill-log"], env={"DATABASE_URL": database_url}).output
    fresh = make_app().test_client()  # a worker that did not read the log before
    key = _key(fresh)
    log, _ = open_checkpoint(fresh.get("/v1/log/checkpoint").get_data(as_text=True), key)
    final = fresh.get(f"/v1/games/{old}/checkpoint").get_data(as_text=True)
    answer = fresh.get(f"/v1/log/proof/inclusion?game={old}&size={log.size}").get_json()
    assert log.size == 1 and answer["index"] == 0
    verify_inclusion(0, 1, leaf_hash(final.encode()), _hashes(answer), log.root)


def test_an_unlisted_game_s_checkpoint_and_proofs_are_hidden_from_strangers(make_app: Any) -> None:
    client = make_app().test_client()
    alice, stranger = player(client, "alice"), player(client, "stranger")
    made = client.post("/v1/games", json={"ruleset": "least-score", "seats": 2, "take_seat": True,
                                          "visibility": "unlisted"}, headers=alice)
    assert made.status_code == 201, made.get_json()
    gid = made.get_json()["id"]
    assert client.get(f"/v1/games/{gid}/checkpoint", headers=alice).status_code == 200
    for path in (f"/v1/games/{gid}/checkpoint", f"/v1/games/{gid}/proof/inclusion?index=0&size=1",
                 f"/v1/log/proof/inclusion?game={gid}&size=1"):
        assert client.get(path, headers=stranger).status_code == 404, path
        assert client.get(path).status_code == 404, path
