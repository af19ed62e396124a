"""``facedown bench report``: run every benchmark and regenerate BENCHMARKS.md with its plot.

Each benchmark runs as its own ``facedown bench … --json`` process (as a user would run
it), so the report holds exactly what the commands print.
"""
from __future__ import annotations

import json
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import click

# the repository: service/tools/bench/report.py is three packages down (BENCHMARKS.md and docs/ sit at the top)
ROOT = Path(__file__).resolve().parents[3]


def run_json(args: list[str]) -> dict[str, Any]:
    cmd = [sys.executable, "-c", "from service.entrypoints.cli import main; main()", "bench", *args, "--json"]
    click.echo("$ facedown bench " + " ".join(args) + " --json", err=True)
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
    if proc.returncode != 0:
        raise click.ClickException(f"facedown bench {' '.join(args)} failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout)  # type: ignore[no-any-return]


def speed_gauge() -> float:
    """Milliseconds of CPU to replay one fixed Corte game through the rules engine (the best of
    7; lower is faster): taken before, between and after the benchmarks, it shows whether the
    machine's speed stayed the same during the run."""
    from domain import rules
    from domain.simulation import fastest_replay, play

    corte = rules.get("corte")
    commands = play(corte, 4, {}, 1, "greedy", check_every=0).commands
    _, cpu, _ = fastest_replay(corte, 4, {}, [(1, commands)], repeats=7)
    return round(cpu * 1000, 2)


def plot(load: list[dict[str, Any]], length: dict[str, Any], path: Path) -> None:
    try:
        import matplotlib
    except ModuleNotFoundError as exc:
        raise click.ClickException("matplotlib is missing: install the bench extra, pip install -e '.[bench]'") from exc

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4.2))
    clients = [r["settings"]["clients"] for r in load]
    for key, style in (("p50_ms", "o-"), ("p99_ms", "s--")):
        a.plot(clients, [r["api"]["commands_latency"][key] for r in load], style, label=f"command {key[:3]}")
        a.plot(clients, [r["api"]["views_latency"][key] for r in load], style, alpha=0.6, label=f"view {key[:3]}")
    a.set_xlabel("concurrent bot clients")
    a.set_ylabel("latency (ms)")
    ax2 = a.twinx()
    ax2.plot(clients, [r["api"]["per_second"] for r in load], "k:", label="commands/s")
    ax2.plot(clients, [r["stack_floor"]["per_second"] for r in load], "k-.", alpha=0.5,
             label="stack floor commands/s")
    ax2.set_ylabel("commands/s")
    a.set_title("latency against load (bench api)")
    handles = a.get_legend_handles_labels()[0] + ax2.get_legend_handles_labels()[0]
    a.legend(handles=handles, loc="upper left", fontsize=8)
    rows = length["results"]
    sizes = [r["events"] for r in rows]
    for part, style in (("command", "o-"), ("view", "s-")):
        for key in ("p50_ms", "p99_ms"):
            b.plot(sizes, [r[part][key] for r in rows], style if key == "p50_ms" else style + "-",
                   label=f"{part} {key[:3]}")
    b.set_xscale("log")
    b.set_xlabel("events in the game")
    b.set_ylabel("latency (ms)")
    b.set_title("latency against game length (bench length)")
    b.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def table(rows: list[list[Any]], header: list[str]) -> str:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(out)


