"""``facedown bench``: benchmarks that print numbers (commands, not timed tests)."""
from __future__ import annotations

import json
import os
import platform
import sys
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
              "environment": environment(),
              "units": {"steps_per_second": "decide+evolve commands per wall-clock second (replay)",
                        "steps_per_cpu_second": "decide+evolve commands per second of this thread's CPU time (replay)",
                        "events_per_second": "events per wall-clock second (replay)",
                        "interleaved_*": "the same, each step timed alone while the bots play"},
              "results": rows}
    if as_json:
        click.echo(json.dumps(report, indent=2))
    else:
        print_table(f"bench rules ({games} games x {players} players, bot {bot}, one core)", rows,
                    ["ruleset", "commands", "events", "steps_per_second", "steps_per_cpu_second",
                     "events_per_second", "interleaved_steps_per_cpu_second"])


def _scratch() -> tuple[str, Any, Any]:
    """A migrated scratch database on the configured (or embedded) server."""
    from events import migrations
    from events.bench import scratch_database
    from events.embedded import database_url

    url, embedded = database_url()
    scratch, drop = scratch_database(url)
    migrations.upgrade(scratch)
    return scratch, drop, embedded


def _latency(values: list[float]) -> dict[str, float]:
    from events.bench import percentile

    ordered = sorted(values)
    return {"p50_ms": round(percentile(ordered, 50), 2), "p95_ms": round(percentile(ordered, 95), 2),
            "p99_ms": round(percentile(ordered, 99), 2), "count": len(ordered)}


@bench.command("api")
@click.option("--clients", default=8, show_default=True, type=click.IntRange(1, 256))
@click.option("--games", default=16, show_default=True, type=click.IntRange(1, 100_000))
@click.option("--ruleset", "ruleset_name", default="corte", show_default=True)
@click.option("--players", default=4, show_default=True, type=click.IntRange(2, 10))
@click.option("--bot", default="greedy", show_default=True, type=click.Choice(["random", "greedy"]))
@click.option("--workers", default=None, type=click.IntRange(1, 64), help="gunicorn workers [cores]")
@click.option("--threads", default=32, show_default=True, type=click.IntRange(1, 4096), help="Threads per worker.")
@click.option("--seconds", default=5.0, show_default=True, type=click.FloatRange(0.5, 600),
              help="Duration of the floor and peer measurements.")
