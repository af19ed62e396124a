"""``facedown simulate``: whole games in-process, with every invariant checked."""
from __future__ import annotations

import json
import statistics
import sys
from collections import Counter
from typing import Any

import click

from domain import rules
from domain.bots import BOT_NAMES

INVARIANTS = ("conservation", "replay", "legal_actions_accepted", "termination")


def parse_option(text: str) -> tuple[str, Any]:
    """``key=value``; the value is read as JSON when it parses (numbers, true, null), else as text."""
    if "=" not in text:
        raise click.BadParameter(f"{text!r}: expected key=value")
    key, raw = text.split("=", 1)
    try:
        return key, json.loads(raw)
    except json.JSONDecodeError:
        return key, raw


def _classify(message: str) -> str:
    if message.startswith("replay"):
        return "replay"
    if message.startswith("legal action refused") or "no legal action" in message:
        return "legal_actions_accepted"
    if message.startswith("termination"):
        return "termination"
    return "conservation"


def run_simulation(ruleset_name: str, players: int, games: int, seed: int, bot: str,
                   options: dict[str, Any], progress: bool = True, max_steps: int = 20000) -> dict[str, Any]:
    """Play ``games`` games and return the report (see ``facedown simulate --help``)."""
    from domain.simulation import play

    ruleset = rules.get(ruleset_name)
    failures: dict[str, list[str]] = {name: [] for name in INVARIANTS}
    events = steps = rounds = 0
    kinds: Counter[str] = Counter()
    seconds = cpu = 0.0
    finals: list[int] = []
    winners_per_game: list[int] = []
    bar = click.progressbar(range(games), label=f"{ruleset_name} x{players}", file=sys.stderr) if progress else None
    iterator = bar if bar is not None else range(games)
    if bar is not None:
        bar.__enter__()
    try:
        for i in iterator:
            result = play(ruleset, players, options, seed + i, bot, max_steps=max_steps)
            for message in result.violations:
                failures[_classify(message)].append(f"game seed {seed + i}: {message}")
            events += len(result.events)
            kinds.update(type(e).__name__ for e in result.events)
            steps += result.steps
            rounds += result.rounds
            seconds += result.decide_evolve_seconds
            cpu += result.decide_evolve_cpu_seconds
            scores = ruleset.scores(result.state)
            finals.extend(scores)
            if result.terminal and scores:
                winners_per_game.append(sum(1 for s in scores if s == min(scores)))
    finally:
        if bar is not None:
            bar.__exit__(None, None, None)
    return {
        "ruleset": ruleset_name,
        "players": players,
        "games": games,
        "seed": seed,
        "bot": bot,
        "options": ruleset.resolve_options(options, players),
        "rounds": rounds,
        "events": events,
        "commands": steps,
        "mean_events_per_game": round(events / games, 2) if games else 0,
        "mean_rounds_per_game": round(rounds / games, 2) if games else 0,
        "event_types": dict(sorted(kinds.items())),
        "decide_evolve_steps_per_second": round(steps / seconds) if seconds else None,
        "decide_evolve_steps_per_cpu_second": round(steps / cpu) if cpu else None,
        "scores": {
            "mean": round(statistics.fmean(finals), 2) if finals else None,
            "min": min(finals) if finals else None,
            "max": max(finals) if finals else None,
            "stdev": round(statistics.pstdev(finals), 2) if finals else None,
        },
        "shared_wins": sum(1 for w in winners_per_game if w > 1),
        "invariants": {name: {"ok": not failures[name], "failures": failures[name][:10],
                              "failure_count": len(failures[name])} for name in INVARIANTS},
        "ok": not any(failures.values()),
    }


@click.command()
@click.option("--ruleset", "ruleset_name", required=True, type=click.Choice(sorted(rules._MODULES)))
@click.option("--players", default=4, show_default=True, type=click.IntRange(2, 10))
@click.option("--games", default=100, show_default=True, type=click.IntRange(1, 10_000_000))
@click.option("--seed", default=1, show_default=True, type=int)
@click.option("--bot", default="greedy", show_default=True, type=click.Choice(BOT_NAMES))
@click.option("--option", "option_texts", multiple=True, metavar="KEY=VALUE", help="A house-rule option (repeatable).")
@click.option("--max-steps", default=20000, show_default=True, type=click.IntRange(10, 10_000_000),
              help="Commands per game before it counts as not terminating.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def simulate(ruleset_name: str, players: int, games: int, seed: int, bot: str, option_texts: tuple[str, ...],
             max_steps: int, as_json: bool) -> None:
    """Play whole games with bots in-process and check every invariant (exit 1 if any fails)."""
    from domain.errors import InvalidOptions

    options = dict(parse_option(t) for t in option_texts)
    try:
        report = run_simulation(ruleset_name, players, games, seed, bot, options, max_steps=max_steps)
    except InvalidOptions as exc:
        raise click.UsageError(f"invalid options: {exc}") from exc
    except KeyError as exc:
        raise click.UsageError(f"ruleset {ruleset_name!r} is not available in this build") from exc
    if as_json:
        click.echo(json.dumps(report, indent=2, sort_keys=True))
    else:
        click.echo(f"{report['games']} games of {ruleset_name}, {players} players, bot {bot}, seed {seed}")
        for key in ("rounds", "events", "commands", "mean_events_per_game", "mean_rounds_per_game",
                    "decide_evolve_steps_per_second", "decide_evolve_steps_per_cpu_second", "shared_wins"):
            click.echo(f"  {key:32} {report[key]}")
        click.echo(f"  {'scores':32} {report['scores']}")
        orders = {k: v for k, v in report["event_types"].items() if k.startswith("Order")}
        if orders:  # the rulesets with windows: what the bots' standing orders did
            click.echo(f"  {'standing orders':32} {orders}")
        for name, res in report["invariants"].items():
            click.echo(f"  invariant {name:22} {'ok' if res['ok'] else 'FAILED x' + str(res['failure_count'])}")
            for f in res["failures"]:
                click.echo(f"      {f}")
    sys.exit(0 if report["ok"] else 1)
