"""Chance as data: the documented DRBG and shuffle are deterministic and fair."""
from __future__ import annotations

import hashlib
import hmac
from collections import Counter

from domain import chance
from domain.cards import french_pack


def test_hmac_drbg_follows_the_standard_update_and_generate_steps() -> None:
    # An independent, literal transcription of SP 800-90A §10.1.2 for one generate call.
    def h(k: bytes, d: bytes) -> bytes:
        return hmac.new(k, d, hashlib.sha256).digest()

    entropy, nonce = b"e" * 32, b"label"
    k, v = b"\x00" * 32, b"\x01" * 32
    k = h(k, v + b"\x00" + entropy + nonce); v = h(k, v)
    k = h(k, v + b"\x01" + entropy + nonce); v = h(k, v)
    v = h(k, v)
    expected = v
    assert chance.HmacDrbg(entropy, nonce).generate(32) == expected


def test_the_same_key_and_label_give_the_same_shuffle_and_others_differ() -> None:
    pack = french_pack()
    a = chance.shuffle(b"key", "round/1/shuffle/0", pack)
    assert a == chance.shuffle(b"key", "round/1/shuffle/0", pack)
    assert a != chance.shuffle(b"key", "round/2/shuffle/0", pack)
    assert a != chance.shuffle(b"other", "round/1/shuffle/0", pack)
    assert sorted(a) == sorted(pack)


def test_fisher_yates_puts_each_card_first_about_equally_often() -> None:
    items = tuple(range(4))
    firsts = Counter(chance.shuffle(str(i).encode(), "x", items)[0] for i in range(4000))
    assert all(900 < firsts[x] < 1100 for x in items), firsts


def test_a_commitment_binds_the_order_and_the_salt() -> None:
    order = list(french_pack()[:5])
    salt = chance.salt(b"k", "round/1/shuffle/0")
    c = chance.commit(order, salt)
    assert c == chance.commit(list(order), salt)
    assert c != chance.commit(order[::-1], salt)
    assert c != chance.commit(order, bytes(16))
