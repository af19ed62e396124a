"""Connections: a pool of autocommit connections acting as the service role.

Every psycopg error is translated here into :mod:`events.errors`, so that nothing
outside ``events/`` imports psycopg.
"""
from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterator, Sequence
from contextvars import ContextVar
from typing import Any, cast

import orjson
import psycopg
from psycopg import errors as pgerr, pq
from psycopg.conninfo import conninfo_to_dict
from psycopg.types.json import set_json_dumps
from psycopg_pool import ConnectionPool, PoolTimeout

from events.errors import AppendOnly, Duplicate, InvalidData, NotLive, RatingsMoved, StoreError, StoreUnavailable

SERVICE_ROLE = "facedown_app"
_SHARD_SUFFIX = re.compile(r"_1\d{5,}$")  # Citus numbers shards from 102008 up
_CONSTRAINT = re.compile(r'unique constraint "([^"]+)"')


_MOVED = "facedown: ratings moved"  # sql/030's refusal of an append whose ratings moved


@contextlib.contextmanager
def translated() -> Iterator[None]:
    """Turn psycopg errors into store errors."""
    try:
        yield
    except pgerr.InvalidAuthorizationSpecification as exc:  # a guard's refusal (before OperationalError)
        raise NotLive(str(exc).splitlines()[0]) from exc
    except pgerr.InsufficientPrivilege as exc:
        raise AppendOnly(str(exc).splitlines()[0]) from exc
    except pgerr.UniqueViolation as exc:
        # on a Citus cluster the violated index is a shard's, named "<index>_<shard id>", and
        # the error relayed from a worker may carry the name in its message only
        quoted = _CONSTRAINT.search(str(exc))
        name = _SHARD_SUFFIX.sub("", exc.diag.constraint_name or (quoted.group(1) if quoted else ""))
        raise Duplicate(name, str(exc).splitlines()[0]) from exc
    except (pgerr.UntranslatableCharacter, pgerr.CharacterNotInRepertoire, pgerr.InvalidTextRepresentation,
            pgerr.NumericValueOutOfRange, pgerr.DataException) as exc:
        raise InvalidData(str(exc).splitlines()[0]) from exc
    except pgerr.SerializationFailure as exc:
        # sql/030: a rating moved since the append's ratings were computed (the append is undone)
        if _MOVED not in str(exc):
            raise StoreError(str(exc).splitlines()[0]) from exc
        raise RatingsMoved(str(exc).splitlines()[0]) from exc
    except psycopg.OperationalError as exc:
        raise StoreUnavailable(str(exc).splitlines()[0] if str(exc) else "database unavailable") from exc
    except psycopg.Error as exc:
        if _MOVED in str(exc):  # relayed from a Citus worker, maybe under another code
            raise RatingsMoved(str(exc).splitlines()[0]) from exc
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


# A statement that must pass before anything else this context (a request's greenlet or thread)
# asks of the database: sent ahead of its next statement, in the same round trip (pipeline mode).
# If it raises, the server skips what was queued after it until the round trip's end.
_GUARD: ContextVar[tuple[str, Sequence[Any]] | None] = ContextVar("facedown_db_guard", default=None)


# How long the pool keeps retrying one connection before it gives up on it. psycopg_pool waits
# 1, 2, 4, 8... s between attempts, but never past this: so no attempt is ever due more than
# this long after the database is back, however long it was away. Once it gives up, the next
# request that finds no connection starts a new attempt at once.
RECONNECT_SECONDS = 1.0


