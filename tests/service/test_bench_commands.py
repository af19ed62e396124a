"""Smoke tests of ``facedown bench``: every sub-command runs end to end on a real
PostgreSQL at a tiny size and reports well-formed figures with no errors. (The figures
themselves are measurements, not assertions: see BENCHMARKS.md.)"""
from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner

from service.cli import main


@pytest.fixture
def server_url(db_factory: Any, monkeypatch: pytest.MonkeyPatch) -> str:
    """The benchmarks make (and drop) their own scratch database on the configured server."""
    monkeypatch.setenv("DATABASE_URL", db_factory.admin)
    return str(db_factory.admin)


def _bench(*args: str) -> dict[str, Any]:
    result = CliRunner().invoke(main, ["bench", *args, "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def test_bench_rules_reports_every_ruleset() -> None:
    report = _bench("rules", "--games", "2")
    rows = {r["ruleset"]: r for r in report["results"]}
    assert set(rows) == {"corte", "cuatro-cartas", "pedro", "least-score"}
    for row in rows.values():
        assert row["commands"] > 0 and row["steps_per_cpu_second"] > 0
    assert report["environment"]["cores"] >= 1 and report["units"]


def test_bench_store_compares_appends_with_the_insert_floor(server_url: str) -> None:
    report = _bench("store", "--seconds", "0.5")
    rows = report["results"]
    floors = [r for r in rows if r["workload"] == "plain INSERT"]
    assert [r["threads"] for r in floors] == [1, 4, 8]
    assert all(r["per_second"] > 0 and r["ratio_to_floor"] > 0 for r in rows if r["workload"] != "plain INSERT")


def test_bench_api_plays_whole_games_over_http_beside_floor_and_peer(server_url: str) -> None:
    report = _bench("api", "--clients", "2", "--games", "2", "--seconds", "0.5")
    api = report["api"]
    assert api["errors"] == 0, api["error_samples"]
    assert api["games"] == 2 and api["commands"] > 0 and api["per_second"] > 0
    assert api["commands_latency"]["count"] == api["commands"]
    assert report["floor_plain_insert"]["per_second"] > 0 and report["peer_eventsourcing"]["per_second"] > 0
    assert report["ratios"]["api_to_floor"] > 0 and report["ratios"]["api_to_peer"] > 0
    # the stack floor ran with the same clients, the api run's mix of views per command and its answer sizes
    stack = report["stack_floor"]
    assert stack["errors"] == 0, stack["error_samples"]
    assert stack["clients"] == 2 and stack["commands"] > 0 and stack["per_second"] > 0
    assert api["views_per_command"] > 0 and api["view_bytes"] > 100 and api["command_answer_bytes"] > 100
    assert stack["views"] == pytest.approx(stack["commands"] * api["views_per_command"], abs=3)
    assert report["ratios"]["api_to_stack_floor"] > 0
    # the rate while every client plays counts only commands answered in that window
    assert 0 < api["steady_seconds"] <= api["seconds"]
    assert api["per_second"] * api["steady_seconds"] <= api["commands"] + 1
    # where the CPU went, per command (Linux /proc), for facedown and for the stack floor
    for part in (api, stack):
        cpu = part["cpu_ms_per_command"]
        assert cpu["server"] > 0 and cpu["postgres"] > 0 and cpu["clients"] > 0
        assert cpu["total"] == pytest.approx(cpu["server"] + cpu["postgres"] + cpu["clients"], abs=0.01)


def test_bench_length_measures_short_and_long_games(server_url: str) -> None:
    report = _bench("length", "--lengths", "50,150", "--games", "1", "--commands", "3", "--views", "3")
    assert [r["events"] for r in report["results"]] == [50, 150]
    assert all(r["errors"] == 0 and r["command"]["count"] == 3 for r in report["results"])
    assert report["ratio_150_to_50"]["command_p50"] > 0


def test_bench_stream_wakes_every_waiter(server_url: str) -> None:
    report = _bench("stream", "--waiters", "20", "--games", "4", "--seconds", "2", "--rate", "4",
                    "--clients", "1", "--pool", "4", "--recheck", "1")
    assert report["errors"] == 0, report["error_samples"]
    for kind in ("poll", "sse"):
        wake = report["wake"][kind]
        assert wake["deliveries"] > 0 and wake["deliveries"] == wake["expected"], wake


def test_bench_report_renders_every_benchmark_with_its_targets_and_floors(server_url: str, tmp_path: Any) -> None:
    from service.bench_report import plot, render, speed_gauge

    store = _bench("store", "--seconds", "0.5")
    rules = _bench("rules", "--games", "1", "--repeats", "1")
    load = [_bench("api", "--clients", "1", "--games", "1", "--seconds", "0.5")]
    length = _bench("length", "--lengths", "50,150", "--games", "1", "--commands", "2", "--views", "2")
    gauge = speed_gauge()
    assert gauge > 0
    text = render(store, rules, load, length, None, "today", [gauge, gauge])
    targets = text.split("## Targets (issue 7) against this run", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in targets.splitlines() if line.startswith("| ") and not line.startswith("| benchmark")]
    assert [r.split(" | ")[0] for r in rows] == ["| api", "| length", "| rules"]
    assert all(r.endswith("| yes |") or r.endswith("| no |") for r in rows)
    assert "stack floor" in rows[0] and f"{gauge}, {gauge}" in text
    for ruleset in ("corte", "cuatro-cartas", "pedro", "least-score"):
        assert f"| {ruleset} | " in text
    plot(load, length, tmp_path / "plot.png")
    assert (tmp_path / "plot.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
