"""``facedown check reliability``: run every section, print the table, write RELIABILITY.md."""
from __future__ import annotations

import sys
import time
from datetime import datetime, timezone
from pathlib import Path
from types import ModuleType

import click

ROOT = Path(__file__).resolve().parents[3]


def _sections() -> list[tuple[str, str, ModuleType]]:
    """(option name, title, module) of each section, in the order they run."""
    from service.tools.check import crashes, exhaustion, hostile, leaks, outage, races

    return [("races", "Races", races), ("kill", "kill -9", crashes), ("database", "Database restart", outage),
            ("hostile", "Hostile input", hostile), ("exhaustion", "Resource exhaustion", exhaustion),
            ("leaks", "Leaks", leaks)]


def _described() -> list[tuple[str, ModuleType]]:
    """Each section's title and module (whose docstring says how it measures), the corpus too."""
    from service.tools.check import corpus

    out = [(title, module) for _, title, module in _sections()]
    out.insert(4, ("The malformed corpus", corpus))
    return out


SECTIONS = ("races", "kill", "database", "hostile", "exhaustion", "leaks")


@click.group()
def check() -> None:
    """Checks that try the service for real and report what they measured."""


@check.command("reliability")
@click.option("--quick", is_flag=True, help="Small sizes (a minute or two): the smoke test's form.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON instead of the table.")
@click.option("--section", "only", multiple=True, type=click.Choice(SECTIONS), help="Only these sections.")
@click.option("--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the report here (default: RELIABILITY.md at the repository's root, for the full form).")
@click.option("--quiet", is_flag=True, help="No progress lines on stderr.")
def reliability(quick: bool, as_json: bool, only: tuple[str, ...], output: Path | None, quiet: bool) -> None:
    """Races, kill -9, a database restart, hostile input, resource exhaustion and leaks against
    `facedown serve`, on scratch databases (DATABASE_URL's server, else the embedded one) and
    a private PostgreSQL for the restart; exit 1 if any figure shows a failure."""
    from events.db import Database
    from events.embedded import database_url
    from service.tools.bench.common import server_version
    from service.tools.check import outage, report
    from service.tools.check.harness import Progress, Row, Settings, scratch, server

    command = "facedown check reliability" + (" --quick" if quick else "") + "".join(f" --section {s}" for s in only)
    progress = Progress(quiet)
    url, embedded = database_url()
    rows: list[Row] = []
    t0 = time.monotonic()
    # the restart's private PostgreSQL is made (initdb) in the background while the others run
    private = outage.PrivatePostgres() if not only or "database" in only else None
    try:
        db = Database(url, max_size=1, service_role=False)
        try:
            postgresql = server_version(db)
        finally:
            db.close()
        with scratch(url) as shared_url, server(shared_url) as shared:
            settings = Settings(quick, url, progress, (shared_url, shared), private)
            for name, title, module in _sections():
                if only and name not in only:
                    continue
                progress(title)
                began = time.monotonic()
                try:
                    rows += module.run(settings)
                except Exception as exc:  # noqa: BLE001 - a section that breaks is a failing row; the rest run
                    # the end of the message: a server's exit gives its log's last lines there
                    rows.append(Row(title, "the section itself", {}, False, f"{type(exc).__name__}: "
                                    + " ".join(str(exc).split())[-600:]))
                progress(f"{title}: done in {time.monotonic() - began:.1f} s")
    finally:
        if private is not None:
            private.close()
        if embedded is not None:
            embedded.stop()
    seconds = time.monotonic() - t0
    when = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    env = report.versions(postgresql)
    text = report.render(rows, command, when, seconds, env, _described())
    target = output if output is not None else (None if quick or only else ROOT / "RELIABILITY.md")
    if target is not None:
        target.write_text(text + "\n")
        progress(f"wrote {target}")
    click.echo(report.as_json(rows, command, when, seconds, env) if as_json else text)
    sys.exit(0 if rows and all(r.ok for r in rows) else 1)