class Database:
    """A connection pool for one database URL."""

    def __init__(self, url: str, *, min_size: int = 1, max_size: int = 10, service_role: bool = True,
                 timeout: float = 1.5, outage_timeout: float = 0.5,
                 reconnect_seconds: float = RECONNECT_SECONDS) -> None:
        self.url = url
        self.outage_timeout = min(outage_timeout, timeout)
        self._outage = False  # a connection failed, and none has worked since
        self._errors_seen = 0  # the pool's failed connection attempts, when a request last failed
        self._service_role = service_role
        # a guard goes in one pipeline with the next statement, except on a Citus coordinator:
        # Citus delegates a distributed function (fd_append) to its shard's node only outside
        # a transaction block, and a pipeline's statements share one; there the guard runs first
        self.pipelines = True
        with translated():
            # ``timeout``: how long a request waits for a connection. While the database is
            # away, requests fail fast (StoreUnavailable: 503) instead of hanging; the pool
            # reconnects in the background and requests succeed again once it is back.
            self.pool: ConnectionPool[Any] = ConnectionPool(
                url, min_size=min_size, max_size=max_size, open=True, timeout=timeout,
                reconnect_timeout=reconnect_seconds,
                kwargs={"autocommit": True, "connect_timeout": max(1, round(timeout))},
                configure=self._configure,
            )

    def _configure(self, conn: psycopg.Connection[Any]) -> None:
        _configure(conn, self._service_role)
        row = conn.execute("SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus')").fetchone()
        if row and row[0]:
            self.pipelines = False

    @contextlib.contextmanager
    def connection(self) -> Iterator[psycopg.Connection[Any]]:
        # While the database is known to be away, wait for a connection only briefly: the pool
        # reconnects in the background, and a client should have its 503 at once, not after
        # the whole wait (which a pool that is only busy still gets).
        guard = _GUARD.get()
        try:
            with translated(), self.pool.connection(self.outage_timeout if self._outage else None) as conn:
                if guard is not None and not self.pipelines:
                    _GUARD.set(None)
                    conn.execute(guard[0], guard[1])
                    yield conn
                elif guard is None:
                    yield conn
                else:
                    _GUARD.set(None)
                    guarded = _Guarded(conn, guard)
                    try:
                        yield cast("psycopg.Connection[Any]", guarded)
                    finally:
                        if guarded.pending is not None:  # no statement carried it: still pending
                            _GUARD.set(guard)
        except StoreUnavailable as exc:
            self._failed(exc)
            raise
        if self._outage:
            self._outage = False

    @staticmethod
    def guard(sql: str, params: Sequence[Any]) -> None:
        """Send ``sql`` (a statement that raises to refuse: ``NotLive`` when it raises
        ``invalid_authorization_specification``) ahead of this context's next statement, in
        the same round trip: a check that costs no round trip of its own, whose refusal skips
        everything sent after it (an append included). :meth:`settle` runs it if no statement
        follows; :meth:`unguard` forgets it."""
        _GUARD.set((sql, params))

    @staticmethod
    def unguard() -> None:
        _GUARD.set(None)

    def settle(self) -> None:
        """Run this context's pending guard now, if there is one (``NotLive`` if it refuses)."""
        guard = _GUARD.get()
        if guard is not None:
            _GUARD.set(None)
            with self.connection() as conn:
                conn.execute(guard[0], guard[1])

    def _failed(self, exc: StoreUnavailable) -> None:
        """An outage: a connection broke or could not be made (a busy pool's timeout is none)."""
        errors = self.pool.get_stats().get("connections_errors", 0)
        if not isinstance(exc.__cause__, PoolTimeout) or errors > self._errors_seen:
            self._outage = True
        self._errors_seen = errors

    def close(self) -> None:
        self.pool.close()

    def where(self) -> str:
        """Which database this is, for messages: its host, port and name as a connection has
        them (libpq's defaults resolved), else as the URL gives them; never a password."""
        try:
            with self.connection() as conn:
                host, port, name = conn.info.host, conn.info.port, conn.info.dbname
        except StoreError:
            given = conninfo_to_dict(self.url)
            host, port, name = (given.get(k) or "(default)" for k in ("host", "port", "dbname"))
        return f"host {host} port {port} database {name}"

    def ping(self) -> bool:
        try:
            with self.connection() as conn:
                conn.execute("SELECT 1")
            return True
        except StoreError:
            return False


class _Guarded:
    """A pooled connection whose first statement carries the pending guard ahead of it: both
    and the Sync go in one pipeline, one round trip. The guard's refusal is raised by that
    statement's ``execute`` (the statement itself is skipped by the server)."""

    def __init__(self, conn: psycopg.Connection[Any], guard: tuple[str, Sequence[Any]]) -> None:
        self._conn: psycopg.Connection[Any] = conn
        self.pending: tuple[str, Sequence[Any]] | None = guard

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)

    def execute(self, query: Any, params: Any = None, **kw: Any) -> psycopg.Cursor[Any]:
        guard, self.pending = self.pending, None
        if guard is None:
            return self._conn.execute(query, params, **kw)
        checked: psycopg.Cursor[Any] | None = None
        try:
            with self._conn.pipeline():  # leaving it sends the Sync and reads both results
                checked = self._conn.execute(guard[0], guard[1])
                return self._conn.execute(query, params, **kw)
        except BaseException:
            # A refused (or failed) guard makes the server skip the statement, its Parse too;
            # had psycopg just decided to prepare it (it had run five times on this connection),
            # it would count it as prepared and later name a statement that does not exist
            # ("prepared statement _pg3_0 does not exist", a 500). So that connection is not
            # used again (the pool opens another), and statements are prepared as usual
            # everywhere else: unprepared, each cost its backend a parse and a plan, about
            # 0.1 ms of a guarded view's 0.3-0.4 (docs/performance.md). A statement that fails
            # by itself was parsed: its connection stays.
            if checked is None or checked.pgresult is None or checked.pgresult.status != pq.ExecStatus.TUPLES_OK:
                self._conn.close()
            raise


def connect(url: str, autocommit: bool = True) -> psycopg.Connection[Any]:
    """A single dedicated connection (migrations, LISTEN, tests)."""
    with translated():
        return psycopg.connect(url, autocommit=autocommit)
