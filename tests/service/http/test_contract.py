"""openapi.yaml is a tested contract: valid, complete, and kept by the live server (Schemathesis)."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from tests.service.conftest import RULESETS
from tests.service.helpers import Live, serve, start_game
from tests.sizes import sized
from tests.support.spec import document, parse

SPEC = Path(__file__).resolve().parents[3] / "openapi.yaml"
METHODS = {"get", "post", "put", "patch", "delete"}


@pytest.fixture(scope="module")
def live(db_factory: object) -> Iterator[Live]:
    """This module's server answers long-polls, and ends event streams, after at most 0.2 s
    (Schemathesis asks for many: at 1 s each, waiting was half of its run)."""
    yield from serve(db_factory.new(), long_poll_max=0.2, stream_max_seconds=0.2)  # type: ignore[attr-defined]


def _spec() -> dict:
    return document()


def test_the_document_is_valid_openapi_3_1() -> None:
    from openapi_spec_validator import validate

    spec = _spec()
    assert spec["openapi"].startswith("3.1")
    validate(spec)


def test_every_route_is_documented_and_every_documented_operation_exists(live: Live) -> None:
    routes = set()
    for rule in live.app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        path = re.sub(r"<(?:\w+:)?(\w+)>", "{}", rule.rule)
        routes |= {(path, m.lower()) for m in rule.methods or () if m.lower() in METHODS}
    # parameters compared by position, whatever their names
    documented = {(re.sub(r"\{\w+\}", "{}", p), m) for p, ops in _spec()["paths"].items() for m in ops
                  if m in METHODS}
    assert routes == documented


def test_the_server_serves_the_document(live: Live) -> None:
    r = requests.get(live.url + "/openapi.yaml", timeout=10)
    assert r.status_code == 200 and parse(r.text) == _spec()


def test_every_operation_has_examples_and_problem_responses() -> None:
    spec = _spec()
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            assert op.get("summary") and op.get("operationId"), (path, method)
            for status, resp in op["responses"].items():
                if str(status).startswith(("4", "5")):
                    assert resp["$ref"].startswith("#/components/responses/"), (path, method, status)


@pytest.mark.parametrize("examples", sized(2, 5))
def test_schemathesis_finds_no_failure_against_the_live_server(live: Live, tmp_path: Path, examples: int) -> None:
    """Bounded: ``examples`` generated cases per operation in the fuzzing phase (2 by default, 5
    under ``-m long``, or FACEDOWN_SCHEMATHESIS_EXAMPLES); every case of the coverage phase runs
    in both, and that phase is two thirds of the time. The full run is in docs/curl-walkthrough.md.

    The copy of the document under test differs in one way only: the example game id is a
    real game (so generated cases reach past 404). This server caps long-polls at 0.2 s.
    """
    gid, players = start_game(live, RULESETS[-1])
    spec = _spec()
    spec["components"]["parameters"]["GameId"]["example"] = gid
    path = tmp_path / "openapi.json"
    path.write_text(json.dumps(spec))
    checks = ("not_a_server_error,status_code_conformance,content_type_conformance,"
              "response_headers_conformance,response_schema_conformance,negative_data_rejection")
    examples = int(os.environ.get("FACEDOWN_SCHEMATHESIS_EXAMPLES", examples))
    # the CLI of this interpreter's schemathesis (a test extra): found whether or not its venv's
    # bin is on PATH (it was not when pytest ran by its full path, and the test was skipped)
    cmd = [sys.executable, "-c", "from schemathesis.cli import schemathesis; schemathesis()", "run", str(path),
           "--url", live.url,
           "-H", f"Authorization: Bearer {players[0].token}", "--checks", checks,
           "-n", str(examples), "--phases", "examples,coverage,fuzzing", "--seed", "1",
           "--request-timeout", "20", "--workers", "1"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-2000:]


def _properties(node: object, where: str = "") -> Iterator[tuple[str, str, object]]:
    """(where, property name, its schema) for every property of every schema in the document."""
    if isinstance(node, dict):
        for name, schema in (node.get("properties") or {}).items() if isinstance(node.get("properties"), dict) else ():
            yield where, name, schema
        for key, value in node.items():
            if key not in ("example", "examples"):
                yield from _properties(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _properties(value, f"{where}/{i}")


def test_every_timestamp_of_the_contract_is_rfc_3339_utc_ending_in_z() -> None:
    """One format for every timestamp (the contract watch of every service test then checks
    each answer's): a property that names a moment refers to ``Timestamp``."""
    spec = _spec()
    assert spec["components"]["schemas"]["Timestamp"]["pattern"] == "Z$"
    moments = re.compile(r"^(at|since|until|from|timestamp)$|_(at|until)$")
    not_moments = {"eliminate_at"}  # a Least Score option: "exceed" or "reach" the threshold
    wall_clock = "/components/schemas/QuietHours"  # times of day on the player's clock, not moments
    loose = [f"{where}.{name}" for where, name, schema in _properties(spec)
             if moments.search(name) and name not in not_moments and where != wall_clock
             and "#/components/schemas/Timestamp" not in json.dumps(schema)]
    assert loose == []
    dated = [where for where, name, schema in _properties(spec) if "date-time" in json.dumps(schema)]
    assert dated == []  # only Timestamp itself says date-time
