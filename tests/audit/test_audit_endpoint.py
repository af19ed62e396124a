"""The audit endpoints on a real PostgreSQL: tampering, redaction of active rounds, views."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import psycopg
import pytest
from click.testing import CliRunner

from domain import rules
from events.store import EventStore
from service.usecases import visibility
from service.audit import export as exporting
from service.entrypoints.cli_audit import audit
from tests.audit import builder

RULESETS = rules.names()


@pytest.mark.parametrize("name", RULESETS)
def test_a_finished_game_is_audited_complete_and_verifies_offline(
        new_client: Any, name: str, store: EventStore, database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = builder.play(name, players=2, seed=3)
    builder.write(store, game)
    # the store's own chain equals the one the export recomputes
    assert store.head(game.game_id)[1].hex() == game.events()[-1]["hash"]  # type: ignore[index]
    resp = new_client().get(f"/v1/games/{game.game_id}/audit")
    assert resp.status_code == 200
    body = resp.get_json()
    assert body["complete"] and body["status"] == "finished" and body["secret"] == game.secret.hex()
    assert body["verification"]["ok"] and set(body["verification"]["checks"].values()) == {"ok"}
    assert [e["hash"] for e in body["events"]] == [e["hash"] for e in game.events()]
    first = body["events"][0]
    assert {"version", "time", "actor", "hash", "prev_hash"} <= set(first)
    # facedown audit export | facedown audit verify
    monkeypatch.setenv("DATABASE_URL", database_url)
    exported = CliRunner().invoke(audit, ["export", str(game.game_id)])
    assert exported.exit_code == 0, exported.output
    path = tmp_path / "game.json"
    path.write_text(exported.output, encoding="utf-8")
    assert json.loads(exported.output) == body
    verified = CliRunner().invoke(audit, ["verify", str(path)])
    assert verified.exit_code == 0 and "RESULT: OK" in verified.output


def _superuser_edit(database_url: str, game_id: Any, version: int, sql_set: str) -> None:
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute("ALTER TABLE events DISABLE TRIGGER USER")
        conn.execute(f"UPDATE events SET {sql_set} WHERE stream_id = %s AND version = %s", (game_id, version))
        conn.execute("ALTER TABLE events ENABLE TRIGGER USER")


@pytest.mark.parametrize("what", ["data", "metadata", "type", "hash"])
def test_an_event_edited_in_the_database_is_reported_with_its_version(
        new_client: Any, what: str, store: EventStore, database_url: str) -> None:
    game = builder.play(RULESETS[-1], players=2, seed=4)
    builder.write(store, game)
    events = game.events()
    target = next(e for e in events[len(events) // 2:] if e["data"])
    v = target["version"]
    edits = {
        "data": "data = jsonb_set(data, %s, %s)" % (
            "'{" + sorted(target["data"])[0] + "}'", "'\"forged\"'::jsonb"),
        "metadata": "metadata = jsonb_set(metadata, '{at}', '\"1999-01-01T00:00:00Z\"')",
        "type": "type = type || 'X'",
        "hash": "hash = sha256(hash)",
    }
    _superuser_edit(database_url, game.game_id, v, edits[what])
    # the process-wide cache of who may see a game may hold this game (the same seed in every
    # case) from an earlier case: emptied, the check of who may see it meets the edited log
    visibility._SEEN.forget_all()
    resp = new_client().get(f"/v1/games/{game.game_id}/audit")
    assert resp.status_code == 200
    verification = resp.get_json()["verification"]
    assert not verification["ok"] and verification["checks"]["chain"] == "failed"
    assert verification["first_failure"]["version"] == v
    assert any(f["check"] == "chain" and f["version"] == v for f in verification["failures"])


def test_a_game_whose_log_no_longer_loads_answers_a_problem_naming_the_event(
        new_client: Any, store: EventStore, database_url: str) -> None:
    """An event type edited behind the service: every read of the game is a problem+json that
    names the event's version (never the stored data), and the audit still shows where."""
    game = builder.play(RULESETS[-1], players=2, seed=4)
    builder.write(store, game)
    v = len(game.events()) // 2
    _superuser_edit(database_url, game.game_id, v, "type = type || 'X'")
    visibility._SEEN.forget_all()
    client = new_client()
    for path in ("", "/view", "/events"):
        resp = client.get(f"/v1/games/{game.game_id}{path}")
        body = resp.get_json()
        assert resp.status_code == 500 and resp.mimetype == "application/problem+json", (path, body)
        assert body["type"] == "/problems/log-unreadable" and f"event {v} " in body["detail"], (path, body)
        assert "X" not in body["detail"] and "Error" not in body["detail"]
    audit = client.get(f"/v1/games/{game.game_id}/audit").get_json()["verification"]
    assert not audit["ok"] and audit["first_failure"]["version"] == v


def test_an_active_game_in_its_first_round_exposes_nothing(new_client: Any, store: EventStore, database_url: str) -> None:
    game = builder.play(RULESETS[0], players=2, seed=5, stop_after_rounds=0, max_steps=3)
    builder.write(store, game)
    client = new_client()
    resp = client.get(f"/v1/games/{game.game_id}/audit")
    assert resp.status_code == 409 and resp.mimetype == "application/problem+json"
    assert resp.get_json()["type"].endswith("/audit-unavailable")
    # no seat's view of the round being played either, for a caller not at that seat
    for seat in range(2):
        view = client.get(f"/v1/games/{game.game_id}/audit/view?seat={seat}&version={len(game.events())}")
        assert view.status_code == 403 and view.mimetype == "application/problem+json"
    assert client.get("/v1/games/00000000-0000-0000-0000-000000000000/audit").status_code == 404
    assert client.get("/v1/games/not-a-uuid/audit").status_code == 404