def targets(rules: dict[str, Any], load: list[dict[str, Any]], length: dict[str, Any],
            stream: dict[str, Any] | None) -> list[list[str]]:
    """Issue 7's targets beside what this run reached: [benchmark, target, reached, met]."""
    best = max(load, key=lambda r: r["api"]["per_second"])
    api, ratios = best["api"], best["ratios"]
    api_met = (api["per_second"] >= 1500 or ratios["api_to_floor"] >= 0.30) and (ratios["api_to_peer"] or 0) >= 5 \
        and all(r["api"]["errors"] == 0 for r in load)
    ratio = next(v for k, v in length.items() if k.startswith("ratio_"))["command_p50"]
    slowest = min(rules["results"], key=lambda r: r["steps_per_cpu_second"])
    rows = [
        ["api", ">= 1,500 commands/s or >= 30 % of the INSERT floor, and >= 5x the peer; 0 errors",
         f"{api['per_second']} commands/s at {best['settings']['clients']} clients = {ratios['api_to_floor']} of "
         f"the floor, {ratios['api_to_peer']}x the peer; errors {sum(r['api']['errors'] for r in load)}. "
         f"The stack floor in the same run: {best['stack_floor']['per_second']} commands/s "
         f"({ratios['api_to_stack_floor']} of it reached)",
         "yes" if api_met else "no"],
        ["length", "command p50 at 5,000 events / at 50 <= 1.2", str(ratio), "yes" if ratio <= 1.2 else "no"],
        ["rules", ">= 50,000 steps per CPU second for every ruleset",
         f"slowest: {slowest['ruleset']} {slowest['steps_per_cpu_second']} (replay); timed step by step between the "
         f"bots' moves: {min(r['interleaved_steps_per_cpu_second'] for r in rules['results'])}",
         "yes" if slowest["steps_per_cpu_second"] >= 50_000 else "no"],
    ]
    if stream is not None:
        held, rel = stream["held_by_server"], stream["release"] or {}
        p99 = max(stream["wake"][k]["from_event_at"]["p99_ms"] for k in ("poll", "sse"))
        unseen = sum(stream["wake"][k]["unseen"] for k in ("poll", "sse"))
        ok = (held >= 10_000 and stream["errors"] == 0 and unseen == 0 and stream["healthz_busy"]["p99_ms"] < 100
              and stream["command_latency"]["p99_ms"] < 100 and rel.get("released_seconds", 99) < 5)
        rows.append(["stream", "facedown serve's defaults hold 10,000 idle waiters (half long-poll, half SSE) with "
                     "/healthz and commands answering normally (p99 < 100 ms); 2,000 abandoned waits released "
                     "within seconds; 0 errors, nothing unseen",
                     f"{held} held; /healthz p99 {stream['healthz_busy']['p99_ms']} ms, command p99 "
                     f"{stream['command_latency']['p99_ms']} ms, wake-up p99 {p99} ms, "
                     f"{stream['memory']['per_waiter_kib']} KiB per waiter; {rel.get('abandoned')} abandoned "
                     f"released in {rel.get('released_seconds')} s; errors {stream['errors']}, unseen {unseen}",
                     "yes" if ok else "no"])
    return rows


def _worker_models(load: list[dict[str, Any]], threaded: dict[str, Any] | None) -> list[str]:
    """The two gunicorn worker models side by side, at the same load (lines of the report)."""
    if threaded is None:
        return []
    same = next((r for r in load if r["settings"]["clients"] == threaded["settings"]["clients"]), None)
    if same is None:
        return []
    rows = [[r["settings"]["worker_class"], r["settings"]["clients"], r["api"]["per_second"],
             r["api"]["commands_latency"]["p50_ms"], r["api"]["commands_latency"]["p99_ms"],
             r["stack_floor"]["per_second"], r["ratios"]["api_to_stack_floor"], r["api"]["cpu_ms_per_command"]["server"]]
            for r in (same, threaded)]
    return ["The two worker models at the same load, each beside a stack floor under the same worker model "
            "(`--worker-class`): gevent is `facedown serve`'s default.", "",
            table(rows, ["worker", "clients", "commands/s", "cmd p50", "cmd p99", "stack floor/s", "÷ stack floor",
                         "server CPU ms/cmd"]), ""]


