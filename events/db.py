"""Connections: a pool of autocommit connections acting as the service role.

Every psycopg error is translated here into :mod:`events.errors`, so that nothing
outside ``events/`` imports psycopg.
"""
from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any

import orjson
import psycopg
from psycopg import errors as pgerr
from psycopg.types.json import set_json_dumps
from psycopg_pool import ConnectionPool

from events.errors import AppendOnly, InvalidData, StoreError, StoreUnavailable

SERVICE_ROLE = "facedown_app"


@contextlib.contextmanager
def translated() -> Iterator[None]:
    """Turn psycopg errors into store errors."""
    try:
        yield
    except pgerr.InsufficientPrivilege as exc:
        raise AppendOnly(str(exc).splitlines()[0]) from exc
    except (pgerr.UntranslatableCharacter, pgerr.CharacterNotInRepertoire, pgerr.InvalidTextRepresentation,
            pgerr.NumericValueOutOfRange, pgerr.DataException) as exc:
        raise InvalidData(str(exc).splitlines()[0]) from exc
    except psycopg.OperationalError as exc:
        raise StoreUnavailable(str(exc).splitlines()[0] if str(exc) else "database unavailable") from exc
    except psycopg.Error as exc:
        raise StoreError(str(exc).splitlines()[0] if str(exc) else type(exc).__name__) from exc


def json_dumps(value: Any) -> bytes:
    """JSON for jsonb parameters: orjson (about 5x faster than the standard library), which
    refuses integers past 64 bits; those (from a client's command body) take the slow path."""
    try:
        return orjson.dumps(value)
    except TypeError:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


def _configure(conn: psycopg.Connection[Any], service_role: bool) -> None:
    set_json_dumps(json_dumps, conn)
    if service_role:
        _act_as_service_role(conn)


def _act_as_service_role(conn: psycopg.Connection[Any]) -> None:
    """Drop to the service role where it exists, so the log is append-only by grant too."""
    row = conn.execute(
        "SELECT pg_has_role(current_user, r.oid, 'MEMBER') FROM pg_roles r WHERE r.rolname = %s",
        (SERVICE_ROLE,),
    ).fetchone()
    if row and row[0]:
        conn.execute(f"SET ROLE {SERVICE_ROLE}")


class Database:
    """A connection pool for one database URL."""

    def __init__(self, url: str, *, min_size: int = 1, max_size: int = 10, service_role: bool = True) -> None:
        self.url = url
        with translated():
            self.pool: ConnectionPool[Any] = ConnectionPool(
                url, min_size=min_size, max_size=max_size, open=True,
                kwargs={"autocommit": True}, configure=lambda conn: _configure(conn, service_role),
            )

    @contextlib.contextmanager
    def connection(self) -> Iterator[psycopg.Connection[Any]]:
        with translated(), self.pool.connection() as conn:
            yield conn

    def close(self) -> None:
        self.pool.close()

    def ping(self) -> bool:
        try:
            with self.connection() as conn:
                conn.execute("SELECT 1")
            return True
        except StoreError:
            return False


def connect(url: str, autocommit: bool = True) -> psycopg.Connection[Any]:
    """A single dedicated connection (migrations, LISTEN, tests)."""
    with translated():
        return psycopg.connect(url, autocommit=autocommit)
