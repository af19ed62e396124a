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
@click.option("--threads", default=32, show_default=True, type=click.IntRange(1, 1024), help="Threads per worker.")
def serve(host: str, port: int, workers: int, threads: int) -> None:
    """Run the HTTP service under gunicorn (embedded PostgreSQL when DATABASE_URL is unset)."""
    from service.serve import serve as run

    run(host, port, workers, threads, echo=lambda m: click.echo(m, err=True))


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


@main.group()
def deadlines() -> None:
    """Turn and final-window deadlines (RULES §2.11); `facedown serve` sweeps by itself."""


@deadlines.command("sweep")
def deadlines_sweep() -> None:
    """Send the system commands of every game whose deadline has passed, once."""
    from service.app import create_app
    from service.deadlines import sweep

    with _database() as url:
        app = create_app({"database_url": url})
        result = sweep(app.extensions["facedown_api"])
        if not result.swept:
            click.echo("another process is sweeping; nothing done")
        else:
            click.echo(f"{result.games_due} game(s) past their deadline, {result.commands_sent} system command(s) sent")
        app.extensions["facedown"].db.close()


def _register_optional_commands() -> None:
    """Sub-commands that live in their own modules."""
    from service import bench_report, cli_audit, cli_bench, cli_simulate

    main.add_command(cli_simulate.simulate)
    cli_bench.bench.add_command(bench_report.bench_report)
    main.add_command(cli_bench.bench)
    main.add_command(cli_audit.audit)


_register_optional_commands()
