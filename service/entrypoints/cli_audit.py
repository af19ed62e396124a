"""``facedown audit export GAME_ID`` and ``facedown audit verify FILE``."""
from __future__ import annotations

import json
import sys
import uuid

import click


@click.group()
def audit() -> None:
    """Export a game's audit log, or verify one offline."""


@audit.command("export")
@click.argument("game_id", type=click.UUID)
def export_cmd(game_id: uuid.UUID) -> None:
    """Print the audit export of GAME_ID (DATABASE_URL, or the embedded database)."""
    from events.db import Database
    from events.embedded import database_url
    from events.errors import StoreError
    from events.store import EventStore
    from service.audit import export as exporting

    url, embedded = database_url()
    db = Database(url, max_size=2)
    try:
        data = exporting.export_game(EventStore(db), game_id)
    except exporting.GameNotFound:
        # the wrong database is the likely cause: say which one was read (DATABASE_URL's, or
        # the embedded one when it is unset)
        raise click.ClickException(f"no game {game_id} in the database at {db.where()}"
                                   f"{' (the embedded one: DATABASE_URL is unset)' if embedded else ''}") from None
    except StoreError as exc:
        raise click.ClickException(f"cannot read games from the database at {db.where()}: {exc}") from None
    except exporting.AuditUnavailable as exc:
        raise click.ClickException(f"{exc}; the audit shows finished rounds only") from None
    finally:
        db.close()
        if embedded is not None:
            embedded.stop()
    sys.stdout.write(exporting.dumps(data))


@audit.command("verify")
@click.argument("file", type=click.File("rb"))
@click.option("--quiet", "-q", is_flag=True, help="Print only the result, not the timeline.")
@click.option("--log", "log_url", default=None,
              help="Also check the game's final checkpoint and its place in this server's log of finished games.")
@click.option("--log-key", default=None, help="The log's verifier key (else the one the server shows).")
def verify_cmd(file: click.utils.LazyFile, quiet: bool, log_url: str | None, log_key: str | None) -> None:
    """Verify an exported game with no server and no database; exit 1 on any failure. With
    --log, also check the server's signed checkpoints of it (docs/fairness.md)."""
    from service.audit import export as exporting
    from service.audit.timeline import render
    from service.audit.verify import verify_export

    raw = file.read()
    try:
        text = raw.decode("utf-8")
        data = json.loads(text)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        click.echo(f"RESULT: FAILED, file: not a valid UTF-8 JSON export ({exc})", err=True)
        sys.exit(1)
    if not isinstance(data, dict):
        click.echo("RESULT: FAILED, file: not a JSON object", err=True)
        sys.exit(1)
    report = verify_export(data)
    if exporting.dumps(data) != text:
        # any changed byte that keeps valid JSON (a space, an escape) still shows
        at = next((i for i, (a, b) in enumerate(zip(exporting.dumps(data), text)) if a != b), None)
        line = text.count("\n", 0, at) + 1 if at is not None else text.count("\n") + 1
        from service.audit.verify import Failure

        report.failures.append(Failure("file", f"not in the canonical export form (first difference at line {line}); "
                                       "re-export or check it was not edited", value="file"))
        report.status["file"] = "failed"
    try:
        out = render(data, report)
    except Exception:  # a malformed export still gets its failures printed
        first = report.first()
        out = "".join(f"  - {f}\n" for f in report.failures) + f"RESULT: FAILED, first bad {first}\n"
    if quiet:
        out = "\n".join(line for line in out.splitlines()
                        if line.startswith(("RESULT", "  - ", "  checked: ", "  not checked", "verification")))
        out += "\n"
    click.echo(out, nl=False)
    logged = _check_log(data, log_url, log_key) if log_url else True
    sys.exit(0 if report.ok and logged else 1)


def _check_log(data: dict[str, object], log_url: str, log_key: str | None) -> bool:
    """The export's tree against the server's final checkpoint, and that checkpoint in the log."""
    import requests

    from service.audit.checkpoints import LogProof, TransparencyFailure, check_final_checkpoint, check_in_log
    from service.model.signed_notes import Checkpoint, NoteError, VerifierKey, parse_note

    base, gid = log_url.rstrip("/"), data.get("game_id")
    try:
        key = VerifierKey.parse(log_key or requests.get(f"{base}/v1/log/key", timeout=30).json()["vkey"])
        note = requests.get(f"{base}/v1/games/{gid}/checkpoint", timeout=30).content.decode("utf-8")
        cp = check_final_checkpoint(data, note, key)
        log_note = requests.get(f"{base}/v1/log/checkpoint", timeout=30).content.decode("utf-8")
        size = Checkpoint.parse(parse_note(log_note).text).size
        answer = requests.get(f"{base}/v1/log/proof/inclusion", params={"game": gid, "size": size}, timeout=30).json()
        log = check_in_log(note, LogProof(log_note, int(answer["index"]), answer["hashes"]), key)
    except (TransparencyFailure, NoteError, requests.RequestException, KeyError, TypeError, ValueError) as exc:
        click.echo(f"RESULT: FAILED, transparency: {exc}")
        return False
    click.echo(f"transparency: the final checkpoint (size {cp.size}) is signed by {key.name} and has the events' "
               f"root; it is leaf {answer['index']} of the log of {log.size} finished games")
    return True
