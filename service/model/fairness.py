"""Verifiable deals: the server's secret, the seats' entropy, and the game key.

* At creation the server draws a 32-byte ``secret`` and publishes
  ``secret_commitment = sha256(secret)`` (hex) in the game's first event.
* Each seat may add ``entropy`` (any bytes, hex in the API; the server draws 16
  random bytes for a seat that sends none); it is recorded publicly when it joins.
* The **game key** is ``sha256(b"facedown/game-key/v1" || secret || e_0 || … || e_{n-1})``
  where ``e_i`` is ``len(entropy_i)`` as 2 bytes big-endian followed by the entropy
  bytes of seat i, in seat order. Every shuffle of the game is derived from this key
  by :mod:`domain.chance` (HMAC_DRBG + Fisher–Yates, labels per round and shuffle).
* The secret is revealed when the game ends; with it and the public entropy anyone
  can recompute the key, every deal, and check the commitments.

Neither the server (it committed to the secret before any seat's entropy was known)
nor a seat (it does not know the secret) can choose or predict a deal.
"""
from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence

KEY_DOMAIN = b"facedown/game-key/v1"


def new_secret() -> bytes:
    return os.urandom(32)


def new_entropy() -> bytes:
    return os.urandom(16)


def secret_commitment(secret: bytes) -> str:
    return hashlib.sha256(secret).hexdigest()


def game_key(secret: bytes, entropies: Sequence[bytes]) -> bytes:
    h = hashlib.sha256(KEY_DOMAIN)
    h.update(secret)
    for e in entropies:
        h.update(len(e).to_bytes(2, "big"))
        h.update(e)
    return h.digest()


BOARD_DOMAIN = b"facedown/board-key/v1"


def board_key(seed: bytes) -> bytes:
    """The game key of every table of a duplicate board (docs/fairness.md, "Duplicate boards"):
    ``sha256(b"facedown/board-key/v1" || seed)``. No seat's entropy enters it, so that every
    table of the board is dealt the same cards, seat for seat, in every round of its game."""
    return hashlib.sha256(BOARD_DOMAIN + seed).digest()
