"""A server that rewrites history (an event edited in the database by its owner, the chain
hashes recomputed so the chain still holds) is caught: by the SDK, which kept the game's last
checkpoint, and by a witness, which kept the last checkpoint of the log it cosigned."""
from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import psycopg
import pytest
from click.testing import CliRunner
from facedown_client import CheckpointError, Client, ForkError

from service.entrypoints.cli import main
from service.entrypoints.cli_witness import run as witness_run
from service.model.merkle import leaf_hash
from service.model.signed_notes import VerifierKey, open_note
from tests.transparency.conftest import rewrite_event
from tests.transparency.helpers import finished_game
from tests.transparency.test_signed_notes import spec_verify


def _play(client: Client, gid: str, seats: list[Client], moves: int) -> None:
    for _ in range(moves):
        for seat in seats:
            view = seat.view(gid)
            if view.status == "active" and view.legal_actions:
                seat.send(gid, view.legal_actions[0])
                break


def test_the_sdk_raises_a_fork_when_the_server_rewrites_a_game(make_app: Any, serve: Any, database_url: str,
                                                               store: Any) -> None:
    url = serve(make_app())
    alice = Client(url)
    alice.register("alice")
    bob = alice.as_player(Client(url).register("bob").token)
    game = alice.create_game("least-score", seats=2, take_seat=True)
    bob.join(game.id)
    _play(alice, game.id, [alice, bob], 4)
    seen = alice.checkpoint(game.id)  # signed, and consistent with every answer before it
    assert seen.size == store.head(uuid.UUID(game.id))[0]
    assert alice.checkpoints.key is not None and alice.checkpoints.key.text() == alice.log_key()

    first = store.read(uuid.UUID(game.id), 2, limit=1)[0]
    rewrite_event(database_url, game.id, first.version, {**first.data, "rewritten": True})
    rewritten = Client(serve(make_app()), alice.token, checkpoints=alice.checkpoints)  # a worker that never saw it
    with pytest.raises(ForkError) as caught:
        rewritten.checkpoint(game.id)
    assert caught.value.game_id == game.id and caught.value.before != caught.value.after
    # a client that never saw the game cannot tell (nothing to compare with): a witness can
    assert Client(serve(make_app())).checkpoint(game.id).size == seen.size


def _witness_key(tmp_path: Path) -> str:
    runner = CliRunner()
    out = runner.invoke(main, ["witness", "keygen", "--name", "witness.example/w1", "--out", str(tmp_path / "w1")])
    assert out.exit_code == 0, out.output
    assert (tmp_path / "w1").stat().st_mode & 0o077 == 0  # the private key is its owner's alone
    return (tmp_path / "w1.vkey").read_text().strip()


def test_a_witness_cosigns_and_refuses_a_rewritten_log(make_app: Any, serve: Any, database_url: str,
                                                       tmp_path: Path) -> None:
    vkey = _witness_key(tmp_path)
    app = make_app(witness_keys=(vkey,))
    url, client = serve(app), app.test_client()
    key = VerifierKey.parse(client.get("/v1/log/key").get_json()["vkey"])
    state, secret = tmp_path / "state", tmp_path / "w1"
    gid, _, _ = finished_game(client)
    assert witness_run(url, secret, state) == 0
    note = client.get("/v1/log/checkpoint").get_data(as_text=True)
    _, keys = open_note(note, [key, VerifierKey.parse(vkey)])
    assert len(keys) == 2  # the log's signature and the witness's cosignature
    assert spec_verify(note, vkey) == spec_verify(note, key.text())  # as a verifier from the C2SP texts reads it
    # a client that asks for this witness's cosignature gets the log's checkpoint
    reader = Client(url)
    assert reader.log_checkpoint([vkey]).size == 1
    finished_game(client)
    with pytest.raises(CheckpointError, match="0 of the 1 cosignature"):
        reader.log_checkpoint([vkey])  # the log grew: the witness has not seen this size yet
    assert reader.log_checkpoint([vkey], quorum=0).size == 2
    assert witness_run(url, secret, state) == 0  # the log grew consistently: cosigned again
    assert reader.log_checkpoint([vkey]).size == 2

    # the owner rewrites the first game and puts its new final checkpoint in the log
    first = client.get(f"/v1/games/{gid}/events?after=2").get_json()["events"][0]
    rewrite_event(database_url, gid, first["version"], {**first["data"], "rewritten": True})
    forger = make_app(witness_keys=(vkey,))
    size = forger.extensions["facedown"].store.head(uuid.UUID(gid))[0]
    forged = forger.extensions["facedown"].games.transparency.game_checkpoint(uuid.UUID(gid), size)
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute("ALTER TABLE log_entries DISABLE TRIGGER USER")
        conn.execute("UPDATE log_entries SET note = %s, leaf_hash = %s WHERE game_id = %s",
                     (forged, leaf_hash(forged.encode()), uuid.UUID(gid)))
        conn.execute("ALTER TABLE log_entries ENABLE TRIGGER USER")
    finished_game(forger.test_client())
    refused = CliRunner().invoke(main, ["witness", "--log", serve(forger), "--key", str(secret), "--state", str(state)])
    assert refused.exit_code == 1
    assert "REFUSED" in refused.output and "not consistent" in refused.output
    assert (state / "refused.checkpoint").exists()


def test_the_server_keeps_cosignatures_of_its_witnesses_only(make_app: Any, serve: Any, tmp_path: Path) -> None:
    vkey = _witness_key(tmp_path)
    stranger = tmp_path / "stranger"
    assert CliRunner().invoke(main, ["witness", "keygen", "--name", "stranger.example", "--out", str(stranger)]).exit_code == 0
    app = make_app(witness_keys=(vkey,))
    client = app.test_client()
    finished_game(client)
    url = serve(app)
    out = CliRunner().invoke(main, ["witness", "--log", url, "--key", str(stranger), "--state", str(tmp_path / "s")])
    assert out.exit_code == 1 and "403" in out.output
    note = client.get("/v1/log/checkpoint").get_data(as_text=True)
    assert client.post("/v1/log/cosignatures", data=note, content_type="text/plain").status_code == 403
    assert client.post("/v1/log/cosignatures", data=note.replace("\n1\n", "\n0\n"),
                       content_type="text/plain").status_code in (409, 422)
    assert client.post("/v1/log/cosignatures", json={"note": note}).status_code == 415
