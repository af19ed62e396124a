"""``facedown ratings rebuild [--check]``: every rating recomputed from the game logs (docs/ratings.md)."""
from __future__ import annotations

import sys

import click


@click.group()
def ratings() -> None:
    """Ratings per ruleset, a projection of the game logs."""


@ratings.command("rebuild")
@click.option("--check", is_flag=True,
              help="Only compare the stored ratings with the logs: print each difference, exit 1 on any.")
def rebuild_cmd(check: bool) -> None:
    """Recompute every rating from the logs (DATABASE_URL, or the embedded database) and replace
    the stored ones, as the database's owner; with --check, change nothing."""
    from events.db import Database
    from events.embedded import database_url
    from events.store import EventStore
    from service.adapters import ratings as projection

    url, embedded = database_url()
    db = Database(url, max_size=2, service_role=False)  # the owner: the service may not write a table
    try:
        if check:
            found = projection.differences(EventStore(db), db)
        else:
            games = projection.rebuild(EventStore(db), db)
    finally:
        db.close()
        if embedded is not None:
            embedded.stop()
    if not check:
        click.echo(f"ratings rebuilt from {games} rated game(s)")
        return
    for line in found:
        click.echo(line)
    if found:
        click.echo(f"{len(found)} difference(s) between the stored ratings and the logs", err=True)
        sys.exit(1)
    click.echo("the stored ratings are those the logs give")
