"""Least privilege: the service's login can read and call the write functions, nothing more."""
from __future__ import annotations

import uuid

import psycopg
import pytest

from events.roles import APP_ROLE, service_url
from events.store import EventStore, NewEvent
from events.db import Database
from tests.support.privileges import app_conn, direct_writes, refused, refusing_url  # noqa: F401 (fixtures)

EVENT_TABLES = {"events": "type", "streams": "kind", "snapshots": "fingerprint", "processed_commands": "command_id"}
READ_MODELS = {"game_index": "name", "game_players": "player_id", "players": "name", "notifications": "kind",
               "notification_heads": "seq", "webhooks": "url", "webhook_deliveries": "status"}
SECRETS = ("game_secrets", "webhook_secrets")


def test_the_service_logs_in_as_its_own_role_that_is_no_superuser(app_conn: psycopg.Connection[object]) -> None:
    user, superuser = app_conn.execute(
        "SELECT current_user, rolsuper FROM pg_roles WHERE rolname = current_user").fetchone()
    assert (user, superuser) == (APP_ROLE, False)
    owned = app_conn.execute("SELECT count(*) FROM pg_class WHERE relowner = 'facedown_app'::regrole").fetchone()
    assert owned == (0,)


@pytest.mark.parametrize("statement", direct_writes({**EVENT_TABLES, **READ_MODELS}))
def test_no_table_can_be_written_directly(app_conn: psycopg.Connection[object], statement: str) -> None:
    refused(app_conn, statement)


@pytest.mark.parametrize("table", SECRETS)
def test_the_secrets_cannot_be_read_directly(app_conn: psycopg.Connection[object], table: str) -> None:
    refused(app_conn, f"SELECT * FROM {table}")


@pytest.mark.parametrize("role", ["postgres", "facedown_owner"])
def test_the_service_cannot_change_its_role(app_conn: psycopg.Connection[object], role: str) -> None:
    refused(app_conn, f"SET ROLE {role}")
    app_conn.execute("RESET ROLE")
    assert app_conn.execute("SELECT current_user").fetchone() == (APP_ROLE,)


def test_the_internal_functions_are_not_callable(app_conn: psycopg.Connection[object]) -> None:
    refused(app_conn, "SELECT fd_apply(%s, '{\"op\": \"player\"}'::jsonb)", uuid.uuid4())


def test_through_the_append_function_the_service_writes_the_log_and_its_read_models(database_url: str) -> None:
    from events import players

    db = Database(service_url(database_url), max_size=1)
    try:
        pid = uuid.uuid4()
        EventStore(db).append(pid, 0, [NewEvent("PlayerRegistered", {"name": "ann", "token_sha256": "x" * 64})],
                              kind="player", effects=[players.player_effect(pid, "ann", "x" * 64)])
        assert players.by_token_hash(db, "x" * 64) is not None
        assert EventStore(db).verify(pid) is None
    finally:
        db.close()
