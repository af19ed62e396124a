"""Smoke tests of ``facedown bench``: every sub-command runs end to end on a real
PostgreSQL and reports well-formed figures with no errors. (The figures themselves are
measurements, not assertions: see BENCHMARKS.md.)

The default run has each benchmark's short form (a tiny size, seconds each), run once per
module and shared by the tests that read it (the report renders the same runs); the long
forms, each benchmark at its documented size (minutes in all), are marked ``long`` and run
with ``pytest -m long``. They check exactly what the short forms check."""
from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from click.testing import CliRunner

from service.entrypoints.cli import main

Bench = Callable[..., dict[str, Any]]
SHORT = {
    "store": ("--seconds", "0.1"),
    "rules": ("--games", "2", "--repeats", "1"),
    # one-round games: what the smoke test checks needs no whole game of 100 points
    "api": ("--clients", "2", "--games", "2", "--seconds", "0.5", "--options", '{"target_score": 1}'),
    "length": ("--lengths", "50,150", "--games", "1", "--commands", "3", "--views", "3"),
    "stream": ("--waiters", "20", "--games", "4", "--seconds", "2", "--rate", "4", "--clients", "1",
               "--abandoned", "20", "--idle-seconds", "1"),
    "notify": ("--players", "10", "--week-players", "4", "--days", "0.5", "--games-each", "2"),
}


@pytest.fixture(scope="module")
def bench(db_factory: Any) -> Iterator[Bench]:
    """``bench(name, *args)``: the JSON report of ``facedown bench name args --json``, run once
    per module (the benchmarks make and drop their own scratch database on the test server)."""
    runs: dict[tuple[str, ...], dict[str, Any]] = {}

    def run(*args: str) -> dict[str, Any]:
        if args not in runs:
            result = CliRunner().invoke(main, ["bench", *args, "--json"], catch_exceptions=False)
            assert result.exit_code == 0, result.output
            runs[args] = json.loads(result.stdout)
        return runs[args]

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DATABASE_URL", db_factory.admin)
        yield run


def check_rules(report: dict[str, Any]) -> None:
    rows = {r["ruleset"]: r for r in report["results"]}
    assert set(rows) == {"corte", "cuatro-cartas", "pedro", "least-score"}
    for row in rows.values():
        assert row["commands"] > 0 and row["steps_per_cpu_second"] > 0
    assert report["environment"]["cores"] >= 1 and report["units"]
    load = report["environment"]["load_average"]  # the machine's load beside its figures
    assert len(load["start"]) == len(load["end"]) == 3 and all(x >= 0 for x in load["start"] + load["end"])


def check_store(report: dict[str, Any]) -> None:
    rows = report["results"]
    floors = [r for r in rows if r["workload"] == "plain INSERT"]
    assert [r["threads"] for r in floors] == [1, 4, 8]
    assert all(r["per_second"] > 0 and r["ratio_to_floor"] > 0 for r in rows if r["workload"] != "plain INSERT")


def check_api(report: dict[str, Any]) -> None:
    api, clients = report["api"], report["settings"]["clients"]
    assert api["errors"] == 0, api["error_samples"]
    assert api["games"] == report["settings"]["games"] and api["commands"] > 0 and api["per_second"] > 0
    assert api["commands_latency"]["count"] == api["commands"]
    assert report["floor_plain_insert"]["per_second"] > 0 and report["peer_eventsourcing"]["per_second"] > 0
    assert report["ratios"]["api_to_floor"] > 0 and report["ratios"]["api_to_peer"] > 0
    # the stack floor ran with the same clients, the api run's mix of views per command and its answer sizes
    stack = report["stack_floor"]
    assert stack["errors"] == 0, stack["error_samples"]
    assert stack["clients"] == clients and stack["commands"] > 0 and stack["per_second"] > 0
    assert api["views_per_command"] > 0 and api["view_bytes"] > 100 and api["command_answer_bytes"] > 100
    # the answers' sizes as the bench prints them: mean, median, largest, share under 4 KB
    for name in ("command_answer_bytes", "view_bytes"):
        assert 100 < api[f"{name}_p50"] <= api[f"{name}_max"] and 0 <= api[f"{name}_under_4096"] <= 1
    if report["settings"]["answers"] == "minimal":  # a patch to the view held: smaller than the view
        assert api["command_answer_bytes"] < api["view_bytes"]
    assert stack["views"] == pytest.approx(stack["commands"] * api["views_per_command"], abs=1.5 * clients)
    assert report["ratios"]["api_to_stack_floor"] > 0
    # the rate while every client plays counts only commands answered in that window
    assert 0 < api["steady_seconds"] <= api["seconds"]
    assert api["per_second"] * api["steady_seconds"] <= api["commands"] + 1
    # where the CPU went, per command (Linux /proc), for facedown and for the stack floor
    for part in (api, stack):
        cpu = part["cpu_ms_per_command"]
        assert cpu["server"] > 0 and cpu["postgres"] > 0 and cpu["clients"] > 0
        assert cpu["total"] == pytest.approx(cpu["server"] + cpu["postgres"] + cpu["clients"], abs=0.01)


