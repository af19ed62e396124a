"""Checkpoints, proofs and witnesses (docs/fairness.md): what ``/v1/log/*`` and a game's
``checkpoint`` and ``proof`` routes answer, and the witnesses' cosignatures they keep."""
from __future__ import annotations

import uuid
from typing import Any

from events import tlog
from service.model.merkle import Tree
from service.model.problems import Problem
from service.model.signed_notes import COSIGNATURE_V1, Checkpoint, NoteError, VerifierKey, b64, parse_note, verifies
from service.usecases.dependencies import Dependencies
from service.usecases.visibility import visible


def log_key(deps: Dependencies) -> str:
    """The server's log key, as a verifier key (name+id+base64(0x01 || key))."""
    return deps.games.transparency.verifier().text()


def _version(deps: Dependencies, gid: uuid.UUID, at_least: int | None = None) -> int:
    """The game's version (404 unless it is a game). ``at_least``: a version the caller needs;
    this worker's cached copy answers when it is that far already (a stream never shrinks), as
    it is for the proof a client asks right after its command's answer."""
    if at_least is not None:
        known = deps.games.cached_version(gid)
        if known is not None and known >= at_least:
            return known
    deps.games.ruleset_of(gid)
    head = deps.store.head(gid)
    if head is None:
        raise Problem("not-found", f"no game {gid}")
    return head[0]


def checkpoint_at(deps: Dependencies, gid: uuid.UUID, version: int) -> str:
    """The game's signed checkpoint at ``version``: what the answer to a change of it carries."""
    return deps.games.transparency.game_checkpoint(gid, version)


def game_checkpoint(deps: Dependencies, gid: uuid.UUID) -> str:
    """The game's latest signed checkpoint (its tree over every event's chain hash)."""
    return deps.games.transparency.game_checkpoint(gid, _version(deps, gid))


def _sizes(first: int, second: int, size: int, what: str) -> None:
    if second > size:
        raise Problem("validation", f"the tree has {size} leaves, not {second}", errors={what: ["beyond the tree"]})
    if first > second:
        raise Problem("validation", f"{first} is beyond {second}", errors={what: ["beyond the size"]})


def _hashes(proof: list[bytes]) -> list[str]:
    return [b64(h) for h in proof]


def game_inclusion(deps: Dependencies, gid: uuid.UUID, index: int, size: int) -> dict[str, Any]:
    """The proof that leaf ``index`` (the chain hash of version index + 1) is in the game's
    tree of ``size`` leaves."""
    _sizes(index + 1, size, _version(deps, gid, size), "size")
    tree = deps.games.transparency.game_tree(gid, size)
    return {"hashes": _hashes(tree.inclusion_proof(index, size))}


def game_consistency(deps: Dependencies, gid: uuid.UUID, first: int, second: int) -> dict[str, Any]:
    """The proof that the game's tree of ``first`` leaves is a prefix of its tree of ``second``."""
    _sizes(first, second, _version(deps, gid, second), "to")
    tree = deps.games.transparency.game_tree(gid, second)
    return {"hashes": _hashes(tree.consistency_proof(first, second))}


def log_checkpoint(deps: Dependencies) -> str:
    """The server-wide log's signed checkpoint, with the cosignatures of that size."""
    return deps.games.transparency.log_checkpoint()[0]


def log_inclusion(deps: Dependencies, gid: uuid.UUID, size: int, player: str | None) -> dict[str, Any]:
    """The finished game's leaf index in the log and the proof of it in the log of ``size``."""
    if not visible(deps, gid, player):
        raise Problem("not-found", f"no game {gid}")
    _version(deps, gid, 0)  # 404 unless it is a game
    t = deps.games.transparency
    index = t.log_index(gid)
    tree = t.log_tree()
    _sizes(index + 1, size, tree.size, "size")
    return {"index": index, "hashes": _hashes(tree.inclusion_proof(index, size))}


def log_consistency(deps: Dependencies, first: int, second: int) -> dict[str, Any]:
    tree: Tree = deps.games.transparency.log_tree()
    _sizes(first, second, tree.size, "to")
    return {"hashes": _hashes(tree.consistency_proof(first, second))}


def witnesses(deps: Dependencies) -> list[VerifierKey]:
    """The witnesses whose cosignatures are kept (``FACEDOWN_WITNESS_KEYS``); ``ValueError``
    naming the setting for one that is not a cosignature/v1 verifier key (``create_app``
    checks them at the start, so a mistyped key stops the server, not a witness's request)."""
    keys = []
    for text in deps.config.witness_keys:
        try:
            key = VerifierKey.parse(text)
        except NoteError as exc:
            raise ValueError(f"FACEDOWN_WITNESS_KEYS: {text!r} is not a verifier key: {exc}") from None
        if key.kind != COSIGNATURE_V1:
            raise ValueError(f"FACEDOWN_WITNESS_KEYS: {key.name} is not a cosignature/v1 key (type 0x04): "
                             "use the .vkey file of `facedown witness keygen`")
        keys.append(key)
    return keys


def start(deps: Dependencies) -> None:
    """At the first start, the log key is made and kept; at every start, the settings checked."""
    try:
        deps.games.transparency.signer()
    except NoteError as exc:
        raise ValueError(f"FACEDOWN_LOG_NAME: {exc}") from None
    witnesses(deps)


def cosign(deps: Dependencies, body: str) -> dict[str, Any]:
    """Keep the cosignatures on ``body`` (the log's checkpoint, cosigned by a witness): only
    of a configured witness, only verified, only on the checkpoint the log signed at that size."""
    try:
        note = parse_note(body)
        cp = Checkpoint.parse(note.text)
    except NoteError as exc:
        raise Problem("validation", f"not a cosigned checkpoint: {exc}") from exc
    t = deps.games.transparency
    tree = t.log_tree()
    if cp.origin != t.signer().name or cp.size > tree.size or cp.extensions or cp.root != tree.root(cp.size):
        raise Problem("checkpoint-mismatch", f"this is not the checkpoint of {t.signer().name} at size {cp.size}")
    known = {(k.name, k.id): k for k in witnesses(deps)}
    kept = []
    for sig in note.signatures:
        key = known.get((sig.name, sig.id))
        if key is None:
            continue
        if not verifies(key, note.text, sig):
            raise Problem("validation", f"the cosignature of {key.name} does not verify")
        tlog.cosign(deps.db, f"{key.name}+{key.id.hex()}", cp.size, sig.line(), sig.timestamp, deps.clock())
        kept.append(key.name)
    if not kept:
        raise Problem("not-a-witness", "no cosignature of a witness this server knows (FACEDOWN_WITNESS_KEYS)")
    return {"size": cp.size, "witnesses": kept}


def backfill(deps: Dependencies) -> list[uuid.UUID]:
    """Put in the log, oldest first, the games that finished before it existed (each with its
    final checkpoint, signed now: the same note its own append would have written). As the
    owner (``Dependencies.admin``). The games added."""
    t = deps.games.transparency
    added = []
    for gid in tlog.unlogged_finished(deps.db):
        tlog.log_finished(deps.admin(), gid, t.game_checkpoint(gid, _version(deps, gid)))
        added.append(gid)
    return added