def render(store: dict[str, Any], rules: dict[str, Any], load: list[dict[str, Any]], length: dict[str, Any],
           stream: dict[str, Any] | None, when: str, gauges: list[float] | None = None,
           threaded: dict[str, Any] | None = None) -> str:
    env = store["environment"]
    peer = load[0]["peer_eventsourcing"]
    parts = [
        "# Benchmarks",
        "",
        f"Regenerated by `facedown bench report` on {when}; do not edit by hand. Machine: {env['cores']} cores, "
        f"Python {env['python']}, {env['platform']}; PostgreSQL {store['settings']['postgresql']} "
        f"({store['settings']['database']}); versions {env['versions']}.",
        "",
        "Every figure comes from the commands below, run one after the other on the same machine and "
        "database server. Each can be run alone, and prints a table (or JSON with `--json`). Where the "
        "time goes, and what limits the targets not met: [docs/performance.md](docs/performance.md).",
        "",
        "This machine's speed changes during the day (other virtual machines share its host): compare "
        "figures with the floors measured beside them in the same run. Speed gauge (ms of CPU to replay one "
        "fixed Corte game, lower is faster) before, between and after the benchmarks: "
        + (", ".join(str(g) for g in gauges) if gauges else "not taken") + ".",
        "",
        "## Targets (issue 7) against this run",
        "",
        table(targets(rules, load, length, stream), ["benchmark", "target", "reached", "met"]),
        "",
        "## `facedown bench store` — the event store against the INSERT floor",
        "",
        "Appends of one event per transaction through the store (per-game row lock, idempotency check, "
        "hash chain, one server-side call), at 1, 4 and 8 threads, each thread on its own game, beside plain "
        "single-row INSERTs of the same payload from psycopg (the floor). `append+NOTIFY` sends the wake-up "
        "inside the transaction (a database-wide lock at commit); the service sends it after commit, batched.",
        "",
        table([[r["workload"], r["threads"], r["per_second"], r["p50_ms"], r["p99_ms"], r.get("ratio_to_floor", "")]
               for r in store["results"]], ["workload", "threads", "per s", "p50 ms", "p99 ms", "÷ floor"]),
        "",
        "## `facedown bench rules` — the rules engine in-process",
        "",
        "decide+evolve per second on one core. Greedy bots play whole games; then their commands are "
        "replayed through the rules engine alone (deal, parse, decide, evolve, back to back, timed as a whole, "
        f"the fastest of {rules['settings']['replay_repeats']} replays; each must end in the played states): per wall-clock second, and per second of the thread's "
        "CPU time, which a busy machine distorts less. Beside it, the same steps timed one by one while the "
        "bots played: each step then pays two timer reads and runs with the CPU caches full of the bots' "
        "views and legal actions.",
        "",
        table([[r["ruleset"], r["commands"], r["steps_per_second"], r["steps_per_cpu_second"],
                r["interleaved_steps_per_cpu_second"]] for r in rules["results"]],
              ["ruleset", "commands", "steps/s", "steps/CPU s", "steps/CPU s, between bots' moves"]),
        "",
        "## `facedown bench api` — whole games over HTTP",
        "",
        "gunicorn as users run it (`facedown serve`), C bot client processes each playing whole games through "
        "the public API, each seat with its own token, reading its view and posting one of its legal actions. "
        "In the same run and on the same database: the plain INSERT floor with C threads, the "
        "`eventsourcing` library's load + one event + save with C threads (the peer: each thread takes "
        f"its {peer['aggregates_per_thread']} aggregates in turn, each warmed with {peer['warm_events']} events, "
        "about a short round, so that the "
        "aggregates the peer replays on every load grow little during the run), and the **stack "
        "floor**: the same load generator, request mix (views per command) and answer sizes against a "
        "minimal Flask app under the same gunicorn settings that does one plain single-row statement per "
        "request and nothing else (`service/tools/bench/floor.py`) — what any application on this HTTP stack, "
        "database and machine reaches at most.",
        "",
        table([[r["settings"]["clients"], r["api"]["games"], r["api"]["commands"], r["api"]["per_second"],
                r["api"]["commands_latency"]["p50_ms"], r["api"]["commands_latency"]["p95_ms"],
                r["api"]["commands_latency"]["p99_ms"], r["api"]["views_latency"]["p50_ms"],
                r["api"]["views_latency"]["p99_ms"], r["api"]["errors"], r["floor_plain_insert"]["per_second"],
                r["peer_eventsourcing"]["per_second"], r["stack_floor"]["per_second"], r["ratios"]["api_to_floor"],
                r["ratios"]["api_to_peer"], r["ratios"]["api_to_stack_floor"]]
               for r in load],
              ["clients", "games", "commands", "commands/s", "cmd p50", "cmd p95", "cmd p99", "view p50",
               "view p99", "errors", "floor/s", "peer/s", "stack floor/s", "÷ floor", "× peer", "÷ stack floor"]),
        "",
        *_worker_models(load, threaded),
        "commands/s counts the commands answered while every client was playing (the slowest games end "
        "alone, with fewer clients). Where the CPU goes (ms of CPU per command, read from `/proc`: the "
        "server's processes, the PostgreSQL backends of the benchmark's database, the client processes; "
        f"the machine has {env['cores']} cores, so a total of t ms per command caps the rate at {env['cores']}000 ÷ t):",
        "",
        table([[r["settings"]["clients"], *[r[part]["cpu_ms_per_command"][k] for part in ("api", "stack_floor")
                                            for k in ("server", "postgres", "clients", "total")]] for r in load],
              ["clients", "facedown: server", "PostgreSQL", "clients", "total", "stack floor: server",
               "PostgreSQL", "clients", "total"]),
        "",
        "## `facedown bench length` — latency against game length",
        "",
        "Corte games played on (target score out of reach) to 50, 500 and 5,000 events, then commands and "
        "view loads measured over HTTP. A worker's first load of a game reads its latest snapshot (written "
        "every 16 versions) and at most 15 events; later loads read only the events after the worker's "
        "cached copy. Neither grows with the game.",
        "",
        table([[r["events"], r["command"]["p50_ms"], r["command"]["p99_ms"], r["view"]["p50_ms"], r["view"]["p99_ms"],
                r["errors"]] for r in length["results"]],
              ["events", "command p50 ms", "command p99 ms", "view p50 ms", "view p99 ms", "errors"]),
        "",
        "Ratios (largest ÷ smallest): " + json.dumps(next(v for k, v in length.items() if k.startswith("ratio_"))),
        "",
    ]
    if stream is not None:
        w, m, c, r = stream["wake"], stream["memory"], stream["cpu"], stream["release"] or {}
        parts += ["## `facedown bench stream` — idle waiters on long-polls and SSE", "",
                  f"`facedown serve` with its default settings ({stream['settings']['server']}) holds "
                  f"{stream['settings']['waiters_long_poll']} long-polls (`wait=30`) and "
                  f"{stream['settings']['waiters_sse']} SSE streams on {stream['settings']['games']} Corte games, "
                  f"opened by {stream['settings']['client_processes']} client processes; then "
                  f"{stream['commands']} commands arrive over {stream['settings']['seconds']} s while a prober "
                  "times `/healthz`; then a client opens more long-polls and vanishes.", "",
                  table([["connections held by the workers", stream["held_by_server"]],
                         ["/healthz p50 / p99, idle", f"{stream['healthz_idle']['p50_ms']} / "
                                                     f"{stream['healthz_idle']['p99_ms']} ms"],
                         ["/healthz p50 / p99, while commands arrive", f"{stream['healthz_busy']['p50_ms']} / "
                                                                       f"{stream['healthz_busy']['p99_ms']} ms"],
                         ["command p50 / p99", f"{stream['command_latency']['p50_ms']} / "
                                               f"{stream['command_latency']['p99_ms']} ms"],
                         ["wake-up p50 / p99 (long-poll), from the commit", f"{w['poll']['from_post_return']['p50_ms']}"
                          f"..{w['poll']['from_event_at']['p50_ms']} / {w['poll']['from_post_return']['p99_ms']}.."
                          f"{w['poll']['from_event_at']['p99_ms']} ms ({w['poll']['deliveries']}/"
                          f"{w['poll']['expected']} delivered)"],
                         ["wake-up p50 / p99 (SSE), from the commit", f"{w['sse']['from_post_return']['p50_ms']}.."
                          f"{w['sse']['from_event_at']['p50_ms']} / {w['sse']['from_post_return']['p99_ms']}.."
                          f"{w['sse']['from_event_at']['p99_ms']} ms ({w['sse']['deliveries']}/"
                          f"{w['sse']['expected']} delivered)"],
                         ["memory per waiter (workers' RSS)", f"{m['per_waiter_kib']} KiB ({m['idle_rss_kib']} -> "
                                                              f"{m['loaded_rss_kib']} KiB)"],
                         ["workers' CPU, idle / while commands arrive", f"{c['workers_idle_percent_of_one_core']} % / "
                                                                        f"{c['workers_busy_percent_of_one_core']} % "
                                                                        "of one core"],
                         ["abandoned long-polls released", f"{r.get('abandoned')} in {r.get('released_seconds')} s "
                                                           f"({r.get('left_after')} left)"],
                         ["errors", stream["errors"]]], ["figure", "value"]), "",
                  "A wake-up delay is bracketed: from the moment the command's POST returned (after the commit: "
                  "a lower bound) and from the event's `at` (stamped before the append: an upper bound).", ""]
    parts += ["![latency against load and game length](docs/benchmarks.png)", "",
              "## How to run", "",
              "    facedown bench store --json", "    facedown bench rules --json",
              "    facedown bench api --clients 8 --games 32 --ruleset corte --json",
              "    facedown bench length --json", "    facedown bench stream --json",
              "    facedown bench report          # all of the above, then this file and the plot",
              "    facedown bench notify --json   # e-mail and Web Push: figures in docs/reaching-players.md", "",
              "Without `DATABASE_URL` they use the embedded PostgreSQL; with it, a scratch database is created "
              "next to the configured one and dropped afterwards. `bench api` needs the `bench` extra "
              "(`pip install -e '.[bench]'`) for the `eventsourcing` peer and the plot.", ""]
    return "\n".join(parts)


