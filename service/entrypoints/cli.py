"""The ``facedown`` command line."""
from __future__ import annotations

import contextlib
from collections.abc import Iterator

import click


@click.group()
def main() -> None:
    """facedown: correspondence play of the least-score card games."""


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to bind.")
@click.option("--port", default=8080, show_default=True, type=click.IntRange(1, 65535))
@click.option("--workers", default=2, show_default=True, type=click.IntRange(1, 64), help="gunicorn workers.")
@click.option("--threads", default=32, show_default=True, type=click.IntRange(1, 1024),
              help="Threads per worker (gthread only).")
@click.option("--worker-class", default="gevent", show_default=True, type=click.Choice(["gevent", "gthread"]),
              help="gevent: a greenlet per connection (thousands of idle clients); gthread: a thread per request.")
def serve(host: str, port: int, workers: int, threads: int, worker_class: str) -> None:
    """Run the HTTP service under gunicorn (embedded PostgreSQL when DATABASE_URL is unset)."""
    if worker_class == "gevent":
        from service.entrypoints.gevent_patch import patch_for_gevent

        patch_for_gevent()  # first: before anything imports psycopg
    from service.entrypoints.serve import serve as run

    run(host, port, workers, threads, worker_class, echo=lambda m: click.echo(m, err=True))


@main.group()
def db() -> None:
    """Database administration."""


@contextlib.contextmanager
def _database() -> Iterator[str]:
    """DATABASE_URL, or the embedded database, started for the command and stopped after it."""
    from events.embedded import database_url

    url, embedded = database_url()
    try:
        yield url
    finally:
        if embedded is not None:
            embedded.stop()


@db.command("upgrade")
def db_upgrade() -> None:
    """Apply pending migrations (DATABASE_URL, or the embedded database)."""
    from events import migrations

    with _database() as url:
        applied = migrations.upgrade(url)
        click.echo("applied: " + ", ".join(applied) if applied else "up to date")


@db.command("distribute")
@click.option("--shard-count", type=click.IntRange(1, 4096), default=None,
              help="Shards per distributed table (default: Citus's citus.shard_count).")
def db_distribute(shard_count: int | None) -> None:
    """On a Citus coordinator: apply pending migrations, then distribute every table and the
    append function by game (or player) id (docs/deployment-citus.md). Idempotent."""
    from events import citus, migrations

    with _database() as url:
        applied = migrations.upgrade(url)
        try:
            done = [s for s in applied if s.startswith("citus: ")] + citus.distribute(url, shard_count)
        except citus.NotCitus as exc:
            raise click.ClickException(str(exc)) from exc
        click.echo("\n".join(done) if done else "already distributed")


@db.command("backfill-log")
def db_backfill_log() -> None:
    """Put the games that finished before the log of finished games existed into it, oldest
    first (docs/fairness.md). Idempotent: a game is never logged twice."""
    from service.http.app import close_app, create_app
    from service.usecases.transparency import backfill

    with _database() as url:
        app = create_app({"database_url": url})
        try:
            added = backfill(app.extensions["facedown"])
        finally:
            close_app(app)
        click.echo(f"{len(added)} finished game(s) added to the log")


@main.group()
def deadlines() -> None:
    """Turn and final-window deadlines (docs/rules/README.md); `facedown serve` sweeps by itself."""


@deadlines.command("sweep")
def deadlines_sweep() -> None:
    """Send the system commands of every game whose deadline has passed, once."""
    from service.http.app import close_app, create_app
    from service.usecases.sweep import sweep

    with _database() as url:
        app = create_app({"database_url": url})
        try:
            result = sweep(app.extensions["facedown"])
        finally:
            close_app(app)
        if not result.swept:
            click.echo("another process is sweeping; nothing done")
        else:
            click.echo(f"{result.games_due} game(s) past their deadline, {result.commands_sent} system command(s) sent")


def _register_optional_commands() -> None:
    """Sub-commands that live in their own modules."""
    from service.entrypoints import cli_audit, cli_clients, cli_moderation, cli_ratings, cli_simulate, cli_witness
    from service.tools.bench.cli import bench
    from service.tools.check.cli import check

    main.add_command(cli_simulate.simulate)
    main.add_command(bench)
    main.add_command(cli_audit.audit)
    main.add_command(cli_witness.witness)
    main.add_command(cli_clients.bot)
    main.add_command(cli_clients.conformance)
    main.add_command(check)
    main.add_command(cli_moderation.moderation)
    main.add_command(cli_ratings.ratings)


_register_optional_commands()
