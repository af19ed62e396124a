"""``facedown bench api|length|stream``: the service under gunicorn, driven over HTTP."""
from __future__ import annotations

import json
import os
import sys
from typing import Any

import click

from service.tools.bench.common import environment, latency, scratch_db, server_version


@click.command("api")
@click.option("--clients", default=8, show_default=True, type=click.IntRange(1, 256))
@click.option("--games", default=16, show_default=True, type=click.IntRange(1, 100_000))
@click.option("--ruleset", "ruleset_name", default="corte", show_default=True)
@click.option("--players", default=4, show_default=True, type=click.IntRange(2, 10))
@click.option("--bot", default="greedy", show_default=True, type=click.Choice(["random", "greedy"]))
@click.option("--workers", default=None, type=click.IntRange(1, 64), help="gunicorn workers [cores]")
@click.option("--threads", default=32, show_default=True, type=click.IntRange(1, 4096),
              help="Threads per worker (gthread).")
@click.option("--worker-class", default="gevent", show_default=True, type=click.Choice(["gevent", "gthread"]),
              help="The gunicorn worker of facedown and of the stack floor (facedown serve's default: gevent).")
@click.option("--seconds", default=5.0, show_default=True, type=click.FloatRange(0.5, 600),
              help="Duration of the floor and peer measurements.")
@click.option("--answers", default="minimal", show_default=True, type=click.Choice(["minimal", "view"]),
              help="What a command's answer carries: a patch to the view held (Prefer: return=minimal), "
                   "or the whole view.")
@click.option("--options", "options_json", default="{}", show_default=True,
              help="The games' options, a JSON object (e.g. '{\"target_score\": 1}' for one-round Corte games).")
