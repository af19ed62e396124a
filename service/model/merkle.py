"""Merkle trees of transparency logs, as RFC 6962 and RFC 9162 (section 2.1) define them.

A tree over the entries ``d0 .. d(n-1)`` hashes each leaf as ``SHA-256(0x00 || d)`` and each
inner node as ``SHA-256(0x01 || left || right)``, splitting ``n`` entries at the largest
power of two below ``n``; the empty tree's hash is ``SHA-256("")``. A game's tree has one
entry per event, its 32-byte chain hash; the server's log has one per finished game, the
bytes of its final checkpoint (docs/fairness.md).

:class:`Tree` keeps the hash of every complete subtree it has seen, so the root at any size
and the proofs between sizes cost a few dozen hashes however long the log is. The verifiers
(:func:`root_from_inclusion`, :func:`verify_inclusion`, :func:`verify_consistency`) follow the
RFC 9162 algorithms step by step and need nothing but the proof.

This module imports nothing but the standard library: the SDK ships the same file as
``facedown_client.merkle``.
"""
from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

HASH_SIZE = 32
EMPTY_ROOT = hashlib.sha256(b"").digest()


class ProofError(ValueError):
    """A proof that does not prove what it is said to prove (or is malformed)."""


def leaf_hash(entry: bytes) -> bytes:
    """The hash of a leaf: SHA-256(0x00 || entry)."""
    return hashlib.sha256(b"\x00" + entry).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """The hash of an inner node: SHA-256(0x01 || left || right)."""
    return hashlib.sha256(b"\x01" + left + right).digest()


def _split(n: int) -> int:
    """The largest power of two smaller than ``n`` (n >= 2)."""
    return 1 << ((n - 1).bit_length() - 1)


