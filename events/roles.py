"""The service's own login: a role that is not a superuser and owns nothing (sql/008).

Given a superuser's URL (the quick path, and the embedded server), the service migrates with
it and then serves through ``facedown_app``, whose password it sets when it starts: nothing
stores a password. An operator may instead give the service's login directly
(``FACEDOWN_APP_DATABASE_URL``), which is then used as it is.
"""
from __future__ import annotations

import logging
import random
import secrets
import threading
import time
from typing import Any

import psycopg
from psycopg import sql
from psycopg.conninfo import make_conninfo

from events.db import connect

APP_ROLE = "facedown_app"
log = logging.getLogger(__name__)
_lock = threading.Lock()
_password: list[str] = []  # one per process: several apps in one process share the login


def _process_password() -> str:
    with _lock:
        if not _password:
            _password.append(secrets.token_urlsafe(24))
        return _password[0]


def service_url(url: str) -> str:
    """The URL the service should connect with (see the module docstring)."""
    with connect(url) as conn:
        row = conn.execute(
            "SELECT r.rolsuper OR r.rolcreaterole, current_user,"
            " (SELECT rolcanlogin FROM pg_roles WHERE rolname = %s)"
            " FROM pg_roles r WHERE r.rolname = current_user", (APP_ROLE,)).fetchone()
        assert row is not None
        may_manage, user, app_can_login = row
        if user == APP_ROLE or not may_manage:
            return url  # already the service's login, or a user that cannot hand one out
        if app_can_login is None:
            log.warning("the role %s does not exist; serving as %s", APP_ROLE, user)
            return url
        password = _process_password()
        _set_password(conn, password)
    return make_conninfo(url, user=APP_ROLE, password=password)


def _set_password(conn: psycopg.Connection[Any], password: str, tries: int = 20) -> None:
    """A role is the whole server's: two processes (services, test runs) starting at once on
    one server may both set it, and PostgreSQL then refuses one with "tuple concurrently
    updated"; that one tries again (within a process, one at a time)."""
    statement = sql.SQL("ALTER ROLE {} WITH LOGIN PASSWORD {}").format(sql.Identifier(APP_ROLE),
                                                                        sql.Literal(password))
    for attempt in range(tries):
        try:
            with _lock:
                conn.execute(statement)
            return
        except psycopg.errors.InternalError_ as exc:
            if "concurrently updated" not in str(exc) or attempt == tries - 1:
                raise
            time.sleep(random.uniform(0.005, 0.05) * (attempt + 1))