@click.option("--json", "as_json", is_flag=True)
def bench_api(clients: int, games: int, ruleset_name: str, players: int, bot: str, workers: int | None,
              threads: int, worker_class: str, seconds: float, answers: str, options_json: str, as_json: bool) -> None:
    """Whole games over HTTP by C bot clients, beside the INSERT floor and the eventsourcing peer."""
    from service.tools.bench.store import plain_inserts
    try:
        from service.tools.bench.peer import peer_commands
    except ModuleNotFoundError as exc:
        raise click.ClickException(f"{exc.name} is missing: install the bench extra, pip install -e '.[bench]'") from exc
    from events.db import Database
    from service.tools.bench.http import Server, client

    options = _options(options_json)
    workers = workers or os.cpu_count() or 2
    scratch, drop, embedded = scratch_db()
    try:
        per_client = [games // clients + (1 if i < games % clients else 0) for i in range(clients)]
        with Server(scratch, workers=workers, threads=threads, worker_class=worker_class) as server:
            jobs = [(server.url, ruleset_name, players, options, bot, n, 1000 + i, answers == "minimal")
                    for i, n in enumerate(per_client) if n]
            results, played = _run_clients(server, client, jobs)
        # from the first client's first request to the last client's last response
        elapsed = max(r.ended for r in results) - min(r.started for r in results)
        commands, views = played["commands"], played["views"]
        api = {"workload": "api", "clients": clients, **played, "games": sum(r.games for r in results),
               "per_second_whole_run": round(commands / elapsed, 1),
               "views_per_command": round(views / max(commands, 1), 3),
               **_sizes("command_answer_bytes", [n for r in results for n in r.command_sizes]),
               **_sizes("view_bytes", [n for r in results for n in r.view_sizes]),
               "other_requests_per_command": round(sum(r.other_requests for r in results) / max(commands, 1), 3),
               "seconds": round(elapsed, 2)}
        stack = _stack_floor(scratch, clients, workers, threads, worker_class, seconds, api)
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
        "settings": {"clients": clients, "games": games, "ruleset": ruleset_name, "players": players, "options": options,
                     "bot": bot,
                     "answers": answers,
                     "gunicorn_workers": workers, "gunicorn_threads": threads, "worker_class": worker_class,
                     "floor_and_peer_seconds": seconds, "postgresql": pg,
                     "database": "embedded" if embedded else "DATABASE_URL"},
        "environment": environment(),
        "units": {"per_second": "commands/s (api, stack floor: while every client plays; peer) or INSERTs/s (floor)",
                  "mean_events_loaded": "events the peer replayed per command (mean)",
                  "per_second_whole_run": "commands/s from the first request to the last answer",
                  "*_ms": "milliseconds",
                  "cpu_ms_per_command": "ms of CPU per command of the server's processes, of the PostgreSQL"
                                        " backends serving the benchmark's database, and of the client processes",
                  "*_bytes": "bytes of an answer's body (mean; _p50 the median, _max the largest, "
                             "_under_4096 the share under 4096)",
                  "views_per_command": "view GETs per command"},
        "api": api,
        "floor_plain_insert": floor,
        "stack_floor": stack,
        "peer_eventsourcing": peer,
        "ratios": {"server_cpu_per_command_to_floor_request": _cpu_ratio(api, stack),
                   "api_to_floor": round(api["per_second"] / floor["per_second"], 3),
                   "api_to_stack_floor": round(api["per_second"] / stack["per_second"], 3),
                   "api_to_peer": round(api["per_second"] / peer["per_second"], 2) if peer["per_second"] else None},
    }
    if as_json:
        click.echo(json.dumps(report, indent=2))
        return
    click.echo(f"bench api: {clients} clients, {api['games']} games of {ruleset_name} in {api['seconds']} s, "
               f"{workers} gunicorn {worker_class} workers, PostgreSQL {pg}, {os.cpu_count()} cores")
    click.echo(f"  api commands/s        {api['per_second']:>10}   errors {api['errors']}   (all {clients} clients"
               f" playing, {api['steady_seconds']} s; {api['per_second_whole_run']} over the whole run)")
    click.echo(f"  command latency ms    p50 {api['commands_latency']['p50_ms']}  p95 "
               f"{api['commands_latency']['p95_ms']}  p99 {api['commands_latency']['p99_ms']}")
    click.echo(f"  view latency ms       p50 {api['views_latency']['p50_ms']}  p95 "
               f"{api['views_latency']['p95_ms']}  p99 {api['views_latency']['p99_ms']}")
    click.echo(f"  command answer bytes  mean {api['command_answer_bytes']}  p50 {api['command_answer_bytes_p50']}"
               f"  max {api['command_answer_bytes_max']}  under 4096: {api['command_answer_bytes_under_4096']}"
               f"   (answers: {answers})")
    click.echo(f"  view bytes            mean {api['view_bytes']}  p50 {api['view_bytes_p50']}"
               f"  max {api['view_bytes_max']}")
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
    click.echo(f"  requests per command  api: 1 + {api['views_per_command']} views + "
               f"{api['other_requests_per_command']} others (the SDK's proofs); stack floor: 1 + views")
    click.echo(f"  server CPU ms         api per command {api['cpu_ms_per_command']['server']}, stack floor per request"
               f" {_floor_request_cpu(stack)} ({report['ratios']['server_cpu_per_command_to_floor_request']}x)")
    click.echo(f"  api / peer            {report['ratios']['api_to_peer']:>10}")


