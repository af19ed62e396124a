"""The audit's transparency checks (docs/fairness.md, "Checkpoints, proofs and witnesses"):
an export's events rebuild the game's tree; the server's signed checkpoint of the finished game
must have that root; and that checkpoint must be a leaf of the server-wide log of finished
games, under the log's own signed checkpoint. No database: what the server published only."""
from __future__ import annotations

import base64
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from service.model.merkle import ProofError, Tree, leaf_hash, verify_inclusion
from service.model.signed_notes import Checkpoint, NoteError, VerifierKey, open_checkpoint


class TransparencyFailure(ValueError):
    """A check of the export against the server's checkpoints that failed."""


@dataclass(frozen=True, slots=True)
class LogProof:
    """What the server publishes about a finished game's place in its log: the log's signed
    checkpoint, the game's leaf index and the inclusion proof's hashes (base64)."""

    log_note: str
    index: int
    hashes: Sequence[str]


def game_tree(data: Mapping[str, Any]) -> Tree:
    """The game's tree: one leaf per exported event, its chain hash."""
    try:
        return Tree.of_entries(bytes.fromhex(e["hash"]) for e in data["events"])
    except (KeyError, TypeError, ValueError) as exc:
        raise TransparencyFailure(f"the export's chain hashes cannot make a tree: {exc}") from exc


def check_final_checkpoint(data: Mapping[str, Any], note: str, key: VerifierKey) -> Checkpoint:
    """The game's final checkpoint is signed by the log key, names this game, and has the root
    of the tree of every exported event."""
    try:
        cp, _ = open_checkpoint(note, key)
    except NoteError as exc:
        raise TransparencyFailure(f"the final checkpoint is not signed by the log key {key.name}: {exc}") from exc
    if not cp.origin.endswith(f"/game/{data.get('game_id')}"):
        raise TransparencyFailure(f"the final checkpoint is of {cp.origin!r}, not of this game")
    tree = game_tree(data)
    if not data.get("complete"):
        raise TransparencyFailure("the export is of a game not over: it has no final checkpoint yet")
    if cp.size != tree.size or cp.root != tree.root():
        raise TransparencyFailure(f"the final checkpoint (size {cp.size}) does not have the root of the exported "
                                  f"events (size {tree.size}): the log was not the one exported")
    return cp


def check_in_log(note: str, proof: LogProof, key: VerifierKey) -> Checkpoint:
    """The game's final checkpoint (``note``, its exact bytes) is leaf ``proof.index`` of the
    server-wide log under the log's signed checkpoint."""
    try:
        log, _ = open_checkpoint(proof.log_note, key)
    except NoteError as exc:
        raise TransparencyFailure(f"the log's checkpoint is not signed by the log key: {exc}") from exc
    if log.origin != key.name:
        raise TransparencyFailure(f"the log's checkpoint is of {log.origin!r}, not of {key.name!r}")
    try:
        hashes = [base64.b64decode(h, validate=True) for h in proof.hashes]
        verify_inclusion(proof.index, log.size, leaf_hash(note.encode()), hashes, log.root)
    except (ProofError, ValueError) as exc:
        raise TransparencyFailure(f"the final checkpoint is not leaf {proof.index} of the log of size "
                                  f"{log.size}: {exc}") from exc
    return log
