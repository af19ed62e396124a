"""What the client remembers of the server's signed checkpoints, and how it checks each new one.

The server signs a checkpoint of every game's tree (each event's chain hash is a leaf) with
its log key. The client keeps the log key (the one it is given, or the one the server shows
the first time: trust on first use) and the largest checkpoint it has seen of each game. A
new checkpoint must carry a good signature and be consistent with the one kept: the older
tree a prefix of the newer, shown by the server's consistency proof. A server that showed
this client one history and then another (an event rewritten, removed or reordered) cannot
make that proof, and the client raises :class:`ForkError`.
"""
from __future__ import annotations

import base64
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from facedown_client.errors import FacedownError
from facedown_client.merkle import ProofError, verify_consistency
from facedown_client.signed_notes import Checkpoint, NoteError, VerifierKey, open_checkpoint, open_note


class CheckpointError(FacedownError):
    """A checkpoint that is not signed by the log key, or is not a checkpoint of that game."""


class ForkError(CheckpointError):
    """The server showed two histories of one game: a checkpoint that is not consistent with
    one it showed before. Keep both notes: together, signed, they prove it."""

    def __init__(self, game_id: str, before: str, after: str, reason: str) -> None:
        self.game_id, self.before, self.after = game_id, before, after
        super().__init__(f"the server showed two histories of game {game_id}: {reason}")


@dataclass(frozen=True)
class Seen:
    """A checkpoint the client accepted: its note and what it says."""

    note: str
    checkpoint: Checkpoint


#: (game id, first size, second size) -> the consistency proof's hashes, from the server
Prover = Callable[[str, int, int], list[bytes]]


class Checkpoints:
    """The log key and the largest checkpoint seen per game (thread-safe)."""

    def __init__(self, vkey: str | None = None) -> None:
        self.key: VerifierKey | None = VerifierKey.parse(vkey) if vkey else None
        self.seen: dict[str, Seen] = {}
        self._lock = threading.Lock()

    def trust(self, vkey: str) -> VerifierKey:
        """The key to check with: the one kept, else this one (trust on first use)."""
        with self._lock:
            if self.key is None:
                self.key = VerifierKey.parse(vkey)
            return self.key

    def size(self, game_id: str) -> int:
        """The size of the largest checkpoint of the game kept (0 if none): where the next
        consistency proof starts."""
        with self._lock:
            kept = self.seen.get(game_id)
        return 0 if kept is None else kept.checkpoint.size

    def check(self, game_id: str, note: str, prove: Prover) -> Checkpoint:
        """Accept ``note`` as the game's checkpoint if it is signed by the log key, names the
        game, and is consistent with the one seen before (``prove`` asks the server for the
        proof); keep it if it is the largest yet. Raises :class:`ForkError` on a second history."""
        if self.key is None:
            raise CheckpointError("no log key to check checkpoints with")
        try:
            cp, _ = open_checkpoint(note, self.key)
        except NoteError as exc:
            raise CheckpointError(f"a checkpoint of game {game_id} that the log key did not sign: {exc}") from exc
        if not cp.origin.endswith(f"/game/{game_id}"):
            raise CheckpointError(f"a checkpoint of {cp.origin!r}, not of game {game_id}")
        with self._lock:
            before = self.seen.get(game_id)
        if before is not None:
            old = before.checkpoint
            small, large = (old, cp) if old.size <= cp.size else (cp, old)
            try:
                proof = [] if small.size in (0, large.size) else prove(game_id, small.size, large.size)
                verify_consistency(small.size, large.size, small.root, large.root, proof)
            except ProofError as exc:
                raise ForkError(game_id, before.note, note, str(exc)) from exc
        with self._lock:
            kept = self.seen.get(game_id)
            if kept is None or kept.checkpoint.size < cp.size:
                self.seen[game_id] = Seen(note, cp)
        return cp


def cosigned_by(note: str, log: VerifierKey, witnesses: list[VerifierKey], quorum: int) -> Checkpoint:
    """The log's checkpoint in ``note`` if the log key signed it and at least ``quorum`` of
    ``witnesses`` cosigned it (cosignature/v1): only then has it been seen, consistent with what
    they saw before, by someone other than the server."""
    try:
        parsed, good = open_note(note, [log, *witnesses])
        cp = Checkpoint.parse(parsed.text)
    except NoteError as exc:
        raise CheckpointError(f"the log's checkpoint does not verify: {exc}") from exc
    if log not in good:
        raise CheckpointError("the log's checkpoint is not signed by the log key")
    if cp.origin != log.name:
        raise CheckpointError(f"a checkpoint of {cp.origin!r}, not of the log {log.name!r}")
    seen = [k.name for k in good if k != log]
    if len(seen) < quorum:
        raise CheckpointError(f"the log's checkpoint of size {cp.size} has {len(seen)} of the {quorum} "
                              f"cosignature(s) asked for ({', '.join(seen) or 'none'})")
    return cp


def hashes(answer: Any) -> list[bytes]:
    """The hashes of a proof's JSON answer (``{"hashes": [base64, ...]}``)."""
    try:
        return [base64.b64decode(h, validate=True) for h in answer["hashes"]]
    except (KeyError, TypeError, ValueError) as exc:
        raise CheckpointError(f"not a proof: {exc}") from exc