@click.option("--json", "as_json", is_flag=True)
def bench_api(clients: int, games: int, ruleset_name: str, players: int, bot: str, workers: int | None,
              threads: int, seconds: float, as_json: bool) -> None:
    """Whole games over HTTP by C bot clients, beside the INSERT floor and the eventsourcing peer."""
    from events.bench import plain_inserts
    try:
        from events.bench_peer import peer_commands
    except ModuleNotFoundError as exc:
        raise click.ClickException(f"{exc.name} is missing: install the bench extra, pip install -e '.[bench]'") from exc
    from events.db import Database
    from service.bench_http import Server, client

    workers = workers or os.cpu_count() or 2
    scratch, drop, embedded = _scratch()
    try:
        per_client = [games // clients + (1 if i < games % clients else 0) for i in range(clients)]
        with Server(scratch, workers=workers, threads=threads) as server:
            jobs = [(server.url, ruleset_name, players, {}, bot, n, 1000 + i) for i, n in enumerate(per_client) if n]
            results, played = _run_clients(server, client, jobs)
        # from the first client's first request to the last client's last response
        elapsed = max(r.ended for r in results) - min(r.started for r in results)
        commands, views = played["commands"], played["views"]
        api = {"workload": "api", "clients": clients, **played, "games": sum(r.games for r in results),
               "per_second_whole_run": round(commands / elapsed, 1),
               "views_per_command": round(views / max(commands, 1), 3),
               "command_answer_bytes": round(sum(r.command_bytes for r in results) / max(commands, 1)),
               "view_bytes": round(sum(r.view_bytes for r in results) / max(views, 1)),
               "seconds": round(elapsed, 2)}
        stack = _stack_floor(scratch, clients, workers, threads, seconds, api)
        db = Database(scratch, min_size=clients, max_size=clients)
        try:
            floor = plain_inserts(db, clients, seconds)
            pg = server_version(db)
        finally:
            db.close()
        peer = peer_commands(scratch, clients, seconds)
    finally:
        drop()
        if embedded is not None:
            embedded.stop()
    report = {
        "benchmark": "api",
        "settings": {"clients": clients, "games": games, "ruleset": ruleset_name, "players": players, "bot": bot,
                     "gunicorn_workers": workers, "gunicorn_threads": threads, "floor_and_peer_seconds": seconds, "postgresql": pg,
                     "database": "embedded" if embedded else "DATABASE_URL"},
        "environment": environment(),
        "units": {"per_second": "commands/s (api, stack floor: while every client plays; peer) or INSERTs/s (floor)",
                  "mean_events_loaded": "events the peer replayed per command (mean)",
                  "per_second_whole_run": "commands/s from the first request to the last answer",
                  "*_ms": "milliseconds",
                  "cpu_ms_per_command": "ms of CPU per command of the server's processes, of every postgres"
                                        " process on this machine, and of the client processes",
                  "*_bytes": "bytes of an answer's body (mean)", "views_per_command": "view GETs per command"},
        "api": api,
        "floor_plain_insert": floor,
        "stack_floor": stack,
        "peer_eventsourcing": peer,
        "ratios": {"api_to_floor": round(api["per_second"] / floor["per_second"], 3),
                   "api_to_stack_floor": round(api["per_second"] / stack["per_second"], 3),
                   "api_to_peer": round(api["per_second"] / peer["per_second"], 2) if peer["per_second"] else None},
    }
    if as_json:
        click.echo(json.dumps(report, indent=2))
        return
    click.echo(f"bench api: {clients} clients, {api['games']} games of {ruleset_name} in {api['seconds']} s, "
               f"{workers} gunicorn workers, PostgreSQL {pg}, {os.cpu_count()} cores")
    click.echo(f"  api commands/s        {api['per_second']:>10}   errors {api['errors']}   (all {clients} clients"
               f" playing, {api['steady_seconds']} s; {api['per_second_whole_run']} over the whole run)")
    click.echo(f"  command latency ms    p50 {api['commands_latency']['p50_ms']}  p95 "
               f"{api['commands_latency']['p95_ms']}  p99 {api['commands_latency']['p99_ms']}")
    click.echo(f"  view latency ms       p50 {api['views_latency']['p50_ms']}  p95 "
               f"{api['views_latency']['p95_ms']}  p99 {api['views_latency']['p99_ms']}")
    click.echo(f"  floor INSERTs/s       {floor['per_second']:>10}   (plain psycopg, {clients} threads)")
    click.echo(f"  stack floor cmds/s    {stack['per_second']:>10}   (gunicorn + Flask + one statement per request,"
               f" same clients and mix; p50 {stack['commands_latency']['p50_ms']} ms)")
    click.echo(f"  peer commands/s       {peer['per_second']:>10}   (eventsourcing load+event+save,"
               f" {peer['mean_events_loaded']} events loaded per command)")
    click.echo(f"  api / floor           {report['ratios']['api_to_floor']:>10}")
    click.echo(f"  api / stack floor     {report['ratios']['api_to_stack_floor']:>10}")
    for label, part in (("api", api), ("stack floor", stack)):
        c = part["cpu_ms_per_command"]
        click.echo(f"  CPU ms per command    {label}: server {c['server']}, PostgreSQL {c['postgres']}, "
                   f"clients {c['clients']}, total {c['total']} ({os.cpu_count()} cores)")
    click.echo(f"  api / peer            {report['ratios']['api_to_peer']:>10}")


def _run_clients(server: Any, play: Any, jobs: list[Any]) -> tuple[list[Any], dict[str, Any]]:
    """Run one client process per job (``play(job)`` returns a ``ClientResult``) against the
    running ``server``, and sum them up: commands, the rate while every client played,
    views, latencies, errors and CPU per command (the server's tree, PostgreSQL, the clients)."""
    import multiprocessing

    from service.bench_cpu import CpuMeter
    from service.bench_http import steady_rate

    with multiprocessing.get_context("spawn").Pool(len(jobs)) as pool:
        assert server.proc is not None
        meter = CpuMeter(server.proc.pid)
        results = pool.map(play, jobs)
        cpu = meter.stop(sum(r.commands for r in results), sum(r.cpu_seconds for r in results))
    rate, steady_seconds = steady_rate(results)
    errors = [e for r in results for e in r.errors]
    return results, {
        "commands": sum(r.commands for r in results),
        "per_second": round(rate, 1), "steady_seconds": round(steady_seconds, 2),
        "views": sum(len(r.view_ms) for r in results),
        "commands_latency": _latency([x for r in results for x in r.command_ms]),
        "views_latency": _latency([x for r in results for x in r.view_ms]),
        "errors": len(errors), "error_samples": errors[:5], "cpu_ms_per_command": cpu}


def _stack_floor(database_url: str, clients: int, workers: int, threads: int, seconds: float,
                 api: dict[str, Any]) -> dict[str, Any]:
    """The HTTP stack's floor (service/bench_floor.py) with the api run's clients, workers,
    threads, views per command and answer sizes, for ``seconds``."""
    from service.bench_floor import FloorServer, floor_client

    with FloorServer(database_url, workers=workers, threads=threads, command_bytes=api["command_answer_bytes"],
                     view_bytes=api["view_bytes"]) as server:
        jobs = [(server.url, seconds, api["views_per_command"], i) for i in range(clients)]
        _, played = _run_clients(server, floor_client, jobs)
    return {"workload": "stack floor", "clients": clients, **played}


@bench.command("length")
@click.option("--games", default=4, show_default=True, type=click.IntRange(1, 100), help="Games per length.")
@click.option("--commands", default=25, show_default=True, type=click.IntRange(1, 1000),
              help="Commands measured per game.")
@click.option("--views", default=25, show_default=True, type=click.IntRange(1, 1000),
              help="View loads measured per game.")
@click.option("--lengths", default="50,500,5000", show_default=True, help="Game lengths in events.")
@click.option("--json", "as_json", is_flag=True)
def bench_length(games: int, commands: int, views: int, lengths: str, as_json: bool) -> None:
    """Command and view latency in games of 50, 500 and 5,000 events (Corte played on and on)."""
    import random

    from service.app import create_app
    from service.bench_http import ClientResult, Server, build_long_game, measure_game

    sizes = [int(x) for x in lengths.split(",")]
    options = {"target_score": 10**9}  # the game never ends: it only grows
    scratch, drop, embedded = _scratch()
    rows = []
    try:
        app = create_app({"database_url": scratch, "auto_migrate": False})
        client = app.test_client()
        rng = random.Random(7)
        built: dict[int, list[tuple[str, list[str]]]] = {}
        with click.progressbar(length=len(sizes) * games, label="building games", file=sys.stderr) as bar:
            for size in sizes:
                built[size] = []
                for _ in range(games):
                    built[size].append(build_long_game(client, "corte", options, 4, size, rng))
                    bar.update(1)
        app.extensions["facedown_api"].live.close()
        app.extensions["facedown"].db.close()
        with Server(scratch) as server:
            for size in sizes:
                out = ClientResult()
                for gid, tokens in built[size]:
                    measure_game(server.url, "corte", gid, tokens, commands, views, rng, out)
                rows.append({"events": size, "games": games, "errors": len(out.errors),
                             "command": _latency(out.command_ms), "view": _latency(out.view_ms)})
    finally:
        drop()
        if embedded is not None:
            embedded.stop()
    first, last = rows[0], rows[-1]
    ratios = {"command_p50": round(last["command"]["p50_ms"] / first["command"]["p50_ms"], 3),
              "view_p50": round(last["view"]["p50_ms"] / first["view"]["p50_ms"], 3),
              "command_p99": round(last["command"]["p99_ms"] / first["command"]["p99_ms"], 3),
              "view_p99": round(last["view"]["p99_ms"] / first["view"]["p99_ms"], 3)}
    report = {"benchmark": "length", "settings": {"games_per_length": games, "commands": commands, "views": views,
                                                  "ruleset": "corte", "options": options},
              "environment": environment(), "units": {"*_ms": "milliseconds"}, "results": rows,
              f"ratio_{sizes[-1]}_to_{sizes[0]}": ratios}
    if as_json:
        click.echo(json.dumps(report, indent=2))
        return
    click.echo(f"bench length: corte, {games} games per length, {commands} commands and {views} views each")
    for r in rows:
        click.echo(f"  {r['events']:>6} events  command p50 {r['command']['p50_ms']:>7} p99 {r['command']['p99_ms']:>7}"
                   f"   view p50 {r['view']['p50_ms']:>7} p99 {r['view']['p99_ms']:>7}   errors {r['errors']}")
    click.echo(f"  ratio {sizes[-1]} / {sizes[0]}: {ratios}")


@bench.command("stream")
@click.option("--waiters", default=1000, show_default=True, type=click.IntRange(1, 5000),
              help="Long-polls; as many SSE streams again.")
@click.option("--games", default=None, type=click.IntRange(1, 10_000), help="Games  [max(W//10, 10)]")
@click.option("--seconds", default=20.0, show_default=True, type=click.FloatRange(1, 600),
              help="How long commands are posted.")
@click.option("--rate", default=10.0, show_default=True, type=click.FloatRange(0.1, 1000),
              help="Commands per second (round-robin over the games).")
@click.option("--clients", default=2, show_default=True, type=click.IntRange(1, 32), help="Client processes.")
@click.option("--recheck", default=15.0, show_default=True, type=click.FloatRange(0.1, 60),
              help="Waiters' timer re-check (s); hints wake them sooner.")
@click.option("--pool", default=20, show_default=True, type=click.IntRange(1, 200), help="Server pool size.")
@click.option("--json", "as_json", is_flag=True)
def bench_stream(waiters: int, games: int | None, seconds: float, rate: float, clients: int, recheck: float,
                 pool: int, as_json: bool) -> None:
    """W long-polls and W SSE streams held by one server process while commands arrive: wake-up delay."""
    from service.bench_stream import run

    games = games or max(waiters // 10, 10)
    scratch, drop, embedded = _scratch()
    try:
        figures = run(scratch, waiters, games, seconds, rate, clients, recheck, pool)
    finally:
        drop()
        if embedded is not None:
            embedded.stop()
    report = {"benchmark": "stream", **figures, "environment": environment(),
              "units": {"*_ms": "milliseconds from the commit (bracketed: from_post_return is a lower bound, "
                                "from_event_at an upper bound)", "*_kib": "KiB of the worker's VmRSS"},
              "database": "embedded" if embedded else "DATABASE_URL"}
    if as_json:
        click.echo(json.dumps(report, indent=2))
        return
    st = figures["settings"]
    click.echo(f"bench stream: {st['waiters_long_poll']} long-polls + {st['waiters_sse']} SSE streams on "
               f"{st['games']} games, one gunicorn worker ({st['gunicorn_threads']} threads), "
               f"{figures['commands']} commands in {st['seconds']} s, {os.cpu_count()} cores, "
               f"load {figures['load_average']['after'][0]}")
    for kind, label in (("poll", "long-poll"), ("sse", "SSE")):
        w = figures["wake"][kind]
        a, b = w["from_post_return"], w["from_event_at"]
        click.echo(f"  {label:<9} wake ms  p50 {a['p50_ms']} .. {b['p50_ms']}   p99 {a['p99_ms']} .. "
                   f"{b['p99_ms']}   max {b['max_ms']}   deliveries {w['deliveries']}/{w['expected']}")
    m = figures["memory"]
    click.echo(f"  memory    {m['per_waiter_kib']} KiB per waiter (worker RSS {m['idle_rss_kib']} -> "
               f"{m['loaded_rss_kib']} KiB, threads {m['idle_threads']} -> {m['loaded_threads']})")
    click.echo(f"  cpu       server worker {figures['cpu']['server_worker_percent_of_one_core']} % of a core; "
               f"clients {figures['cpu']['client_cpu_seconds']} s")
    click.echo(f"  errors    {figures['errors']} {figures['error_samples'][:2]}")
