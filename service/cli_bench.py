"""``facedown bench``: benchmarks that print numbers (commands, not timed tests)."""
from __future__ import annotations

import json
import os
import platform
from importlib import metadata
from typing import Any

import click


def environment() -> dict[str, Any]:
    """Machine and versions, printed with every result."""
    versions = {}
    for dist in ("facedown", "psycopg", "flask", "gunicorn", "marshmallow"):
        try:
            versions[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            versions[dist] = None
    return {"cores": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform(),
            "versions": versions}


def server_version(db: Any) -> str:
    with db.connection() as conn:
        return str(conn.execute("SHOW server_version").fetchone()[0])


def print_table(title: str, rows: list[dict[str, Any]], columns: list[str]) -> None:
    click.echo(title)
    click.echo("  " + "  ".join(f"{c:>14}" for c in columns))
    for row in rows:
        click.echo("  " + "  ".join(f"{str(row.get(c, '')):>14}" for c in columns))


@click.group()
def bench() -> None:
    """Benchmarks. Each prints a table, or JSON with --json."""


@bench.command("store")
@click.option("--seconds", default=3.0, show_default=True, type=click.FloatRange(0.5, 600), help="Per measurement.")
@click.option("--json", "as_json", is_flag=True)
def bench_store(seconds: float, as_json: bool) -> None:
    """Appends/s and p50/p99 through the store at 1, 4, 8 threads, beside plain INSERTs (the floor)."""
    from events import migrations
    from events.bench import plain_inserts, scratch_database, store_appends
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
    if as_json:
        click.echo(json.dumps(report, indent=2))
    else:
        print_table(f"bench store ({seconds}s each, PostgreSQL {pg}, {os.cpu_count()} cores)", rows,
                    ["workload", "threads", "per_second", "p50_ms", "p99_ms", "ratio_to_floor"])


@bench.command("rules")
@click.option("--games", default=50, show_default=True, type=click.IntRange(1, 100_000))
@click.option("--players", default=4, show_default=True, type=click.IntRange(2, 10))
@click.option("--bot", default="greedy", show_default=True, type=click.Choice(["random", "greedy"]))
@click.option("--seed", default=1, show_default=True, type=int)
@click.option("--json", "as_json", is_flag=True)
def bench_rules(games: int, players: int, bot: str, seed: int, as_json: bool) -> None:
    """decide+evolve steps per second per ruleset, in-process, on one core."""
    from domain import rules
    from domain.simulation import play

    rows = []
    for name in rules.names():
        ruleset = rules.get(name)
        steps = events = 0
        seconds = cpu = 0.0
        for i in range(games):
            # check_every=0: only decide+evolve is timed; invariants are simulate's job
            result = play(ruleset, players, {}, seed + i, bot, check_every=0)
            steps += result.steps
            events += len(result.events)
            seconds += result.decide_evolve_seconds
            cpu += result.decide_evolve_cpu_seconds
        rows.append({"ruleset": name, "games": games, "commands": steps, "events": events,
                     "steps_per_second": round(steps / seconds) if seconds else None,
                     "steps_per_cpu_second": round(steps / cpu) if cpu else None,
                     "events_per_second": round(events / seconds) if seconds else None})
    report = {"benchmark": "rules", "settings": {"games": games, "players": players, "bot": bot, "seed": seed},
              "environment": environment(),
              "units": {"steps_per_second": "decide+evolve commands per wall-clock second",
                        "steps_per_cpu_second": "decide+evolve commands per second of this thread's CPU time",
                        "events_per_second": "events per wall-clock second"},
              "results": rows}
    if as_json:
        click.echo(json.dumps(report, indent=2))
    else:
        print_table(f"bench rules ({games} games x {players} players, bot {bot}, one core)", rows,
                    ["ruleset", "commands", "events", "steps_per_second", "steps_per_cpu_second",
                     "events_per_second"])
