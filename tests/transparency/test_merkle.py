"""RFC 6962 / RFC 9162 Merkle trees (service/model/merkle.py): the published test vectors, every
proof of every tree of 1 to 70 leaves against the RFC's recursive definitions (written here on
their own), and proofs that fail when anything in them is changed."""
from __future__ import annotations

import hashlib

import pytest

from service.model.merkle import (
    EMPTY_ROOT, ProofError, Tree, leaf_hash, node_hash, root_from_inclusion, verify_consistency, verify_inclusion,
)

# The vectors of the RFC 6962 reference tests (as transparency-dev/merkle publishes them): eight
# entries, the root at each size, and proofs of some leaves and sizes.
ENTRIES = [bytes.fromhex(h) for h in ("", "00", "10", "2021", "3031", "40414243", "5051525354555657",
                                      "606162636465666768696a6b6c6d6e6f")]
ROOTS = [bytes.fromhex(h) for h in (
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
)]
INCLUSION = [  # (leaf index, tree size, proof)
    (0, 8, ["96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4"]),
    (5, 8, ["bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
            "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"]),
    (2, 3, ["fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125"]),
    (1, 5, ["6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b"]),
]
CONSISTENCY = [  # (first size, second size, proof)
    (1, 8, ["96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4"]),
    (6, 8, ["0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
            "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"]),
    (2, 5, ["5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b"]),
    (6, 7, ["0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
            "b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"]),
]


def _hexes(proof: list[str]) -> list[bytes]:
    return [bytes.fromhex(h) for h in proof]


# --- the RFC's definitions, recursive as written (section 2.1.1, 2.1.3.1, 2.1.4.1) ---------------

def _k(n: int) -> int:
    k = 1
    while k * 2 < n:
        k *= 2
    return k


def mth(d: list[bytes]) -> bytes:
    if not d:
        return hashlib.sha256(b"").digest()
    if len(d) == 1:
        return hashlib.sha256(b"\x00" + d[0]).digest()
    k = _k(len(d))
    return hashlib.sha256(b"\x01" + mth(d[:k]) + mth(d[k:])).digest()


def path(m: int, d: list[bytes]) -> list[bytes]:
    if len(d) == 1:
        return []
    k = _k(len(d))
    return path(m, d[:k]) + [mth(d[k:])] if m < k else path(m - k, d[k:]) + [mth(d[:k])]


def subproof(m: int, d: list[bytes], b: bool) -> list[bytes]:
    if m == len(d):
        return [] if b else [mth(d)]
    k = _k(len(d))
    return subproof(m, d[:k], b) + [mth(d[k:])] if m <= k else subproof(m - k, d[k:], False) + [mth(d[:k])]


# --- the vectors ---------------------------------------------------------------------------------

def test_leaf_and_node_hashes_match_the_published_ones() -> None:
    assert EMPTY_ROOT.hex() == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    assert leaf_hash(b"").hex() == "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d"
    assert leaf_hash(b"L123456").hex() == "395aa064aa4c29f7010acfe3f25db9485bbd4b91897b6ad7ad547639252b4d56"
    assert node_hash(b"N123", b"N456").hex() == "aa217fe888e47007fa15edab33c2b492a722cb106c64667fc2b044444de66bbb"


def test_the_roots_of_the_eight_entry_tree_at_every_size() -> None:
    tree = Tree.of_entries(ENTRIES)
    assert [tree.root(n) for n in range(1, 9)] == ROOTS
    assert Tree().root() == EMPTY_ROOT


@pytest.mark.parametrize("index,size,proof", INCLUSION)
def test_published_inclusion_proofs_are_made_and_verified(index: int, size: int, proof: list[str]) -> None:
    tree = Tree.of_entries(ENTRIES)
    assert tree.inclusion_proof(index, size) == _hexes(proof)
    verify_inclusion(index, size, leaf_hash(ENTRIES[index]), _hexes(proof), ROOTS[size - 1])


@pytest.mark.parametrize("first,second,proof", CONSISTENCY)
def test_published_consistency_proofs_are_made_and_verified(first: int, second: int, proof: list[str]) -> None:
    tree = Tree.of_entries(ENTRIES)
    assert tree.consistency_proof(first, second) == _hexes(proof)
    verify_consistency(first, second, ROOTS[first - 1], ROOTS[second - 1], _hexes(proof))


# --- every proof of every tree up to 70 leaves ---------------------------------------------------

