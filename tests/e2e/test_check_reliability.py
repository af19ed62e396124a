"""``facedown check reliability --quick`` runs every section against ``facedown serve`` on the
test database server (a private PostgreSQL for the restart) and finds every figure clean (the
log checker it rests on is tried on bad logs in tests/service/tools/test_check_log.py)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from service.tools.check.corpus import cases
from service.entrypoints.cli import main
from service.usecases.lobby import available

pytestmark = pytest.mark.e2e


def test_the_quick_check_computes_every_figure_and_finds_them_clean(db_factory: Any, tmp_path: Path) -> None:
    report = tmp_path / "RELIABILITY.md"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DATABASE_URL", db_factory.admin)
        result = CliRunner().invoke(main, ["check", "reliability", "--quick", "--json", "--output", str(report)],
                                    catch_exceptions=False)
    out = json.loads(result.stdout)
    rows = {(r["section"], r["test"]): r for r in out["rows"]}
    failing = [(k, r["figures"], r["note"]) for k, r in rows.items() if not r["ok"]]
    assert result.exit_code == 0 and out["ok"] and not failing, failing
    by = {section: [r["figures"] for (s, _), r in rows.items() if s == section] for section, _ in rows}

    races = by["races"][0]
    assert races["acknowledged"] == races["found in the log"] > 0 and races["windows claimed"] > 0
    assert races["lost"] == races["duplicated"] == races["gaps"] == races["windows won twice"] == 0
    assert races["5xx other than 503"] == races["refused though applied"] == 0
    assert races["twin sends (one key, at once)"] > 0
    worker, master = by["kill -9"]
    assert 0 < worker["acknowledged before the kill"] <= worker["found in the log"]
    assert master["acknowledged in all"] == master["found in the log"] > master["acknowledged before the kill"]
    assert master["orphaned workers"] == 0 and master["readyz at the end"] == 200
    (outage,) = by["database restart"]
    assert outage["503"] > 0 and outage["503 without Retry-After"] == outage["other 5xx"] == 0
    assert outage["recovered after s"] is not None and outage["slowest 503 ms"] < 2500 and outage["lost"] == 0
    schemathesis, corpus = by["hostile input"]
    assert schemathesis["test cases"] > 0 and schemathesis["5xx"] == 0 and schemathesis["stateful scenarios"]
    assert corpus["requests"] == len(cases("t", "g")) and corpus["5xx"] == corpus["accepted"] == 0
    waits, headers, bodies = by["resource exhaustion"]
    assert waits["long-polls left"] == waits["streams left"] == 0
    assert headers["cut off"] == headers["clients"] and bodies["answers"] == {"408": bodies["clients"]}
    leaks = {r["test"]: r["figures"] for (s, _), r in rows.items() if s == "leaks"}
    assert set(leaks) == set(available())
    assert all(f["views checked"] > 0 and f["unseen cards named"] == f["views unlike the audit"] == 0
               for f in leaks.values())
    text = report.read_text()
    assert "facedown check reliability --quick" in text and "| races |" in text and "FAIL" not in text