def check_length(report: dict[str, Any]) -> None:
    sizes = [r["events"] for r in report["results"]]
    commands = report["settings"]["commands"]
    assert sizes == sorted(sizes) and len(sizes) >= 2
    assert all(r["errors"] == 0 and r["command"]["count"] == commands * r["games"] for r in report["results"])
    assert report[f"ratio_{sizes[-1]}_to_{sizes[0]}"]["command_p50"] > 0


def check_stream(report: dict[str, Any]) -> None:
    assert report["errors"] == 0, report["error_samples"]
    for kind in ("poll", "sse"):
        wake = report["wake"][kind]
        assert wake["deliveries"] > 0 and wake["deliveries"] == wake["expected"], wake
    assert report["held_by_server"] >= 2 * report["settings"]["waiters_long_poll"]
    assert report["command_latency"]["p99_ms"] is not None and report["healthz_busy"]["p99_ms"] is not None
    release = report["release"]
    assert release["held_by_server"] >= release["abandoned"] * 0.9 and release["left_after"] <= 2
    assert release["released_seconds"] < 10


def check_notify(report: dict[str, Any]) -> None:
    lat, week = report["latency"], report["week"]
    assert lat["players_waiting"] == report["settings"]["players"]
    for kind in ("email", "push"):
        assert lat[kind]["missing"] == 0 and lat[kind]["count"] == lat["players_waiting"]
        assert 0 < lat[kind]["p50_ms"] <= lat[kind]["p99_ms"] <= lat[kind]["max_ms"]
    assert week["moves"] > 0 and week["pushes_per_player_per_day"] > 0
    assert week["emails_per_player_per_day"] >= 0 and set(week["emails_by_kind"]) <= {
        "digest", "reminder", "game_over", "invited", "your_turn"}
    # the defaults: turns are e-mailed in digests only
    assert "your_turn" not in week["emails_by_kind"]


CHECKS = {"store": check_store, "rules": check_rules, "api": check_api, "length": check_length,
          "stream": check_stream, "notify": check_notify}


def test_bench_rules_reports_every_ruleset(bench: Bench) -> None:
    check_rules(bench("rules", *SHORT["rules"]))


def test_bench_store_compares_appends_with_the_insert_floor(bench: Bench) -> None:
    check_store(bench("store", *SHORT["store"]))


def test_bench_api_plays_whole_games_over_http_beside_floor_and_peer(bench: Bench) -> None:
    report = bench("api", *SHORT["api"])
    assert report["settings"]["options"] == {"target_score": 1}
    check_api(report)


@pytest.mark.parametrize(("given", "said"), [("{oops", "not JSON"), ("[1]", "a JSON object")])
def test_bench_api_refuses_options_that_are_not_a_json_object(given: str, said: str) -> None:
    result = CliRunner().invoke(main, ["bench", "api", "--options", given])
    assert result.exit_code == 2 and said in result.output and "--options" in result.output


def test_bench_length_measures_short_and_long_games(bench: Bench) -> None:
    report = bench("length", *SHORT["length"])
    assert [r["events"] for r in report["results"]] == [50, 150]
    check_length(report)


def test_bench_stream_wakes_every_waiter(bench: Bench) -> None:
    check_stream(bench("stream", *SHORT["stream"]))


def test_bench_notify_times_email_and_push_and_counts_a_weeks_messages(bench: Bench) -> None:
    check_notify(bench("notify", *SHORT["notify"]))


def test_bench_report_renders_every_benchmark_with_its_targets_and_floors(bench: Bench, tmp_path: Any) -> None:
    from service.tools.bench.report import plot, render, speed_gauge

    store, rules = bench("store", *SHORT["store"]), bench("rules", *SHORT["rules"])
    load, length = [bench("api", *SHORT["api"])], bench("length", *SHORT["length"])
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


@pytest.mark.long
@pytest.mark.parametrize("name", list(CHECKS))
def test_each_benchmark_at_its_documented_size_reports_well_formed_figures(bench: Bench, name: str) -> None:
    CHECKS[name](bench(name))