def test_every_root_and_proof_of_trees_of_1_to_70_leaves_is_the_rfc_s_and_verifies() -> None:
    entries = [f"entry {i}".encode() for i in range(70)]
    tree = Tree.of_entries(entries)
    for n in range(1, 71):
        d = entries[:n]
        root = mth(d)
        assert tree.root(n) == root
        for m in range(n):
            proof = tree.inclusion_proof(m, n)
            assert proof == path(m, d)
            assert root_from_inclusion(m, n, leaf_hash(d[m]), proof) == root
        for m in range(1, n):
            proof = tree.consistency_proof(m, n)
            assert proof == subproof(m, d, True)
            verify_consistency(m, n, mth(entries[:m]), root, proof)


def _inclusion_fails(index: int, size: int, leaf: bytes, proof: list[bytes], root: bytes) -> bool:
    try:
        verify_inclusion(index, size, leaf, proof, root)
    except ProofError:
        return True
    return False


def _consistency_fails(m: int, n: int, r1: bytes, r2: bytes, proof: list[bytes]) -> bool:
    try:
        verify_consistency(m, n, r1, r2, proof)
    except ProofError:
        return True
    return False


def test_a_corrupted_inclusion_proof_fails() -> None:
    entries = [f"e{i}".encode() for i in range(21)]
    tree = Tree.of_entries(entries)
    for n in (2, 7, 8, 13, 21):
        root = tree.root(n)
        for m in range(n):
            leaf, proof = leaf_hash(entries[m]), tree.inclusion_proof(m, n)
            assert not _inclusion_fails(m, n, leaf, proof, root)
            for i in range(len(proof)):  # one bit flipped in one hash
                bad = list(proof)
                bad[i] = bytes([bad[i][0] ^ 8]) + bad[i][1:]
                assert _inclusion_fails(m, n, leaf, bad, root)
            assert _inclusion_fails(m, n, leaf, proof + [root], root)  # a hash too many
            assert _inclusion_fails(m, n, leaf, [root] + proof, root)
            if proof:
                assert _inclusion_fails(m, n, leaf, proof[:-1], root)  # a hash too few
            assert _inclusion_fails(m, n, leaf_hash(b"another"), proof, root)
            assert _inclusion_fails(m, n * 2, leaf, proof, root)
            if m + 1 < n:
                assert _inclusion_fails(m + 1, n, leaf, proof, root)


def test_a_corrupted_consistency_proof_fails() -> None:
    entries = [f"e{i}".encode() for i in range(21)]
    tree = Tree.of_entries(entries)
    for m, n in ((1, 2), (3, 7), (4, 8), (6, 13), (13, 21), (20, 21)):
        r1, r2, proof = tree.root(m), tree.root(n), tree.consistency_proof(m, n)
        assert not _consistency_fails(m, n, r1, r2, proof)
        for i in range(len(proof)):
            bad = list(proof)
            bad[i] = bytes([bad[i][0] ^ 16]) + bad[i][1:]
            assert _consistency_fails(m, n, r1, r2, bad)
        assert _consistency_fails(m, n, r2, r1, proof)  # roots swapped
        assert _consistency_fails(m, n, r1, r2, [])
        assert _consistency_fails(m, n, r1, r2, proof + [r1])
        assert _consistency_fails(m, n, r1, r2, proof[:-1])
        if m > 1:
            assert _consistency_fails(m - 1, n, r1, r2, proof)
        assert _consistency_fails(m, n, r1, tree.root(n - 1), proof)
    assert not _consistency_fails(0, 5, EMPTY_ROOT, tree.root(5), [])  # the empty tree precedes any
    assert _consistency_fails(5, 5, tree.root(5), tree.root(4), [])  # one size, two roots
    assert _consistency_fails(5, 4, tree.root(5), tree.root(4), [])  # a tree does not shrink


def test_an_edited_entry_changes_the_root_and_breaks_consistency() -> None:
    entries = [f"event {i}".encode() for i in range(12)]
    edited = list(entries)
    edited[4] = b"event 4, rewritten"
    honest, forged = Tree.of_entries(entries), Tree.of_entries(edited)
    assert honest.root(4) == forged.root(4)  # the history before the edit is the same
    assert all(honest.root(n) != forged.root(n) for n in range(5, 13))
    # what a client saw before the edit is not a prefix of the rewritten history
    for seen in range(5, 12):
        assert _consistency_fails(seen, 12, honest.root(seen), forged.root(12), forged.consistency_proof(seen, 12))
