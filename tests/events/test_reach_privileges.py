"""Least privilege for reaching players (sql/016, sql/017): the service's login writes none of the
new tables directly, cannot read the secrets (the VAPID private key, the push auth secrets, the
e-mails' tokens and codes, the verification tokens' digests), nor call the internal writers; it
reads the rest and calls the functions it needs."""
from __future__ import annotations

from datetime import datetime, timezone

import psycopg
import pytest

from events import reach
from events.db import Database
from events.roles import service_url
from tests.support.privileges import app_conn, direct_writes, refused, refusing_url  # noqa: F401 (fixtures)

TABLES = {"player_emails": "email", "email_tokens": "email", "vapid_keys": "public_key",
          "push_subscriptions": "endpoint", "push_subscription_secrets": "auth",
          "notification_settings": "settings", "mail_outbox": "status", "mail_secrets": "secret",
          "push_outbox": "status", "page_presence": "holder"}
SECRETS = ("vapid_keys", "push_subscription_secrets", "mail_secrets", "email_tokens")
READABLE = sorted(set(TABLES) - set(SECRETS))
INTERNAL = ("SELECT fd_mail_insert('[]')", "SELECT fd_push_insert('[]')", "SELECT fd_reach_kinds()")


@pytest.mark.parametrize("statement", direct_writes(TABLES))
def test_no_table_of_reaching_players_can_be_written_directly(app_conn: psycopg.Connection[object],
                                                              statement: str) -> None:
    refused(app_conn, statement)


@pytest.mark.parametrize("table", SECRETS)
def test_the_secrets_cannot_be_read_directly(app_conn: psycopg.Connection[object], table: str) -> None:
    refused(app_conn, f"SELECT * FROM {table}")


@pytest.mark.parametrize("table", READABLE)
def test_the_rest_is_read(app_conn: psycopg.Connection[object], table: str) -> None:
    assert app_conn.execute(f"SELECT count(*) FROM {table}").fetchone() == (0,)  # type: ignore[arg-type]


@pytest.mark.parametrize("statement", INTERNAL)
def test_the_internal_functions_are_not_callable(app_conn: psycopg.Connection[object], statement: str) -> None:
    refused(app_conn, statement)


def test_the_private_key_reaches_the_service_only_through_its_function(database_url: str) -> None:
    db = Database(service_url(database_url), max_size=1)
    try:
        now = datetime(2026, 1, 1, tzinfo=timezone.utc)
        assert reach.vapid_key(db, "pub", b"\x01private", now) == ("pub", b"\x01private")
        with db.connection() as conn, pytest.raises(Exception, match="permission denied"):
            conn.execute("SELECT private_key FROM vapid_keys")
    finally:
        db.close()
