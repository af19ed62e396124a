"""What the least-privilege tests share (tests/events/test_privileges.py, and one module for each
later part of the schema): the service's own login on one database per module, and the check
that it is refused a statement. A module imports the fixtures by name to use them."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from psycopg import errors

from events.roles import service_url

#: a direct write of each kind, on a table ``t`` and one of its columns ``c``
WRITES = {
    "INSERT": "INSERT INTO {t} SELECT * FROM {t} LIMIT 1",
    "UPDATE": "UPDATE {t} SET {c} = {c}",
    "DELETE": "DELETE FROM {t}",
    "TRUNCATE": "TRUNCATE {t}",
}


@pytest.fixture(scope="module")
def refusing_url(db_factory: Any) -> str:
    """One database for the module's refusal tests: a refused statement changes nothing."""
    return db_factory.new()  # type: ignore[no-any-return]


@pytest.fixture
def app_conn(refusing_url: str) -> Iterator[psycopg.Connection[Any]]:
    """The service's login on that database."""
    conn = psycopg.connect(service_url(refusing_url), autocommit=True)
    yield conn
    conn.close()


def direct_writes(tables: dict[str, str]) -> list[Any]:
    """Every write of :data:`WRITES` on each table (its name: one of its columns), a test
    parameter each."""
    return [pytest.param(WRITES[verb].format(t=table, c=column), id=f"{verb}-{table}")
            for table, column in sorted(tables.items()) for verb in sorted(WRITES)]


def refused(conn: psycopg.Connection[Any], statement: str, *args: Any) -> None:
    """The service's login may not run ``statement``."""
    with pytest.raises(errors.InsufficientPrivilege):
        conn.execute(statement, args or None)  # type: ignore[arg-type]
