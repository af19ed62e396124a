"""Hostile input: Schemathesis (every check, then stateful sequences along the document's links)
against ``facedown serve``, bounded in time and examples, and a fixed corpus of malformed
requests (``service.tools.check.corpus``). No answer may be a 5xx; every failure Schemathesis finds
is a figure, and fails the row unless it is a refusal the rules make by design."""
from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import yaml

from facedown_client import Client

from service.tools.check import corpus
from service.tools.check.harness import Row, Settings, scratch, server
from service.tools.contract.spec import SPEC

#: Schemathesis failures that are documented refusals, not defects: (why, the operations where
#: that holds, None for every one). A command, an order or a webhook the schema allows but the
#: game (or a host with no network) refuses now, with 409/422; a game whose ruleset has no
#: reaction windows has no orders (404, as openapi.yaml says: "Corte and 4 Cartas")
BY_DESIGN: dict[str, tuple[str, frozenset[str] | None]] = {
    "RejectedPositiveData": ("schema-valid requests the rules refuse now (409/422), by design", None),
    "EnsureResourceAvailability": ("a game of a ruleset without reaction windows has no orders (404, documented)",
                                   frozenset({"GET /v1/games/{id}/orders"})),
}


#: (phases, seconds, examples per operation) of each Schemathesis run. With a time, fuzzing and
#: stateful testing go on until it is spent: the full form spends it on the coverage phase
#: (every boundary and negative case of every operation) and fuzzing, then on stateful
#: sequences. The quick form skips coverage (a minute alone) and has no time: each phase ends
#: after its examples (bounded in time by the subprocess' timeout)
RUNS: dict[bool, tuple[tuple[str, int | None, int], ...]] = {
    False: (("examples,coverage,fuzzing", 100, 30), ("stateful", 40, 30)),
    True: (("examples,fuzzing,stateful", None, 1),)}


def run(settings: Settings) -> list[Row]:
    say = settings.progress
    # the waits are capped (1 s) so that Schemathesis' generated long-polls and streams end soon
    env = {"FACEDOWN_LONG_POLL_MAX_SECONDS": "1", "FACEDOWN_STREAM_MAX_SECONDS": "1"}
    with scratch(settings.admin_url) as url, server(url, **env) as srv, tempfile.TemporaryDirectory() as tmp:
        token, spec = _prepared(srv.url, Path(tmp))
        rows = []
        for phases, budget, examples in RUNS[settings.quick]:
            say(f"hostile input: Schemathesis, {phases}, " + (f"{budget} s" if budget else f"{examples} example(s)"))
            rows.append(_schemathesis(srv.url, token, spec, Path(tmp), phases, budget, examples))
        say("hostile input: the malformed corpus")
        rows.append(corpus.run(srv.url, srv.port))
    return rows


def _prepared(base: str, tmp: Path) -> tuple[str, Path]:
    """A player, a running game of theirs, and the document with that game as the example id
    (so that generated cases reach past 404)."""
    # through the SDK, which retries a 503 (a loaded machine's database may keep a request
    # waiting past the pool's timeout)
    first, second = Client(base), Client(base)
    first.register("hostile-a")
    second.register("hostile-b")
    gid = first.create_game("corte", 2).id
    second.join(gid)
    tokens = [str(first.token), str(second.token)]
    document = yaml.safe_load(SPEC.read_text())
    document["components"]["parameters"]["GameId"]["example"] = gid
    path = tmp / "openapi.json"
    path.write_text(json.dumps(document))
    return tokens[0], path


def _schemathesis(base: str, token: str, spec: Path, tmp: Path, phases: str, budget: int | None,
                  examples: int) -> Row:
    reports = tmp / phases.replace(",", "-")
    cmd = [sys.executable, "-c", "from schemathesis.cli import schemathesis; schemathesis()", "run", str(spec),
           "--url", base, "-H", f"Authorization: Bearer {token}", "--checks", "all", "--phases", phases,
           "-n", str(examples), "--seed", "1", "--request-timeout", "20", "--workers", "2",
           "--report", "json,har", "--report-dir", str(reports)] + (["--max-time", str(budget)] if budget else [])
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=(budget or 120) + 300, cwd=tmp)
    found = sorted(reports.glob("json-*.json"))
    if not found:
        return Row("hostile input", f"Schemathesis ({phases})", {"exit": proc.returncode}, False,
                   (proc.stdout[-300:] + proc.stderr[-300:]).strip())
    report = json.loads(found[0].read_text())
    statuses = _har_statuses(sorted(reports.glob("har-*.json")))
    failures = {f["type"]: f for f in report.get("failures", [])}
    for kind, failure in failures.items():
        if kind == "EnsureResourceAvailability":  # stateful runs name the operation in their output only
            failure["operations"] = sorted(set(re.findall(r"Not available with: `([^`]+)`", proc.stdout))
                                           or failure.get("operations", []))
    defects = {k: f for k, f in failures.items() if not _by_design(k, f)}
    cases = report.get("test_cases", {})
    figures: dict[str, Any] = {
        "checks": "all", "seconds": round(report.get("running_time", 0), 1),
        "operations": report["operations"]["tested"],
        "test cases": cases.get("generated", 0), "requests": sum(statuses.values()),
        "5xx": sum(n for s, n in statuses.items() if s >= 500),
        "failures": {f["title"]: f["count"] for f in failures.values()},
        "network errors": sum(e.get("count", 0) for e in report.get("errors", [])),
    }
    if "stateful" in phases:
        figures["stateful scenarios"] = _scenarios(proc.stdout)
    notes = [f"{f['title']}: {', '.join(f['operations'][:4])}" for f in defects.values()]
    notes += [f"{f['title']}: {BY_DESIGN[k][0]}" for k, f in failures.items() if k not in defects]
    ok = (figures["5xx"] == 0 and not defects and figures["network errors"] == 0 and figures["test cases"] > 0
          and ("stateful" not in phases or bool(figures["stateful scenarios"])))
    return Row("hostile input", f"Schemathesis ({phases})", figures, ok, "; ".join(notes))


def _by_design(kind: str, failure: dict[str, Any]) -> bool:
    why = BY_DESIGN.get(kind)
    return why is not None and (why[1] is None or set(failure.get("operations", [])) <= why[1])


def _har_statuses(paths: list[Path]) -> Counter[int]:
    """The status of every response Schemathesis received (its HAR record)."""
    out: Counter[int] = Counter()
    for path in paths:
        for entry in json.loads(path.read_text())["log"]["entries"]:
            out[int(entry["response"]["status"])] += 1
    return out


def _scenarios(output: str) -> int | None:
    """The stateful phase's scenario count, from Schemathesis' own summary."""
    for line in output.splitlines():
        if line.strip().startswith("Scenarios:"):
            try:
                return int(line.split(":", 1)[1].split()[0])
            except (IndexError, ValueError):
                return None
    return None
