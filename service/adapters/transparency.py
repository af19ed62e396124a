"""Checkpoints and proofs of the games' trees and of the server-wide log (docs/fairness.md).

* A game's tree has one leaf per event: its 32-byte chain hash (``events.hash``), hashed as
  a leaf, SHA-256(0x00 || chain hash); its checkpoint's origin is ``<log name>/game/<game id>``. Only hashes go in: a checkpoint
  shows no card.
* The server-wide log has one leaf per finished game: its final checkpoint, the signed note's
  bytes, written by the append that finishes the game; its origin is the log key's name.
* Every checkpoint is signed by the server's Ed25519 log key, made at the first start and kept
  in the database (only the service reads it back). A checkpoint is signed anew each time it
  is asked for: Ed25519 signatures are deterministic, so it is always the same note.

This worker keeps the trees it has seen (a game's leaves never change once appended, and the
log only grows), and reads from the database only the leaves it has not seen yet.
"""
from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Sequence
from datetime import datetime
from urllib.parse import urlsplit

from events import tlog
from events.canonical import chain_hash, event_body
from events.db import Database
from events.store import NewEvent
from service.model.caches import Lru
from service.model.merkle import Tree, leaf_hash
from service.model.problems import Problem
from service.model.signed_notes import Checkpoint, Signer, VerifierKey, sign_note

TREE_CACHE_SIZE = 4096  # games per worker: a tree of n events keeps about 2n hashes


def default_name(public_url: str) -> str:
    """The log key's name when none is configured: the public URL's host and "/log"."""
    host = urlsplit(public_url).netloc or "facedown.invalid"
    return f"{host}/log"


def new_hashes(head: bytes, first: int, events: Sequence[NewEvent]) -> list[bytes]:
    """The chain hashes that ``events`` get when appended after ``head`` at version ``first``."""
    out = []
    for i, e in enumerate(events):
        head = chain_hash(head, first + i, event_body(e.type, e.schema_version, e.data, e.metadata))
        out.append(head)
    return out


class Transparency:
    """The server's log key, this worker's trees, and the checkpoints signed with them."""

    def __init__(self, db: Database, name: str, clock: Callable[[], datetime]) -> None:
        self.db, self.wanted_name, self.clock = db, name, clock
        self._lock = threading.Lock()
        self._signer: Signer | None = None
        self._games = Lru(TREE_CACHE_SIZE)  # game -> Tree of its chain hashes (as leaves)
        self._log = Tree()  # the server-wide log's leaf hashes, as far as this worker read them

    # ------------------------------------------------------------ the key

    def signer(self) -> Signer:
        """The kept log key (made and kept now if there is none yet: the first process to keep
        one wins, and every process reads that one back)."""
        with self._lock:
            if self._signer is None:
                made = Signer.generate(self.wanted_name)
                name, _, private = tlog.log_key(self.db, made.name, made.public, made.seed, self.clock())
                self._signer = Signer(name, private)
            return self._signer

    def verifier(self) -> VerifierKey:
        return self.signer().verifier

    def sign(self, origin: str, size: int, root: bytes) -> str:
        return sign_note(Checkpoint(origin, size, root).text(), [self.signer()])

    # ------------------------------------------------------------ a game's tree

    def game_origin(self, gid: uuid.UUID) -> str:
        return f"{self.signer().name}/game/{gid}"

    def game_tree(self, gid: uuid.UUID, size: int) -> Tree:
        """The game's tree with at least ``size`` leaves (read from its events as needed);
        404 when the game has fewer events."""
        with self._lock:
            tree: Tree | None = self._games.get_(gid)
            if tree is None:
                tree = Tree()
                self._games.put(gid, tree)
        for _ in range(3):  # the query runs outside the lock: another request may grow the tree meanwhile
            have = tree.size
            if have >= size:
                return tree
            hashes = tlog.chain_hashes(self.db, gid, have, size)
            with self._lock:
                if tree.size == have:
                    for h in hashes:
                        tree.append(leaf_hash(h))
            if len(hashes) < size - have:
                break
        if tree.size < size:
            raise Problem("not-found", f"the game has no version {size}")
        return tree

    def grown(self, gid: uuid.UUID, first: int, hashes: Sequence[bytes]) -> None:
        """The game's tree has these new chain hashes from version ``first`` on (an append of
        this worker's): its cached tree grows without a query when it was just before them."""
        with self._lock:
            tree: Tree | None = self._games.get_(gid)
            if tree is not None and tree.size == first - 1:
                for h in hashes:
                    tree.append(leaf_hash(h))

    def game_checkpoint(self, gid: uuid.UUID, size: int) -> str:
        """The signed checkpoint of the game's tree at ``size`` events."""
        return self.sign(self.game_origin(gid), size, self.game_tree(gid, size).root(size))

    def final_checkpoint(self, gid: uuid.UUID, version: int, head: bytes, events: Sequence[NewEvent]) -> str:
        """The checkpoint the game will have once ``events`` are appended after ``version`` (whose
        chain hash is ``head``): what the append that finishes a game puts in the log."""
        leaves = self.game_tree(gid, version).levels[0][:version]
        tree = Tree([*leaves, *(leaf_hash(h) for h in new_hashes(head, version + 1, events))])
        return self.sign(self.game_origin(gid), tree.size, tree.root())

    # ------------------------------------------------------------ the server-wide log

    def log_tree(self) -> Tree:
        """The server-wide log, with every leaf committed so far."""
        have = self._log.size
        hashes = tlog.leaf_hashes(self.db, have)  # outside the lock, as a game's tree
        with self._lock:
            if self._log.size == have:
                for h in hashes:
                    self._log.append(h)
        return self._log

    def log_checkpoint(self) -> tuple[str, int]:
        """The log's signed checkpoint now, with the witnesses' cosignatures of that size; and the size."""
        tree = self.log_tree()
        size = tree.size
        note = self.sign(self.signer().name, size, tree.root(size))
        return note + "".join(line if line.endswith("\n") else line + "\n"
                              for line in tlog.cosignatures(self.db, size)), size

    def log_index(self, gid: uuid.UUID) -> int:
        """The game's leaf index in the log; 409 while the game is not over."""
        entry = tlog.entry_of(self.db, gid)
        if entry is None:
            raise Problem("game-not-over", "the game is not in the log of finished games: it is not over")
        return entry.index
