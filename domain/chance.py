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
import json
import struct
from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from itertools import chain
from operator import lt, mod
from typing import TypeVar

T = TypeVar("T")

_OUTLEN = 32
_BLOCKLEN = 64  # SHA-256's block size, HMAC's key block
_IPAD = bytes(x ^ 0x36 for x in range(256))  # translation tables: each key byte XOR 0x36 / 0x5C
_OPAD = bytes(x ^ 0x5C for x in range(256))
_WORD_SPAN = 2**64  # uniform() reads 64-bit words


class HmacSha256:
    """HMAC-SHA-256 under one key (RFC 2104): ``H((K ^ opad) || H((K ^ ipad) || message))``.

    The two padded key blocks are hashed once per key and copied for every message: the
    DRBG hashes ten messages in a row under each key while it generates a deal, and
    ``hmac.digest`` would set the key up again each time (the most costly part of a deal).
    """

    __slots__ = ("_inner", "_outer")

    def __init__(self, key: bytes) -> None:
        if len(key) > _BLOCKLEN:
            key = hashlib.sha256(key).digest()
        block = key.ljust(_BLOCKLEN, b"\x00")
        self._inner = hashlib.sha256(block.translate(_IPAD))
        self._outer = hashlib.sha256(block.translate(_OPAD))

    def digest(self, message: bytes) -> bytes:
        inner = self._inner.copy()
        inner.update(message)
        outer = self._outer.copy()
        outer.update(inner.digest())
        return outer.digest()

    def chain(self, v: bytes, count: int) -> list[bytes]:
        """``count`` times ``v = digest(v)``, every ``v`` in order: HMAC_DRBG's generate loop,
        with the digest written out (a deal runs it some twenty times)."""
        inner, outer = self._inner.copy, self._outer.copy
        out = []
        for _ in range(count):
            h = inner()
            h.update(v)
            o = outer()
            o.update(h.digest())
            v = o.digest()
            out.append(v)
        return out


_INITIAL_MAC = HmacSha256(b"\x00" * _OUTLEN)  # K = 0x00...00 at instantiation; digest() never changes it


class HmacDrbg:
    """HMAC_DRBG (SHA-256), instantiate + generate, per SP 800-90A §10.1.2."""

    __slots__ = ("_mac", "_v")

    def __init__(self, entropy: bytes, nonce: bytes = b"", personalization: bytes = b"") -> None:
        self._mac = _INITIAL_MAC  # HMAC keyed with K
        self._v = b"\x01" * _OUTLEN
        self._update(entropy + nonce + personalization)

    def _update(self, provided: bytes) -> None:
        self._mac = HmacSha256(self._mac.digest(self._v + b"\x00" + provided))
        self._v = self._mac.digest(self._v)
        if provided:
            self._mac = HmacSha256(self._mac.digest(self._v + b"\x01" + provided))
            self._v = self._mac.digest(self._v)

    def generate(self, n: int) -> bytes:
        blocks = self._mac.chain(self._v, -(-n // _OUTLEN))  # as many V blocks as cover n bytes
        if blocks:
            self._v = blocks[-1]
        self._update(b"")
        return b"".join(blocks)[:n]


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

    def words(self, count: int) -> tuple[int, ...]:
        """The next ``count`` 8-byte words of the stream, read as unsigned big-endian integers."""
        return struct.unpack(f">{count}Q", self.take(8 * count))

    def word(self) -> int:
        return int.from_bytes(self.take(8), "big")

    def uniform(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` by rejection sampling over 64 bits."""
        if n <= 0:
            raise ValueError("n must be positive")
        return _below(iter(self.word, None), n)


def _limit(n: int) -> int:
    """Words at or above this (the largest multiple of ``n`` up to 2**64) are rejected."""
    return _WORD_SPAN - _WORD_SPAN % n


@cache
def _limits(bounds: range) -> tuple[int, ...]:
    return tuple(map(_limit, bounds))


def _below(words: Iterator[int], n: int) -> int:
    """``uniform(n)`` from a supply of words: the first word under ``_limit(n)``, mod ``n``."""
    limit = _limit(n)
    for x in words:
        if x < limit:
            return x % n
    raise ValueError("the word supply ran out")


def drbg(key: bytes, label: str) -> HmacDrbg:
    return HmacDrbg(key, label.encode("utf-8"))


def stream(key: bytes, label: str) -> Stream:
    return Stream(drbg(key, label))


def shuffle_label(round_no: int, shuffle_no: int) -> str:
    return f"round/{round_no}/shuffle/{shuffle_no}"


def shuffle(key: bytes, label: str, items: Sequence[T]) -> tuple[T, ...]:
    """Fisher–Yates shuffle of ``items`` (canonical order) driven by ``drbg(key, label)``."""
    return fisher_yates(stream(key, label), items)


def fisher_yates(gen: Stream, items: Sequence[T]) -> tuple[T, ...]:
    """For i from len−1 down to 1, swap items i and ``gen.uniform(i + 1)``.

    Same output as calling ``uniform`` for each swap, read faster: the swaps take one
    word each unless one is rejected (chance below n / 2**64), so those len−1 words are
    read from the stream in one go and, when none is rejected, reduced all at once; a
    rejection makes every swap draw as ``uniform`` does, reading on word by word.
    """
    out = list(items)
    bounds = range(len(out), 1, -1)  # i + 1 for each swap
    words = gen.words(len(bounds))
    picks: Iterable[int]
    if all(map(lt, words, _limits(bounds))):
        picks = map(mod, words, bounds)
    else:
        supply = chain(words, iter(gen.word, None))
        picks = (_below(supply, n) for n in bounds)
    for i, j in zip(range(len(out) - 1, 0, -1), picks):
        out[i], out[j] = out[j], out[i]
    return tuple(out)


def pick(key: bytes, label: str, n: int) -> int:
    """One uniform integer in ``[0, n)``, e.g. the first dealer."""
    return stream(key, label).uniform(n)


def salt(key: bytes, label: str) -> bytes:
    return drbg(key, label + "/salt").generate(16)


# json.dumps(..., separators=(",", ":")) with the encoder built once rather than per call.
_COMPACT_JSON = json.JSONEncoder(separators=(",", ":"))


def commit(order: Sequence[str], salt_bytes: bytes) -> str:
    """Hex SHA-256 commitment to a card order (see the module docstring)."""
    joined = "".join(order)
    if order and joined.isascii() and joined.isalnum():
        # Card codes: JSON writes each as it is between quotes, so join them (json is 10x slower).
        text = '["' + '","'.join(order) + '"]'
    else:
        text = _COMPACT_JSON.encode(list(order))
    return hashlib.sha256(salt_bytes + text.encode("utf-8")).hexdigest()