def _sizes(name: str, sizes: list[int]) -> dict[str, Any]:
    """The mean, median and largest of answers' sizes in bytes, and the share under 4096."""
    ordered = sorted(sizes) or [0]
    return {name: round(sum(ordered) / len(ordered)), f"{name}_p50": ordered[len(ordered) // 2],
            f"{name}_max": ordered[-1], f"{name}_under_4096": round(sum(n < 4096 for n in ordered) / len(ordered), 4)}


def _floor_request_cpu(stack: dict[str, Any]) -> float | None:
    """The stack floor's server CPU per request (ms): per command over its requests (a POST and
    the views per command)."""
    server = stack["cpu_ms_per_command"]["server"]
    return None if server is None else round(server / (1 + stack["views"] / max(stack["commands"], 1)), 3)


def _cpu_ratio(api: dict[str, Any], stack: dict[str, Any]) -> float | None:
    """facedown's server CPU per command over the stack floor's server CPU per request."""
    per_request, server = _floor_request_cpu(stack), api["cpu_ms_per_command"]["server"]
    return None if per_request is None or server is None or not per_request else round(server / per_request, 2)


def _options(text: str) -> dict[str, Any]:
    """``--options``: a JSON object (the server checks its names and values when a game is made)."""
    try:
        options = json.loads(text)
    except ValueError as exc:
        raise click.BadParameter(f"not JSON: {exc}", param_hint="--options") from None
    if not isinstance(options, dict):
        raise click.BadParameter("a JSON object, such as '{\"target_score\": 1}'", param_hint="--options")
    return options


def _run_clients(server: Any, play: Any, jobs: list[Any]) -> tuple[list[Any], dict[str, Any]]:
    """Run one client process per job (``play(job)`` returns a ``ClientResult``) against the
    running ``server``, and sum them up: commands, the rate while every client played,
    views, latencies, errors and CPU per command (the server's tree, PostgreSQL, the clients)."""
    import multiprocessing

    from service.tools.bench.cpu import CpuMeter
    from service.tools.bench.http import share_start, steady_rate

    ctx = multiprocessing.get_context("spawn")
    # one job per process, each waiting behind the barrier with its job, so none takes two
    with ctx.Pool(len(jobs), initializer=share_start, initargs=(ctx.Barrier(len(jobs)),)) as pool:
        assert server.proc is not None
        meter = CpuMeter(server.proc.pid, server.database_url)
        results = pool.map(play, jobs)
        cpu = meter.stop(sum(r.commands for r in results), sum(r.cpu_seconds for r in results))
    rate, steady_seconds = steady_rate(results)
    errors = [e for r in results for e in r.errors]
    return results, {
        "commands": sum(r.commands for r in results),
        "per_second": round(rate, 1), "steady_seconds": round(steady_seconds, 2),
        "views": sum(len(r.view_ms) for r in results),
        "commands_latency": latency([x for r in results for x in r.command_ms]),
        "views_latency": latency([x for r in results for x in r.view_ms]),
        "errors": len(errors), "error_samples": errors[:5], "cpu_ms_per_command": cpu}


def _stack_floor(database_url: str, clients: int, workers: int, threads: int, worker_class: str, seconds: float,
                 api: dict[str, Any]) -> dict[str, Any]:
    """The HTTP stack's floor (service/tools/bench/floor.py) with the api run's clients, workers,
    threads, views per command and answer sizes, for ``seconds``."""
    from service.tools.bench.floor import FloorServer, floor_client

    with FloorServer(database_url, workers=workers, threads=threads, worker_class=worker_class,
                     command_bytes=api["command_answer_bytes"],
                     view_bytes=api["view_bytes"]) as server:
        jobs = [(server.url, seconds, api["views_per_command"], i) for i in range(clients)]
        _, played = _run_clients(server, floor_client, jobs)
    return {"workload": "stack floor", "clients": clients, **played}


@click.command("length")
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

    from service.http.app import close_app, create_app
    from service.tools.bench.http import ClientResult, Server, build_long_game, measure_game

    sizes = [int(x) for x in lengths.split(",")]
    options = {"target_score": 100_000}  # the largest target: no run ends the game, it only grows
    scratch, drop, embedded = scratch_db()
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
        close_app(app)
        with Server(scratch) as server:
            for size in sizes:
                out = ClientResult()
                for gid, tokens in built[size]:
                    measure_game(server.url, "corte", gid, tokens, commands, views, rng, out)
                rows.append({"events": size, "games": games, "errors": len(out.errors),
                             "command": latency(out.command_ms), "view": latency(out.view_ms)})
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


@click.command("stream")
@click.option("--waiters", default=5000, show_default=True, type=click.IntRange(1, 20_000),
              help="Long-polls; as many SSE streams again.")
@click.option("--games", default=None, type=click.IntRange(1, 10_000), help="Games  [max(W//10, 10)]")
@click.option("--seconds", default=20.0, show_default=True, type=click.FloatRange(1, 600),
              help="How long commands are posted.")
@click.option("--rate", default=10.0, show_default=True, type=click.FloatRange(0.1, 1000),
              help="Commands per second (round-robin over the games).")
@click.option("--clients", default=4, show_default=True, type=click.IntRange(1, 32), help="Client processes.")
@click.option("--abandoned", default=2000, show_default=True, type=click.IntRange(0, 20_000),
              help="Long-polls whose client then vanishes (0: skip).")
@click.option("--worker-class", default="gevent", show_default=True, type=click.Choice(["gevent", "gthread"]),
              help="The other worker model, for comparison (gthread: 32 threads per worker).")
@click.option("--idle-seconds", default=5.0, show_default=True, type=click.FloatRange(0.5, 600),
              help="How long the waiters are watched while they only wait; the pauses to let connections "
                   "settle are 2/5 of it, at most 2 s.")
@click.option("--json", "as_json", is_flag=True)
def bench_stream(waiters: int, games: int | None, seconds: float, rate: float, clients: int, abandoned: int,
                 worker_class: str, idle_seconds: float, as_json: bool) -> None:
    """W long-polls and W SSE streams held by `facedown serve` (its defaults) while commands arrive."""
    from service.tools.bench.stream import run

    games = games or max(waiters // 10, 10)
    scratch, drop, embedded = scratch_db()
    try:
        figures = run(scratch, waiters, games, seconds, rate, clients, abandoned, worker_class, idle_seconds)
    finally:
        drop()
        if embedded is not None:
            embedded.stop()
    report = {"benchmark": "stream", **figures, "environment": environment(),
              "units": {"*_ms": "milliseconds (wake: from the commit, bracketed: from_post_return is a lower "
                                "bound, from_event_at an upper bound)", "*_kib": "KiB of the workers' VmRSS, summed",
                        "released_seconds": "from the abandoning client's death until the workers hold its "
                                            "connections no more"},
              "database": "embedded" if embedded else "DATABASE_URL"}
    if as_json:
        click.echo(json.dumps(report, indent=2))
        return
    st = figures["settings"]
    click.echo(f"bench stream: {st['waiters_long_poll']} long-polls + {st['waiters_sse']} SSE streams on "
               f"{st['games']} games ({figures['held_by_server']} held), {st['server']}, "
               f"{figures['commands']} commands in {st['seconds']} s, {os.cpu_count()} cores, "
               f"load {figures['load_average']['after'][0]}")
    for kind, label in (("poll", "long-poll"), ("sse", "SSE")):
        w = figures["wake"][kind]
        a, b = w["from_post_return"], w["from_event_at"]
        click.echo(f"  {label:<9} wake ms  p50 {a['p50_ms']} .. {b['p50_ms']}   p99 {a['p99_ms']} .. "
                   f"{b['p99_ms']}   max {b['max_ms']}   deliveries {w['deliveries']}/{w['expected']}")
    click.echo(f"  command   p50 {figures['command_latency']['p50_ms']} ms  p99 {figures['command_latency']['p99_ms']} ms")
    click.echo(f"  /healthz  idle p99 {figures['healthz_idle']['p99_ms']} ms, while commands arrive p99 "
               f"{figures['healthz_busy']['p99_ms']} ms")
    m = figures["memory"]
    click.echo(f"  memory    {m['per_waiter_kib']} KiB per waiter (workers' RSS {m['idle_rss_kib']} -> "
               f"{m['loaded_rss_kib']} KiB)")
    c = figures["cpu"]
    click.echo(f"  cpu       workers idle {c['workers_idle_percent_of_one_core']} % of a core, busy "
               f"{c['workers_busy_percent_of_one_core']} %; clients {c['client_cpu_seconds']} s")
    if figures["release"]:
        r = figures["release"]
        click.echo(f"  release   {r['abandoned']} abandoned long-polls ({r['held_by_server']} held) released in "
                   f"{r['released_seconds']} s ({r['left_after']} left)")
    click.echo(f"  errors    {figures['errors']} {figures['error_samples'][:2]}")
