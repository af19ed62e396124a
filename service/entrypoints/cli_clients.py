"""``facedown bot`` and ``facedown conformance``: facedown's own clients, through the public API."""
from __future__ import annotations

import sys

import click

from domain.bots import BOT_NAMES


@click.command()
@click.option("--base-url", required=True, help="The server, e.g. http://127.0.0.1:8080.")
@click.option("--token", required=True, envvar="FACEDOWN_TOKEN", help="The player's bearer token.")
@click.option("--policy", type=click.Choice(BOT_NAMES), default="random", show_default=True)
@click.option("--games", default="all", show_default=True, help='"all" (every game of the player) or a game id.')
@click.option("--seed", type=int, default=None, help="Seed of the bot's choices.")
@click.option("--forever", is_flag=True, help="Keep waiting for new games instead of ending when none is left.")
@click.option("--quiet", is_flag=True, help="Do not print each command.")
def bot(base_url: str, token: str, policy: str, games: str, seed: int | None, forever: bool, quiet: bool) -> None:
    """Play every game where this player may act, through the SDK, waiting for news between moves
    (the account's notifications where the server has them, else long-polls on each game)."""
    from domain import bots
    from facedown_client import Bot, Client

    client = Client(base_url, token)

    def chosen(table: object, actions: object, rng: object, must_act: bool) -> object:
        # the policy of the game's ruleset (the table says which)
        name = table["ruleset"] if isinstance(table, dict) else "corte"
        return bots.policy(name, policy)(table, actions, rng, must_act)  # type: ignore[arg-type]

    runner = Bot(client, chosen, games=games, seed=seed, log=None if quiet else click.echo)
    runner.run(until_done=not forever)
    click.echo(runner.summary(), err=True)  # its games are over (a game id's, or every one)


@click.command()
@click.argument("base_url")
@click.option("--ruleset", "rulesets", multiple=True, help="Only these rulesets (default: every one the server lists).")
@click.option("--seats", type=int, default=3, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
def conformance(base_url: str, rulesets: tuple[str, ...], seats: int, seed: int) -> None:
    """Play a game of each ruleset through the public API and check every response against
    openapi.yaml, every view against the revealed audit (no seat is ever shown a card it was
    not shown) and the hash chain; print a table, exit 1 on any failure."""
    from service.tools.contract import conformance as kit

    rows = kit.run(base_url, rulesets or None, seats, seed)
    click.echo(kit.table(rows))
    sys.exit(0 if rows and all(r.ok for r in rows) else 1)
