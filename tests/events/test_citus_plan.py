"""On plain PostgreSQL: the Citus plan (events/citus.py) places every table the migrations make,
names functions that exist, and its Citus forms of functions replace existing ones (same
arguments and results) instead of adding others, nor letting anyone else call them."""
from __future__ import annotations

import re

from events import citus
from events.db import connect


def _functions(conn: object) -> set[str]:
    return {r[0] for r in conn.execute(  # type: ignore[attr-defined]
        "SELECT p.oid::regprocedure::text || ' -> ' || pg_get_function_result(p.oid) FROM pg_proc p"
        " JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public'")}


def test_every_table_of_the_migrations_has_a_place_on_citus(database_url: str) -> None:
    with connect(database_url) as conn:
        tables = {r[0] for r in conn.execute(
            "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')")}
        assert not citus.installed(conn) and not citus.is_coordinator(conn)
    assert tables == set(citus.PLAN)


def test_the_distributed_functions_and_the_citus_forms_match_existing_functions(database_url: str) -> None:
    with connect(database_url) as conn:
        for signature in citus.FUNCTIONS:
            conn.execute("SELECT %s::regprocedure", (signature,))
        before = _functions(conn)
        with conn.transaction(force_rollback=True):
            conn.execute("SET LOCAL ROLE facedown_owner")
            conn.execute(citus.OVERRIDES.read_text())  # type: ignore[arg-type]
            after = _functions(conn)
            public = conn.execute(
                "SELECT p.oid::regprocedure::text FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace"
                " WHERE n.nspname = 'public' AND p.proname LIKE 'fd%%'"
                " AND has_function_privilege('public', p.oid, 'EXECUTE')").fetchall()
            app = {r[0] for r in conn.execute(
                "SELECT p.oid::regprocedure::text FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace"
                " WHERE n.nspname = 'public' AND has_function_privilege('facedown_app', p.oid, 'EXECUTE')")}
    # the migrations' fd_apply stays, renamed, for the effects the Citus form hands on to it
    assert after == before | {"fd_apply_plain(uuid,jsonb) -> void"}
    assert not public
    assert "fd_apply(uuid,jsonb)" not in app and "fd_use_token(text,timestamp with time zone)" in app
    replaced = re.findall(r"CREATE OR REPLACE FUNCTION (\w+)\(", citus.OVERRIDES.read_text())
    assert replaced and all(any(f.startswith(name + "(") for f in before) for name in replaced)
