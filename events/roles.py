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
from collections.abc import Callable
from typing import Any, TypeVar

import psycopg
from psycopg import sql
from psycopg.conninfo import make_conninfo

from events.db import connect

APP_ROLE = "facedown_app"
T = TypeVar("T")
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


def _set_password(conn: psycopg.Connection[Any], password: str) -> None:
    statement = sql.SQL("ALTER ROLE {} WITH LOGIN PASSWORD {}").format(sql.Identifier(APP_ROLE),
                                                                        sql.Literal(password))

    def alter() -> None:
        with _lock:  # within a process, one at a time
            conn.execute(statement)

    retrying_role_races(alter)


def role_race(exc: BaseException) -> bool:
    """Is this PostgreSQL refusing the loser of two concurrent changes to a server-wide role?

    Roles belong to the whole server, not to a database: two processes (services, test runs,
    migrations of two databases) changing one at once get "tuple concurrently updated", or a
    duplicate role, for one of them; a database's advisory lock does not order them.
    """
    text = str(exc)
    if isinstance(exc, psycopg.errors.InternalError_):
        return "concurrently updated" in text
    if isinstance(exc, psycopg.errors.UniqueViolation):
        return "pg_authid" in text  # the catalogue of roles
    if isinstance(exc, psycopg.errors.DuplicateObject):
        return text.startswith('role "')  # role "..." already exists
    return False


def retrying_role_races(action: Callable[[], T], tries: int = 20) -> T:
    """``action()``, tried again (after a short random pause) while it loses a role race."""
    for attempt in range(tries):
        try:
            return action()
        except psycopg.Error as exc:
            if not role_race(exc) or attempt == tries - 1:
                raise
            time.sleep(random.uniform(0.005, 0.05) * (attempt + 1))
    raise AssertionError("unreachable")
