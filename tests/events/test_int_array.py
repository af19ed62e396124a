"""``fd_int_array`` (sql/015): the game index's arrays from JSON, inlined by the planner
rather than planned anew on every call (the cost it had on every command's append)."""
from __future__ import annotations

import psycopg
import pytest


@pytest.mark.parametrize("given, expected", [
    ("[1, 2]", [1, 2]), ("[]", []), ("[-3,10,0]", [-3, 10, 0]), ("[7]", [7]), ("null", None),
])
def test_a_json_array_of_integers_becomes_an_int_array(database_url: str, given: str, expected: object) -> None:
    with psycopg.connect(database_url) as conn:
        assert conn.execute("SELECT fd_int_array(%s::jsonb)", (given,)).fetchone() == (expected,)


def test_the_planner_inlines_it(database_url: str) -> None:
    """No call of the function is left in the plan of a statement that uses it (013's form
    was called, and its body planned, once per use)."""
    with psycopg.connect(database_url) as conn:
        plan = "\n".join(r[0] for r in conn.execute(
            "EXPLAIN (VERBOSE) SELECT fd_int_array(to_jsonb(ARRAY[g])) FROM generate_series(1, 3) g"))
        assert "translate" in plan and "fd_int_array" not in plan, plan
