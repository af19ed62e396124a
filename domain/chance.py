"""Chance as data: every shuffle is derived from a key and a label, and recorded.

The algorithm is public so that anyone can re-derive a deal (see ``docs/fairness.md``):

* **DRBG:** HMAC_DRBG with SHA-256 (NIST SP 800-90A rev. 1, §10.1.2), instantiated
  with ``entropy_input = key`` and ``nonce = label`` (UTF-8), no personalisation
  string, no reseed, no additional input. Each ``generate`` call produces the bytes
  asked for and then runs the update step with empty input, as the standard says.
* **Byte stream:** the DRBG's output is read as one stream of bytes made of
  successive ``generate(256)`` calls (each produces 256 bytes, then updates).
* **Uniform integer in [0, n):** take the next 8 bytes of the stream, read them
  as an unsigned big-endian integer x; reject and take 8 more while
  ``x >= 2**64 - (2**64 % n)``; the result is ``x % n``.
* **Shuffle:** Fisher–Yates over the canonical order: for i from len−1 down to 1,
  j = uniform(i + 1), swap items i and j. Index 0 of the result is the top of the stock.
* **Labels:** ``round/<r>/shuffle/<k>`` (k = 0 is the deal, k ≥ 1 the k-th reshuffle
  of that round) and ``first-dealer``.
* **Commitment** to an order: ``sha256(salt || json(order))`` in hex, where json is
  the compact UTF-8 JSON array of card codes and salt the 16 bytes of
  ``generate(16)`` from a DRBG with label ``<label>/salt``.

The rules never draw randomness themselves: they receive the key with every command,
and the shuffled order goes into an event, so replay never draws again.
"""
from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

_OUTLEN = 32


class HmacDrbg:
    """HMAC_DRBG (SHA-256), instantiate + generate, per SP 800-90A §10.1.2."""

    __slots__ = ("_k", "_v")

    def __init__(self, entropy: bytes, nonce: bytes = b"", personalization: bytes = b"") -> None:
        self._k = b"\x00" * _OUTLEN
        self._v = b"\x01" * _OUTLEN
        self._update(entropy + nonce + personalization)

    def _hmac(self, data: bytes) -> bytes:
        return hmac.digest(self._k, data, "sha256")

    def _update(self, provided: bytes) -> None:
        self._k = self._hmac(self._v + b"\x00" + provided)
        self._v = self._hmac(self._v)
        if provided:
            self._k = self._hmac(self._v + b"\x01" + provided)
            self._v = self._hmac(self._v)

    def generate(self, n: int) -> bytes:
        out = b""
        while len(out) < n:
            self._v = self._hmac(self._v)
            out += self._v
        self._update(b"")
        return out[:n]



class Stream:
    """The DRBG's output as one byte stream of ``generate(BLOCK)`` calls; uniform integers."""

    BLOCK = 256
    __slots__ = ("_drbg", "_buf", "_pos")

    def __init__(self, gen: HmacDrbg) -> None:
        self._drbg = gen
        self._buf = b""
        self._pos = 0

    def take(self, n: int) -> bytes:
        while len(self._buf) - self._pos < n:
            self._buf = self._buf[self._pos:] + self._drbg.generate(self.BLOCK)
            self._pos = 0
        out = self._buf[self._pos:self._pos + n]
        self._pos += n
        return out

    def uniform(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` by rejection sampling over 64 bits."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = 2**64 - (2**64 % n)
        while True:
            x = int.from_bytes(self.take(8), "big")
            if x < limit:
                return x % n


def drbg(key: bytes, label: str) -> HmacDrbg:
    return HmacDrbg(key, label.encode("utf-8"))


def stream(key: bytes, label: str) -> Stream:
    return Stream(drbg(key, label))


def shuffle_label(round_no: int, shuffle_no: int) -> str:
    return f"round/{round_no}/shuffle/{shuffle_no}"


def shuffle(key: bytes, label: str, items: Sequence[T]) -> tuple[T, ...]:
    """Fisher–Yates shuffle of ``items`` (canonical order) driven by ``drbg(key, label)``."""
    gen = stream(key, label)
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = gen.uniform(i + 1)
        out[i], out[j] = out[j], out[i]
    return tuple(out)


def pick(key: bytes, label: str, n: int) -> int:
    """One uniform integer in ``[0, n)``, e.g. the first dealer."""
    return stream(key, label).uniform(n)


def salt(key: bytes, label: str) -> bytes:
    return drbg(key, label + "/salt").generate(16)


def commit(order: Sequence[str], salt_bytes: bytes) -> str:
    """Hex SHA-256 commitment to a card order (see the module docstring)."""
    body = json.dumps(list(order), separators=(",", ":")).encode("utf-8")
    return hashlib.sha256(salt_bytes + body).hexdigest()
