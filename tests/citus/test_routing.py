"""Every statement the service sends on the command and view paths runs on one shard: each is
recorded as a server with cold caches answers a command and the views after it, then EXPLAINed
on the coordinator. A call of a function that Citus does not delegate (the authentication's)
shows only a function scan there, so its own statements are run again with Citus logging the
shard each one goes to."""
from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
import pytest

from events import citus
from events.db import connect
from tests.service.helpers import acting, serve, start_game

TABLES = {t for t, how in citus.PLAN.items() if how != "local"}
_SHARD = re.compile(r"\b(" + "|".join(sorted(TABLES, key=len, reverse=True)) + r")_(\d+)\b")


@contextmanager
def recording(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, Any]]]:
    """Every (query, params) a psycopg cursor of this process executes while the block runs."""
    seen: list[tuple[str, Any]] = []
    on = threading.Event()
    on.set()
    original = psycopg.Cursor.execute

    def execute(self: Any, query: Any, params: Any = None, **kw: Any) -> Any:
        if on.is_set() and isinstance(query, str):
            seen.append((query, params))
        return original(self, query, params, **kw)

    monkeypatch.setattr(psycopg.Cursor, "execute", execute)
    try:
        yield seen
    finally:
        on.clear()
        monkeypatch.setattr(psycopg.Cursor, "execute", original)


def _explain(conn: Any, query: str, params: Any) -> str:
    cur = psycopg.ClientCursor(conn)
    return "\n".join(r[0] for r in cur.execute("EXPLAIN " + query, params))


def _shards_touched(conn: Any, query: str, params: Any) -> dict[str, set[str]]:
    """Run the statement in a transaction that is rolled back, with Citus saying which shard
    each of its statements (those inside a function too) went to: table -> shard ids."""
    notices: list[str] = []
    conn.add_notice_handler(lambda d: notices.append(d.message_primary or ""))
    touched: dict[str, set[str]] = {}
    try:
        with conn.transaction(force_rollback=True):
            conn.execute("SET LOCAL citus.log_remote_commands = on")
            conn.execute("SET LOCAL citus.log_local_commands = on")
            psycopg.ClientCursor(conn).execute(query, params)
    finally:
        conn._notice_handlers.clear()
    for message in notices:
        for table, shard in _SHARD.findall(message):
            touched.setdefault(table, set()).add(shard)
    return touched


@pytest.fixture(scope="module")
def seated(coordinator: str) -> Iterator[tuple[str, Any]]:
    """A game of four, dealt, by a first server (the second one starts cold)."""
    for live in serve(coordinator):
        yield start_game(live, "pedro", 4, {})


def test_every_statement_of_the_command_and_view_paths_is_routed_to_one_shard(
        coordinator: str, seated: tuple[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    gid, players = seated
    for cold in serve(coordinator):
        players = [type(p)(cold, p.id, p.name, p.token) for p in players]  # the same players, on it
        p, v = acting(gid, players)
        other = next(q for q in players if q is not p)
        with recording(monkeypatch) as seen:
            r = p.post(f"/v1/games/{gid}/commands", v["legal_actions"][0], headers={"Idempotency-Key": "routed-1"})
            assert r.status_code == 200, r.text
            for q in (p, other):
                assert q.get(f"/v1/games/{gid}/view").status_code == 200
                assert q.get(f"/v1/games/{gid}").status_code == 200
                assert q.get(f"/v1/games/{gid}/events", params={"after": 0}).status_code == 200
        _check(coordinator, seen)


def _check(coordinator: str, seen: list[tuple[str, Any]]) -> None:
    checked = 0
    with connect(coordinator) as conn:
        for query, params in seen:
            verb = query.lstrip().split(None, 1)[0].upper()
            if verb not in ("SELECT", "INSERT", "UPDATE", "DELETE", "WITH"):
                continue  # SET ROLE, LISTEN: no table
            plan = _explain(conn, query, params)
            if "Custom Scan (Citus" in plan:
                counts = [int(n) for n in re.findall(r"Task Count: (\d+)", plan)]
                assert counts and all(n == 1 for n in counts), f"{query}\n{plan}"
                checked += 1
                continue
            # not planned by Citus: either no table of ours at all (a catalog query, a
            # notification), or a function that runs on the coordinator: its statements then
            called = re.findall(r"\b(fd_\w+)\(", query)
            if not called:
                assert not any(re.search(rf"\b{t}\b", query) for t in TABLES), f"{query}\n{plan}"
                continue
            touched = _shards_touched(conn, query, params)
            assert touched, f"{query}: no statement of it was routed by Citus"
            assert all(len(shards) == 1 for shards in touched.values()), f"{query}: {touched}"
            checked += 1
    print(f"{checked} statements routed to one shard each, of {len(seen)} recorded")
    assert checked >= 6, seen  # the idempotency lookup, the load, the append, the secret, the reads
