"""``facedown bench``: benchmarks that print numbers (commands, not timed tests)."""
from __future__ import annotations

import json
import os
from typing import Any

import click

from service.tools.bench.common import emit, environment, print_table, server_version


@click.group()
def bench() -> None:
    """Benchmarks. Each prints a table, or JSON with --json."""


@bench.command("store")
@click.option("--seconds", default=3.0, show_default=True, type=click.FloatRange(0.1, 600), help="Per measurement.")
@click.option("--citus", "on_citus", is_flag=True,
              help="Instead: appends on a local 3-node Citus cluster beside a single node, in one run.")
@click.option("--json", "as_json", is_flag=True)
def bench_store(seconds: float, on_citus: bool, as_json: bool) -> None:
    """Appends/s and p50/p99 through the store at 1, 4, 8 threads, beside plain INSERTs (the floor)."""
    if on_citus:
        _bench_store_citus(seconds, as_json)
        return
    from events import migrations
    from events.bench_sql import scratch_database
    from service.tools.bench.store import plain_inserts, store_appends
    from events.db import Database
    from events.embedded import database_url

    url, embedded = database_url()
    scratch, drop = scratch_database(url)
    rows: list[dict[str, Any]] = []
    try:
        migrations.upgrade(scratch)
        db = Database(scratch, min_size=8, max_size=8)
        try:
            pg = server_version(db)
            for threads in (1, 4, 8):
                floor = plain_inserts(db, threads, seconds)
                store = store_appends(db, threads, seconds)
                in_txn = store_appends(db, threads, seconds, batched_hints=False)
                snap = store_appends(db, threads, seconds, snapshot_bytes=2048)
                rows.append({"workload": "plain INSERT", **floor})
                rows.append({"workload": "store append", **store,
                             "ratio_to_floor": round(store["per_second"] / floor["per_second"], 3)})
                rows.append({"workload": "append+NOTIFY", **in_txn,
                             "ratio_to_floor": round(in_txn["per_second"] / floor["per_second"], 3)})
                rows.append({"workload": "append+snapshot", **snap,
                             "ratio_to_floor": round(snap["per_second"] / floor["per_second"], 3)})
        finally:
            db.close()
    finally:
        drop()
        if embedded is not None:
            embedded.stop()
    report = {"benchmark": "store", "settings": {"seconds": seconds, "events_per_append": 1,
                                                 "database": "embedded" if embedded else "DATABASE_URL",
                                                 "postgresql": pg},
              "environment": environment(),
              "units": {"per_second": "operations/s", "p50_ms": "ms", "p99_ms": "ms"},
              "results": rows}
    emit(report, as_json, f"bench store ({seconds}s each, PostgreSQL {pg}, {os.cpu_count()} cores)",
         ["workload", "threads", "per_second", "p50_ms", "p99_ms", "ratio_to_floor"])


def _bench_store_citus(seconds: float, as_json: bool) -> None:
    from events.citus_cluster import BINDIR, citus_missing
    from service.tools.bench.store import single_node_and_cluster

    if why := citus_missing():
        raise click.ClickException(why)
    rows = single_node_and_cluster(seconds)
    report = {"benchmark": "store --citus", "settings": {"seconds": seconds, "events_per_append": 1,
                                                         "servers": str(BINDIR), "nodes": "coordinator + 2 workers"},
              "environment": environment(), "units": {"per_second": "appends/s", "p50_ms": "ms", "p99_ms": "ms"},
              "results": rows}
    emit(report, as_json, f"bench store --citus ({seconds}s each, one machine, {os.cpu_count()} cores)",
         ["setup", "workload", "threads", "per_second", "p50_ms", "p99_ms"])