@click.command("report")
@click.option("--clients", default="1,2,4,8,16", show_default=True, help="Client counts for the load curve.")
@click.option("--games-per-client", default=2, show_default=True, type=click.IntRange(1, 1000))
@click.option("--stream/--no-stream", default=True, show_default=True, help="Include bench stream.")
@click.option("--waiters", default=5000, show_default=True, type=click.IntRange(1, 100_000),
              help="Long-polls for bench stream, and as many SSE streams.")
def bench_report(clients: str, games_per_client: int, stream: bool, waiters: int) -> None:
    """Run every benchmark and regenerate BENCHMARKS.md and docs/benchmarks.png."""
    gauges = [speed_gauge()]
    store = run_json(["store"])
    rules = run_json(["rules"])
    gauges.append(speed_gauge())
    load = [run_json(["api", "--clients", c, "--games", str(int(c) * games_per_client)])
            for c in clients.split(",")]
    # the other worker model, at the load curve's middle, for comparison (docs/performance.md)
    middle = clients.split(",")[len(clients.split(",")) // 2]
    threaded = run_json(["api", "--clients", middle, "--games", str(int(middle) * games_per_client),
                         "--worker-class", "gthread"])
    gauges.append(speed_gauge())
    length = run_json(["length"])
    streamed = run_json(["stream", "--waiters", str(waiters)]) if stream else None
    gauges.append(speed_gauge())
    when = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    (ROOT / "docs").mkdir(exist_ok=True)
    plot(load, length, ROOT / "docs" / "benchmarks.png")
    (ROOT / "BENCHMARKS.md").write_text(render(store, rules, load, length, streamed, when, gauges, threaded))
    (ROOT / "docs" / "benchmarks.json").write_text(json.dumps(
        {"store": store, "rules": rules, "api": load, "api_gthread": threaded, "length": length, "stream": streamed,
         "speed_gauge_ms": gauges}, indent=1))
    click.echo("wrote BENCHMARKS.md, docs/benchmarks.png and docs/benchmarks.json")
