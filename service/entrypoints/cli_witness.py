"""``facedown witness``: cosign the server-wide log of finished games (C2SP tlog-cosignature).

* ``facedown witness keygen --name NAME --out FILE`` writes the witness's private key to FILE
  (``PRIVATE+KEY+...``, readable by its owner only) and its verifier key (type 0x04) to
  ``FILE.vkey``: the line an operator adds to the server's ``FACEDOWN_WITNESS_KEYS``.
* ``facedown witness --log URL --key FILE --state DIR`` fetches the log's checkpoint, checks
  its signature by the log key (given with ``--log-key``, else the one kept in DIR, else the
  one the server shows the first time) and its consistency with the last checkpoint this
  witness cosigned (kept in DIR), and posts its cosignature to ``/v1/log/cosignatures``. A
  checkpoint that is not consistent with what it saw is refused: exit status 1 and a message
  that says so, with both checkpoints kept in DIR as evidence.
"""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

import click

STATE_CHECKPOINT = "checkpoint"  # the last checkpoint cosigned (the log's signed note)
STATE_LOG_KEY = "log.vkey"  # the log's key, kept from the first run
REFUSED = "refused.checkpoint"  # the checkpoint refused, beside the one cosigned before


@click.group("witness", invoke_without_command=True)
@click.option("--log", "log_url", help="The server's base URL (http://host:port).")
@click.option("--key", "key_file", type=click.Path(dir_okay=False), help="The witness's private key file.")
@click.option("--state", "state_dir", type=click.Path(file_okay=False), help="Where the witness keeps what it saw.")
@click.option("--log-key", default=None, help="The log's verifier key (else kept from the first run).")
@click.pass_context
def witness(ctx: click.Context, log_url: str | None, key_file: str | None, state_dir: str | None,
            log_key: str | None) -> None:
    """Check the server's log of finished games and cosign it (see docs/fairness.md)."""
    if ctx.invoked_subcommand is not None:
        return
    if not (log_url and key_file and state_dir):
        raise click.UsageError("give --log URL, --key FILE and --state DIR (or: facedown witness keygen)")
    sys.exit(run(log_url, Path(key_file), Path(state_dir), log_key))


@witness.command("keygen")
@click.option("--name", required=True, help="The witness's key name, such as witness.example.org/w1.")
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False), help="The private key's file.")
def keygen(name: str, out: str) -> None:
    """Make a witness key: FILE (private) and FILE.vkey (what the server's operator configures)."""
    from service.model.signed_notes import COSIGNATURE_V1, NoteError, Signer

    try:
        signer = Signer.generate(name, COSIGNATURE_V1)
    except NoteError as exc:
        raise click.BadParameter(str(exc), param_hint="--name") from None
    path = Path(out)
    if path.exists():
        raise click.ClickException(f"{path} exists: a witness keeps its key")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(signer.skey() + "\n")
    Path(f"{out}.vkey").write_text(signer.verifier.text() + "\n")
    click.echo(signer.verifier.text())


def _get(session: Any, url: str) -> Any:
    r = session.get(url, timeout=30)
    if r.status_code != 200:
        raise click.ClickException(f"GET {url}: {r.status_code} {r.text[:300]}")
    return r


def run(log_url: str, key_file: Path, state: Path, log_key: str | None = None) -> int:
    """One round of the witness; the process's exit status (0: cosigned or nothing new)."""
    import requests

    from service.model.merkle import ProofError, verify_consistency
    from service.model.signed_notes import COSIGNATURE_V1, Note, NoteError, Signer, VerifierKey, open_checkpoint, unb64

    base = log_url.rstrip("/")
    http = requests.Session()
    try:
        signer = Signer.parse_skey(key_file.read_text(), COSIGNATURE_V1)
    except (OSError, NoteError) as exc:
        raise click.ClickException(f"cannot read the witness key {key_file}: {exc}") from None
    state.mkdir(parents=True, exist_ok=True)
    kept_key = state / STATE_LOG_KEY
    vkey = log_key or (kept_key.read_text().strip() if kept_key.exists() else _get(http, f"{base}/v1/log/key").json()["vkey"])
    try:
        key = VerifierKey.parse(vkey)
    except NoteError as exc:
        raise click.ClickException(f"not a log key: {exc}") from None
    if kept_key.exists() and kept_key.read_text().strip() != key.text():
        raise click.ClickException(f"the log key given is not the one kept in {kept_key}")
    kept_key.write_text(key.text() + "\n")

    note = _get(http, f"{base}/v1/log/checkpoint").content.decode("utf-8")
    try:
        cp, parsed = open_checkpoint(note, key)
    except NoteError as exc:
        click.echo(f"REFUSED: the log's checkpoint is not signed by its key ({exc})", err=True)
        return 1
    if cp.origin != key.name:
        click.echo(f"REFUSED: a checkpoint of {cp.origin!r}, not of the log {key.name!r}", err=True)
        return 1
    own = Note(parsed.text, tuple(s for s in parsed.signatures if (s.name, s.id) == (key.name, key.id)))
    before_file = state / STATE_CHECKPOINT
    if before_file.exists():
        before, _ = open_checkpoint(before_file.read_text(), key)
        small, large = (before, cp) if before.size <= cp.size else (cp, before)
        try:
            proof: list[bytes] = []
            if 0 < small.size < large.size:
                answer = _get(http, f"{base}/v1/log/proof/consistency?from={small.size}&to={large.size}").json()
                proof = [unb64(h) for h in answer["hashes"]]
            verify_consistency(small.size, large.size, small.root, large.root, proof)
        except (ProofError, NoteError, KeyError, TypeError) as exc:
            (state / REFUSED).write_text(own.encoded())
            click.echo(f"REFUSED: the log's checkpoint of size {cp.size} is not consistent with the checkpoint of "
                       f"size {before.size} this witness cosigned ({exc}); both are kept in {state}", err=True)
            return 1
        if cp.size < before.size:
            click.echo(f"the log shows size {cp.size}, behind the {before.size} already cosigned: nothing to cosign")
            return 0
    before_file.write_text(own.encoded())  # the statement is made: keep it before sending it
    line = signer.sign(parsed.text, int(time.time()))
    r = http.post(f"{base}/v1/log/cosignatures", data=(own.encoded() + line.line()).encode(),
                  headers={"Content-Type": "text/plain; charset=utf-8"}, timeout=30)
    if r.status_code != 200:
        raise click.ClickException(f"the server refused the cosignature: {r.status_code} {r.text[:300]}")
    click.echo(f"cosigned {cp.origin} at size {cp.size}")
    return 0
