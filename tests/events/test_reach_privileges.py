"""Least privilege for reaching players (sql/016, sql/017): the service's login writes none of the
new tables directly, cannot read the secrets (the VAPID private key, the push auth secrets, the
e-mails' tokens and codes, the verification tokens' digests), nor call the internal writers; it
reads the rest and calls the functions it needs."""
from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timezone

import psycopg
import pytest
from psycopg import errors

from events import reach
from events.db import Database
from events.roles import service_url
from tests.events.test_privileges import WRITES

TABLES = {"player_emails": "email", "email_tokens": "email", "vapid_keys": "public_key",
          "push_subscriptions": "endpoint", "push_subscription_secrets": "auth",
          "notification_settings": "settings", "mail_outbox": "status", "mail_secrets": "secret",
          "push_outbox": "status", "page_presence": "holder"}
SECRETS = ("vapid_keys", "push_subscription_secrets", "mail_secrets", "email_tokens")
READABLE = sorted(set(TABLES) - set(SECRETS))
INTERNAL = ("SELECT fd_mail_insert('[]')", "SELECT fd_push_insert('[]')", "SELECT fd_reach_kinds()")


@pytest.fixture(scope="module")
def refusing_url(db_factory: object) -> str:
    """One database for the module: a refused statement changes nothing."""
    return db_factory.new()  # type: ignore[attr-defined,no-any-return]


@pytest.fixture
def app_conn(refusing_url: str) -> Iterator[psycopg.Connection[object]]:
    conn = psycopg.connect(service_url(refusing_url), autocommit=True)
    yield conn
    conn.close()


@pytest.mark.parametrize("table", sorted(TABLES))
@pytest.mark.parametrize("verb", sorted(WRITES))
def test_no_table_of_reaching_players_can_be_written_directly(app_conn: psycopg.Connection[object], table: str,
                                                              verb: str) -> None:
    with pytest.raises(errors.InsufficientPrivilege):
        app_conn.execute(WRITES[verb].format(t=table, c=TABLES[table]))  # type: ignore[arg-type]


@pytest.mark.parametrize("table", SECRETS)
def test_the_secrets_cannot_be_read_directly(app_conn: psycopg.Connection[object], table: str) -> None:
    with pytest.raises(errors.InsufficientPrivilege):
        app_conn.execute(f"SELECT * FROM {table}")  # type: ignore[arg-type]


@pytest.mark.parametrize("table", READABLE)
def test_the_rest_is_read(app_conn: psycopg.Connection[object], table: str) -> None:
    assert app_conn.execute(f"SELECT count(*) FROM {table}").fetchone() == (0,)  # type: ignore[arg-type]


@pytest.mark.parametrize("statement", INTERNAL)
def test_the_internal_functions_are_not_callable(app_conn: psycopg.Connection[object], statement: str) -> None:
    with pytest.raises(errors.InsufficientPrivilege):
        app_conn.execute(statement)  # type: ignore[arg-type]


def test_the_private_key_reaches_the_service_only_through_its_function(database_url: str) -> None:
    db = Database(service_url(database_url), max_size=1)
    try:
        now = datetime(2026, 1, 1, tzinfo=timezone.utc)
        assert reach.vapid_key(db, "pub", b"\x01private", now) == ("pub", b"\x01private")
        with db.connection() as conn, pytest.raises(Exception, match="permission denied"):
            conn.execute("SELECT private_key FROM vapid_keys")
    finally:
        db.close()