@bench.command("rules")
@click.option("--games", default=50, show_default=True, type=click.IntRange(1, 100_000))
@click.option("--players", default=4, show_default=True, type=click.IntRange(2, 10))
@click.option("--bot", default="greedy", show_default=True, type=click.Choice(["random", "greedy"]))
@click.option("--seed", default=1, show_default=True, type=int)
@click.option("--repeats", default=3, show_default=True, type=click.IntRange(1, 100),
              help="Replays of the recorded games; the fastest counts.")
@click.option("--json", "as_json", is_flag=True)
def bench_rules(games: int, players: int, bot: str, seed: int, repeats: int, as_json: bool) -> None:
    """decide+evolve steps per second per ruleset, in-process, on one core.

    Whole games are played by bots, and then their commands are replayed through the rules
    engine alone (deal, parse, decide, evolve, back to back): the replay is timed as a whole,
    and its final states must equal the played ones. The steps timed one by one while the
    bots play are reported beside it: there every step pays for two timer reads and runs
    with the caches full of the bots' views and legal actions. The replay runs ``repeats``
    times and the fastest counts (the least disturbed by the rest of the machine)."""
    from domain import rules
    from domain.simulation import fastest_replay, play

    # this machine's speed swings with its neighbours' load (docs/performance.md): shown beside the figures
    load_at_start = [round(x, 2) for x in os.getloadavg()]
    rows = []
    for name in rules.names():
        ruleset = rules.get(name)
        steps = events = 0
        seconds = cpu = 0.0
        played = []
        for i in range(games):
            # check_every=0: only decide+evolve is timed; invariants are simulate's job
            result = play(ruleset, players, {}, seed + i, bot, check_every=0)
            steps += result.steps
            events += len(result.events)
            seconds += result.decide_evolve_seconds
            cpu += result.decide_evolve_cpu_seconds
            played.append((seed + i, result.commands, result.state))
        replay_seconds, replay_cpu, finals = fastest_replay(
            ruleset, players, {}, [(s, commands) for s, commands, _ in played], repeats)
        if any(final != state for final, (_, _, state) in zip(finals, played)):
            raise click.ClickException(f"{name}: replaying the recorded commands gave another state")
        rows.append({"ruleset": name, "games": games, "commands": steps, "events": events,
                     "steps_per_second": round(steps / replay_seconds) if replay_seconds else None,
                     "steps_per_cpu_second": round(steps / replay_cpu) if replay_cpu else None,
                     "events_per_second": round(events / replay_seconds) if replay_seconds else None,
                     "interleaved_steps_per_second": round(steps / seconds) if seconds else None,
                     "interleaved_steps_per_cpu_second": round(steps / cpu) if cpu else None})
    report = {"benchmark": "rules", "settings": {"games": games, "players": players, "bot": bot, "seed": seed,
                                                 "replay_repeats": repeats},
              "environment": {**environment(), "load_average": {"start": load_at_start, "end": [round(x, 2) for x in os.getloadavg()]}},
              "units": {"steps_per_second": "decide+evolve commands per wall-clock second (replay)",
                        "steps_per_cpu_second": "decide+evolve commands per second of this thread's CPU time (replay)",
                        "events_per_second": "events per wall-clock second (replay)",
                        "interleaved_*": "the same, each step timed alone while the bots play"},
              "results": rows}
    if as_json:
        click.echo(json.dumps(report, indent=2))
    else:
        load = report["environment"]["load_average"]
        print_table(f"bench rules ({games} games x {players} players, bot {bot}, one core; load average "
                    f"{load['start'][0]:.1f} at the start, {load['end'][0]:.1f} at the end)", rows,
                    ["ruleset", "commands", "events", "steps_per_second", "steps_per_cpu_second",
                     "events_per_second", "interleaved_steps_per_cpu_second"])


def _register() -> None:
    from service.tools.bench.cli_http import bench_api, bench_length, bench_stream
    from service.tools.bench.cli_notify import bench_notify
    from service.tools.bench.report import bench_report

    for command in (bench_api, bench_length, bench_stream, bench_notify, bench_report):
        bench.add_command(command)


_register()
