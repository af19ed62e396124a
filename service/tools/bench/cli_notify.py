"""``facedown bench notify``: commit-to-inbox latency of e-mail and Web Push, and the messages
a week of correspondence play sends per player per day under the default settings."""
from __future__ import annotations

import json
import os

import click

from service.tools.bench.common import environment, scratch_db


@click.command("notify")
@click.option("--players", default=1000, show_default=True, type=click.IntRange(2, 20_000),
              help="Players whose game waits for them, one commit each (latency).")
@click.option("--rate", default=50.0, show_default=True, type=click.FloatRange(1, 2000),
              help="Commits per second (latency).")
@click.option("--week-players", default=40, show_default=True, type=click.IntRange(2, 2000),
              help="Players of the simulated week.")
@click.option("--days", default=7.0, show_default=True, type=click.FloatRange(0.1, 60), help="Simulated days.")
@click.option("--games-each", default=3, show_default=True, type=click.IntRange(1, 20),
              help="Games each player of the week keeps going.")
@click.option("--json", "as_json", is_flag=True)
def bench_notify(players: int, rate: float, week_players: int, days: float, games_each: int, as_json: bool) -> None:
    """E-mail and push: commit-to-acceptance p50/p99, and messages per player per day."""
    from service.tools.bench.notify import run_latency, run_week

    figures = {}
    for part, run in (("latency", lambda url: run_latency(url, players, rate)),
                      ("week", lambda url: run_week(url, week_players, days, games_each))):
        scratch, drop, embedded = scratch_db()
        try:
            figures[part] = run(scratch)
        finally:
            drop()
            if embedded is not None:
                embedded.stop()
    report = {"benchmark": "notify", **figures, "environment": environment(),
              "settings": {"players": players, "rate": rate, "week_players": week_players, "days": days,
                           "games_each": games_each},
              "units": {"*_ms": "milliseconds from the join that deals (the call that commits it) to acceptance by the SMTP "
                                "server / the push endpoint, on loopback",
                        "*_per_player_per_day": "messages sent, the address verifications left out"}}
    if as_json:
        click.echo(json.dumps(report, indent=2))
        return
    lat, week = figures["latency"], figures["week"]
    click.echo(f"bench notify ({os.cpu_count()} cores): {lat['players_waiting']} players waiting, "
               f"{lat['commit_rate_per_second']} commits/s")
    for kind in ("email", "push"):
        f = lat[kind]
        click.echo(f"  {kind:<6} commit -> accepted  p50 {f['p50_ms']} ms  p99 {f['p99_ms']} ms  "
                   f"max {f['max_ms']} ms  missing {f['missing']}")
    click.echo(f"  a week: {week['players']} players x {week['games_each']} games, {week['days']} days, "
               f"{week['moves']} moves, {week['games_finished']} games finished")
    click.echo(f"  e-mails per player per day {week['emails_per_player_per_day']} (most to one player "
               f"{week['most_emails_to_one_player_per_day']}), by kind {week['emails_by_kind']}")
    click.echo(f"  pushes per player per day {week['pushes_per_player_per_day']}, by kind {week['pushes_by_kind']}")
