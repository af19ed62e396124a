"""What every benchmark prints beside its figures, and the scratch database each runs on."""
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


def emit(report: dict[str, Any], as_json: bool, title: str, columns: list[str]) -> None:
    """A benchmark's report as JSON, or its results as a table."""
    if as_json:
        click.echo(json.dumps(report, indent=2))
    else:
        print_table(title, report["results"], columns)


def print_table(title: str, rows: list[dict[str, Any]], columns: list[str]) -> None:
    click.echo(title)
    click.echo("  " + "  ".join(f"{c:>14}" for c in columns))
    for row in rows:
        click.echo("  " + "  ".join(f"{str(row.get(c, '')):>14}" for c in columns))


def scratch_db() -> tuple[str, Any, Any]:
    """A migrated scratch database on the configured (or embedded) server."""
    from events import migrations
    from events.bench_sql import scratch_database
    from events.embedded import database_url

    url, embedded = database_url()
    scratch, drop = scratch_database(url)
    migrations.upgrade(scratch)
    return scratch, drop, embedded


def latency(values: list[float]) -> dict[str, float]:
    from service.tools.bench.threads import percentile

    ordered = sorted(values)
    return {"p50_ms": round(percentile(ordered, 50), 2), "p95_ms": round(percentile(ordered, 95), 2),
            "p99_ms": round(percentile(ordered, 99), 2), "count": len(ordered)}