def _multi_round_active(seed_from: int) -> builder.Game:
    """An active game past its first round (rulesets whose games span rounds)."""
    for name in ("least-score", "cuatro-cartas", "pedro", "corte"):
        if name not in RULESETS:
            continue
        for seed in range(seed_from, seed_from + 20):
            game = builder.play(name, players=2, seed=seed, stop_after_rounds=1)
            if not game.finished:
                return game
    pytest.skip("no multi-round ruleset present")


def test_an_active_game_shows_finished_rounds_only(new_client: Any, store: EventStore, database_url: str) -> None:
    game = _multi_round_active(10)
    builder.write(store, game)
    events = game.events()
    current_deal = max(e["version"] for e in events if e["type"] == "RoundDealt")
    resp = new_client().get(f"/v1/games/{game.game_id}/audit")
    assert resp.status_code == 200
    body = resp.get_json()
    assert body["status"] == "active" and not body["complete"] and body["secret"] is None
    assert body["upto_version"] == current_deal - 1
    assert max(e["version"] for e in body["events"]) == current_deal - 1
    text = json.dumps(body)
    # nothing of the current round: neither its deal's order nor its commitment
    current = next(e for e in events if e["version"] == current_deal)
    assert current["data"]["commitment"] not in text
    assert body["verification"]["ok"], body["verification"]["failures"][:3]
    assert body["verification"]["checks"]["deals"].startswith("skipped")
    assert body["verification"]["checks"]["commitments"] == "ok"


def test_point_in_time_views_equal_what_each_seat_saw(new_client: Any, store: EventStore, database_url: str) -> None:
    name = "least-score" if "least-score" in RULESETS else RULESETS[0]
    game = builder.play(name, players=3, seed=6)
    builder.write(store, game)
    client = new_client()
    checked = 0
    for version, seen in sorted(game.seen.items())[::3]:
        for seat, view in seen.items():
            resp = client.get(f"/v1/games/{game.game_id}/audit/view?seat={seat}&version={version}")
            assert resp.status_code == 200, resp.get_json()
            body = resp.get_json()
            assert body["view"] == json.loads(json.dumps(view)), (version, seat)
            assert body["version"] == version
            assert body["chain_head"] == game.events()[version - 1]["hash"]
            checked += 1
    assert checked > 10


def test_audit_view_refuses_bad_queries(new_client: Any, store: EventStore, database_url: str) -> None:
    game = builder.play(RULESETS[0], players=2, seed=8)
    builder.write(store, game)
    client = new_client()
    base = f"/v1/games/{game.game_id}/audit/view"
    for query in ("", "?seat=x", "?seat=9", "?seat=0&version=0", "?seat=0&version=99999"):
        resp = client.get(base + query)
        assert resp.status_code == 422 and resp.mimetype == "application/problem+json", query
    # before the deal there is no view yet
    assert client.get(base + "?seat=0&version=1").status_code == 409


def test_the_cli_export_refuses_a_game_still_in_its_first_round(
        store: EventStore, database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    game = builder.play(RULESETS[0], players=2, seed=5, stop_after_rounds=0, max_steps=3)
    builder.write(store, game)
    monkeypatch.setenv("DATABASE_URL", database_url)
    result = CliRunner().invoke(audit, ["export", str(game.game_id)])
    assert result.exit_code != 0 and "finished rounds only" in result.output
    assert exporting.FORMAT not in result.output


def test_verifying_an_unfinished_game_says_what_it_checked_and_what_it_could_not_yet(tmp_path: Path) -> None:
    game = _multi_round_active(10)
    export = exporting.build(game.game_id, game.events())
    path = tmp_path / "game.json"
    path.write_text(exporting.dumps(export), encoding="utf-8")
    for args in (["verify", str(path)], ["verify", "--quiet", str(path)]):
        result = CliRunner().invoke(audit, args)
        assert result.exit_code == 0, result.output[-2000:]
        lines = result.output.splitlines()
        # it once claimed "the deals and every ruling check out" here, having skipped both
        assert "every ruling check out" not in result.output
        assert lines[-3].startswith("RESULT: OK so far, the game is not over")
        assert lines[-2] == ("  checked: the file against the chained events; the hash chain; "
                             "the revealed orders against their commitments; the service's own moves")
        assert lines[-1] == ("  not checked yet: the secret against its commitment (the secret is revealed when "
                             "the game ends); the deals and the rulings (needs the revealed secret); the round being "
                             f"played (its events, after version {export['upto_version']}, are exported when it ends)")


def test_the_cli_export_of_a_game_it_cannot_find_names_the_database_it_read_never_its_password(
        database_url: str, db_factory: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    def where_of(url: str) -> str:
        with psycopg.connect(url) as conn:
            return f"host {conn.info.host} port {conn.info.port} database {conn.info.dbname}"

    where = where_of(database_url)
    monkeypatch.setenv("DATABASE_URL", psycopg.conninfo.make_conninfo(database_url, password="not-to-be-shown"))
    missing = "00000000-0000-0000-0000-00000000abcd"
    result = CliRunner().invoke(audit, ["export", missing])
    assert result.exit_code == 1
    assert result.output == f"Error: no game {missing} in the database at {where}\n"
    # a database that is not facedown's at all (a new, empty one: the server's maintenance
    # database may hold anything): named too
    empty = db_factory.empty()
    monkeypatch.setenv("DATABASE_URL", psycopg.conninfo.make_conninfo(empty, password="not-to-be-shown"))
    result = CliRunner().invoke(audit, ["export", missing])
    assert result.exit_code == 1 and result.output.startswith(
        f"Error: cannot read games from the database at {where_of(empty)}: "), result.output
    assert "not-to-be-shown" not in result.output