class Tree:
    """An append-only tree of leaf hashes. ``levels[k][i]`` is the hash of the complete
    subtree over leaves ``i * 2**k .. (i + 1) * 2**k - 1``."""

    def __init__(self, leaves: Iterable[bytes] = ()) -> None:
        self.levels: list[list[bytes]] = [[]]
        for h in leaves:
            self.append(h)

    @staticmethod
    def of_entries(entries: Iterable[bytes]) -> Tree:
        """The tree whose leaves are these entries (hashed as leaves here)."""
        return Tree(leaf_hash(e) for e in entries)

    @property
    def size(self) -> int:
        return len(self.levels[0])

    def append(self, leaf: bytes) -> None:
        """Add a leaf hash; completes the subtrees it closes. The nodes above it are stored
        first and the leaf last, so a reader in another thread that sees the new size finds
        every node of it."""
        if len(leaf) != HASH_SIZE:
            raise ValueError("a leaf hash has 32 bytes")
        closed: list[bytes] = []
        level, node, i = 0, leaf, self.size
        while i % 2 == 1:  # the new node is a right child: its parent is complete
            node = node_hash(self.levels[level][i - 1], node)
            closed.append(node)
            level, i = level + 1, i // 2
        for level in range(len(closed), 0, -1):
            if len(self.levels) == level:
                self.levels.append([])
            self.levels[level].append(closed[level - 1])
        self.levels[0].append(leaf)

    def _check(self, size: int) -> None:
        if not 0 <= size <= self.size:
            raise ValueError(f"the tree has {self.size} leaves, not {size}")

    def _hash(self, lo: int, hi: int) -> bytes:
        """MTH(D[lo:hi]); ``lo`` is a multiple of the largest power of two not above hi - lo,
        as every range of the RFC's recursion is."""
        n = hi - lo
        if n & (n - 1) == 0:
            return self.levels[n.bit_length() - 1][lo // n]
        k = _split(n)
        return node_hash(self._hash(lo, lo + k), self._hash(lo + k, hi))

    def root(self, size: int | None = None) -> bytes:
        """The tree hash at ``size`` leaves (all of them by default)."""
        size = self.size if size is None else size
        self._check(size)
        return EMPTY_ROOT if size == 0 else self._hash(0, size)

    def inclusion_proof(self, index: int, size: int) -> list[bytes]:
        """PATH(index, D[0:size]) of RFC 9162 section 2.1.3.1, nearest the leaf first."""
        self._check(size)
        if not 0 <= index < size:
            raise ValueError(f"no leaf {index} in a tree of {size}")
        path: list[bytes] = []
        lo, hi = 0, size
        while hi - lo > 1:
            k = _split(hi - lo)
            if index < lo + k:
                path.append(self._hash(lo + k, hi))
                hi = lo + k
            else:
                path.append(self._hash(lo, lo + k))
                lo += k
        return path[::-1]

    def consistency_proof(self, old: int, new: int) -> list[bytes]:
        """PROOF(old, D[0:new]) of RFC 9162 section 2.1.4.1 (empty when old is 0 or old == new)."""
        self._check(new)
        if not 0 <= old <= new:
            raise ValueError(f"no consistency proof from {old} to {new}")
        if old == 0 or old == new:
            return []
        proof: list[bytes] = []
        lo, hi, m, whole = 0, new, old, True
        while m != hi - lo:
            k = _split(hi - lo)
            if m <= k:
                proof.append(self._hash(lo + k, hi))
                hi = lo + k
            else:
                proof.append(self._hash(lo, lo + k))
                lo, m, whole = lo + k, m - k, False
        if not whole:
            proof.append(self._hash(lo, hi))
        return proof[::-1]


def root_of(leaves: Sequence[bytes]) -> bytes:
    """The tree hash of these leaf hashes."""
    return Tree(leaves).root()


def _size_ok(*sizes: int) -> None:
    if any(not isinstance(s, int) or s < 0 for s in sizes):
        raise ProofError("sizes and indexes are whole numbers")


def _hashes_ok(hashes: Sequence[bytes]) -> None:
    if any(len(h) != HASH_SIZE for h in hashes):
        raise ProofError("every hash of a proof has 32 bytes")


def root_from_inclusion(index: int, size: int, leaf: bytes, proof: Sequence[bytes]) -> bytes:
    """The root that ``proof`` gives for ``leaf`` at ``index`` in a tree of ``size``
    (RFC 9162 section 2.1.3.2, steps 1 to 5)."""
    _size_ok(index, size)
    _hashes_ok([leaf, *proof])
    if index >= size:
        raise ProofError(f"no leaf {index} in a tree of {size}")
    fn, sn, r = index, size - 1, leaf
    for p in proof:
        if sn == 0:
            raise ProofError("the inclusion proof is too long")
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            if not fn & 1:
                while fn and not fn & 1:
                    fn, sn = fn >> 1, sn >> 1
        else:
            r = node_hash(r, p)
        fn, sn = fn >> 1, sn >> 1
    if sn != 0:
        raise ProofError("the inclusion proof is too short")
    return r


def verify_inclusion(index: int, size: int, leaf: bytes, proof: Sequence[bytes], root: bytes) -> None:
    """Raise :class:`ProofError` unless ``proof`` shows ``leaf`` at ``index`` under ``root``."""
    if root_from_inclusion(index, size, leaf, proof) != root:
        raise ProofError(f"the inclusion proof of leaf {index} does not lead to the root of size {size}")


def verify_consistency(size1: int, size2: int, root1: bytes, root2: bytes, proof: Sequence[bytes]) -> None:
    """Raise :class:`ProofError` unless ``proof`` shows the tree of ``size1`` with ``root1``
    to be a prefix of the tree of ``size2`` with ``root2`` (RFC 9162 section 2.1.4.2; a tree
    is consistent with itself and the empty tree with every tree, with an empty proof)."""
    _size_ok(size1, size2)
    _hashes_ok(proof)
    if size2 < size1:
        raise ProofError(f"a tree of {size2} cannot follow one of {size1}")
    if size1 == size2 or size1 == 0:
        if proof:
            raise ProofError("this consistency proof must be empty")
        if size1 == size2 and root1 != root2:
            raise ProofError(f"two different roots for the same size {size1}")
        return
    if not proof:
        raise ProofError("the consistency proof is empty")
    path = list(proof)
    if size1 & (size1 - 1) == 0:  # step 2: first is a power of two
        path.insert(0, root1)
    fn, sn = size1 - 1, size2 - 1
    while fn & 1:  # step 4
        fn, sn = fn >> 1, sn >> 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            raise ProofError("the consistency proof is too long")
        if fn & 1 or fn == sn:
            fr, sr = node_hash(c, fr), node_hash(c, sr)
            if not fn & 1:
                while fn and not fn & 1:
                    fn, sn = fn >> 1, sn >> 1
        else:
            sr = node_hash(sr, c)
        fn, sn = fn >> 1, sn >> 1
    if sn != 0:
        raise ProofError("the consistency proof is too short")
    if fr != root1 or sr != root2:
        raise ProofError(f"the tree of size {size1} is not a prefix of the tree of size {size2}")
