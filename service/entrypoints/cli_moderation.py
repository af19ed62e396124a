"""``facedown moderation``: an operator's view of the game chat's reports, and hiding a
message for everyone (docs/chat.md)."""
from __future__ import annotations

import json
import uuid

import click


@click.group()
def moderation() -> None:
    """The game chat's reports and hidden messages (docs/chat.md)."""


@moderation.command("reports")
@click.option("--limit", type=click.IntRange(1, 10_000), default=100, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="One JSON object a line instead of text.")
def reports(limit: int, as_json: bool) -> None:
    """The latest reports, newest first: when, the game and message number (what `hide`
    takes), who reported it and why, and the message (already hidden or not)."""
    from events.chat import reports as latest
    from events.db import Database
    from service.entrypoints.cli import _database
    from service.model.game import iso

    with _database() as url:
        db = Database(url, max_size=1)
        try:
            found = latest(db, limit)
        finally:
            db.close()
    for r in found:
        row = {"at": iso(r.at), "game_id": str(r.game_id), "n": r.n, "reporter": str(r.reporter),
               "reason": r.reason, "author": None if r.author is None else str(r.author), "text": r.text,
               "hidden": r.hidden}
        if as_json:
            click.echo(json.dumps(row, ensure_ascii=False))
        else:
            # the words as a JSON string: a message's own characters cannot forge a line here
            click.echo(f"{row['at']}  {row['game_id']} {r.n}{'  (hidden)' if r.hidden else ''}\n"
                       f"    reported by {row['reporter']}: {json.dumps(r.reason, ensure_ascii=False)}\n"
                       f"    {row['author']} said: {json.dumps(r.text, ensure_ascii=False)}")
    if not found and not as_json:
        click.echo("no reports")


@moderation.command("hide")
@click.argument("game_id", type=click.UUID)
@click.argument("n", type=click.IntRange(1))
@click.option("--reason", default="hidden by an operator", show_default=True, help="Kept in the chat's log.")
def hide(game_id: uuid.UUID, n: int, reason: str) -> None:
    """Hide message N of the chat of game GAME_ID for everyone (a message is named by its game
    and its number in that game's chat, as `reports` lists them). The chat's log keeps the
    message and records the hide as an event of its own; only the reads leave it out."""
    from events.db import Database
    from events.store import EventStore
    from service.entrypoints.cli import _database
    from service.model.game import iso
    from service.usecases.chat import hide as hide_message
    from service.usecases.dependencies import utc_now

    with _database() as url:
        db = Database(url, max_size=1)
        try:
            done = hide_message(EventStore(db), game_id, n, reason, iso(utc_now()))
        finally:
            db.close()
    if not done:
        raise click.ClickException(f"no message {n} in the chat of game {game_id}")
    click.echo(f"message {n} of game {game_id} is hidden")
