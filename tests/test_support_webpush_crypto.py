"""The push service's own checks (tests/support/webpush_crypto.py) hold to the RFCs: RFC 8291's
example message decrypts, with every intermediate value of its Appendix A; RFC 8292's example
token verifies; and each malformed body or credential is refused with the right status."""
from __future__ import annotations

import json
import os
import struct
import time
from typing import Any

import http_ece
import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from tests.support.webpush_crypto import (PushRefused, b64url_decode, b64url_encode, decrypt, derive,
                                          parse_header, public_bytes, verify_vapid)

# RFC 8291 section 5 and Appendix A, the base64url values as printed there (line breaks joined)
PLAINTEXT = "When I grow up, I want to be a watermelon"
MESSAGE = ("DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27ml"
           "mlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPT"
           "pK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN")
AUTH_SECRET = "BTBZMqHH6r4Tts7J_aSIgg"
UA_PRIVATE = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"
UA_PUBLIC = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
AS_PRIVATE = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
AS_PUBLIC = "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8"
SALT = "DGv6ra1nlYgDCS1FRnbzlw"
INTERMEDIATE = {
    "ecdh_secret": "kyrL1jIIOHEzg3sM2ZWRHDRB62YACZhhSlknJ672kSs",
    "prk_key": "Snr3JMxaHVDXHWJn5wdC52WjpCtd2EIEGBykDcZW32k",
    "key_info": ("V2ViUHVzaDogaW5mbwAEJXGyvs3942BVGq8e0PTNNmwRzr5VX4m8t7GGpTM5FzFo7OLr4BhZe9MEebhuPI-OztV3"
                 "ylkYfpJGmQ22ggCLDgT-M_SrDepxkU21WCP3O1SUj0EwbZIHMtu5pZpTKGSCIA5Zent7wmC6HCJ5mFgJkuk5cwAv"
                 "MBKiiujwa7t45ewP"),
    "ikm": "S4lYMb_L0FxCeq0WhDx813KgSYqU26kOyzWUdsXYyrg",
    "prk": "09_eUZGrsvxChDCGRCdkLiDXrReGOEVeSCdCcPBSJSc",
    "cek": "oIhVW04MRdy2XN9CiKLxTg",
    "nonce": "4h_95klXJ5E_qnoN",
}
CIPHERTEXT = "8pfeW0KbunFT06SuDKoJH9Ql87S1QUrdirN6GcG7sFz1y1sqLgVi1VhjVkHsUoEsbI_0LpXMuGvnzQ"

# RFC 8292 section 2.4's example: a token valid until 2016-01-23T04:36:08Z
RFC8292_TOKEN = ("eyJ0eXAiOiJKV1QiLCJhbGciOiJFUzI1NiJ9.eyJhdWQiOiJodHRwczovL3B1c2guZXhhbXBsZS5uZXQiLCJleHAiOjE0NTM1"
                 "MjM3NjgsInN1YiI6Im1haWx0bzpwdXNoQGV4YW1wbGUuY29tIn0.i3CYb7t4xfxCDquptFOepC9GAu_HLGkMlMuCGSK2rpiUf"
                 "nK9ojFwDXb1JrErtmysazNjjvW2L9OkSSHzvoD1oA")
RFC8292_KEY = "BA1Hxzyi1RUM1b5wjxsn7nGxAszw2u61m164i3MrAIxHF6YK5h4SDYic-dRuU_RCPCfA5aq9ojSwk5Y2EmClBPs"
RFC8292_EXP = 1453523768
ORIGIN = "http://127.0.0.1:8443"


def _private(b64: str) -> ec.EllipticCurvePrivateKey:
    return ec.derive_private_key(int.from_bytes(b64url_decode(b64), "big"), ec.SECP256R1())


def _refused(call: Any) -> PushRefused:
    with pytest.raises(PushRefused) as caught:
        call()
    return caught.value


def test_the_rfc_8291_example_message_decrypts_to_the_watermelon() -> None:
    plaintext = decrypt(b64url_decode(MESSAGE), _private(UA_PRIVATE), b64url_decode(AUTH_SECRET))
    assert plaintext == PLAINTEXT.encode()


def test_every_intermediate_value_is_the_one_in_rfc_8291_appendix_a() -> None:
    ua = _private(UA_PRIVATE)
    assert b64url_encode(public_bytes(ua.public_key())) == UA_PUBLIC
    assert b64url_encode(public_bytes(_private(AS_PRIVATE).public_key())) == AS_PUBLIC
    header = parse_header(b64url_decode(MESSAGE))
    assert (b64url_encode(header.salt), header.rs, b64url_encode(header.keyid)) == (SALT, 4096, AS_PUBLIC)
    assert b64url_encode(b64url_decode(MESSAGE)[header.length:]) == CIPHERTEXT
    keys = derive(ua, b64url_decode(AS_PUBLIC), b64url_decode(AUTH_SECRET), b64url_decode(SALT))
    assert {name: b64url_encode(getattr(keys, name)) for name in INTERMEDIATE} == INTERMEDIATE


def test_the_decryption_agrees_with_http_ece_both_ways() -> None:
    ua, auth = _private(UA_PRIVATE), b64url_decode(AUTH_SECRET)
    assert http_ece.decrypt(b64url_decode(MESSAGE), private_key=ua, auth_secret=auth,
                            version="aes128gcm") == PLAINTEXT.encode()
    ua = ec.generate_private_key(ec.SECP256R1())
    for size in (1, 100, 3993):  # 3993 octets: the most RFC 8291 section 4 lets fit in 4096
        plaintext = os.urandom(size)
        body = http_ece.encrypt(plaintext, private_key=ec.generate_private_key(ec.SECP256R1()),
                                dh=public_bytes(ua.public_key()), auth_secret=auth, version="aes128gcm")
        assert decrypt(body, ua, auth) == plaintext == http_ece.decrypt(body, private_key=ua, auth_secret=auth,
                                                                        version="aes128gcm")


def test_a_body_with_no_record_is_refused_though_http_ece_makes_one_for_an_empty_plaintext() -> None:
    """RFC 8188 section 2: a valid record holds at least the delimiter and the tag, and a message
    ends with a last record; http_ece encrypts b"" as a header alone (pywebpush sends no body then)."""
    ua, auth = ec.generate_private_key(ec.SECP256R1()), os.urandom(16)
    body = http_ece.encrypt(b"", private_key=ec.generate_private_key(ec.SECP256R1()),
                            dh=public_bytes(ua.public_key()), auth_secret=auth, version="aes128gcm")
    assert len(body) == parse_header(body).length
    assert "shorter than a delimiter and a tag" in _refused(lambda: decrypt(body, ua, auth)).reason


def _seal(ua: ec.EllipticCurvePrivateKey, auth: bytes, record: bytes, rs: int = 4096,
          keyid: bytes | None = None) -> bytes:
    """A body encrypted by hand, so that its record can be what no library would make."""
    sender, salt = ec.generate_private_key(ec.SECP256R1()), os.urandom(16)
    keys = derive(ua, public_bytes(sender.public_key()), auth, salt)
    ciphertext = AESGCM(keys.cek).encrypt(keys.nonce, record, b"")
    keyid = public_bytes(sender.public_key()) if keyid is None else keyid
    return salt + struct.pack(">IB", rs, len(keyid)) + keyid + ciphertext


def test_a_hand_made_record_with_zeros_after_its_delimiter_decrypts() -> None:
    ua, auth = ec.generate_private_key(ec.SECP256R1()), os.urandom(16)
    assert decrypt(_seal(ua, auth, b"hello\x02\x00\x00\x00"), ua, auth) == b"hello"


@pytest.mark.parametrize(("record", "rs", "keyid", "reason"), [
    (b"hello\x01", 4096, None, "padding delimiter 0x01"),
    (b"\x00\x00\x00", 4096, None, "no padding delimiter"),
    (b"hello\x02", 18, None, "more than one record"),
    (b"hello\x02", 17, None, "below 18"),
    (b"hello\x02", 4096, b"a1", "65-octet"),
    (b"hello\x02", 4096, b"\x04" + bytes(64), "not a P-256 point"),
])
def test_a_body_that_breaks_rfc_8188_or_8291_is_refused(record: bytes, rs: int, keyid: bytes | None,
                                                       reason: str) -> None:
    ua, auth = ec.generate_private_key(ec.SECP256R1()), os.urandom(16)
    refused = _refused(lambda: decrypt(_seal(ua, auth, record, rs, keyid), ua, auth))
    assert refused.status == 400 and reason in refused.reason


def test_a_body_altered_in_any_octet_or_opened_with_another_secret_is_refused() -> None:
    ua, auth = _private(UA_PRIVATE), b64url_decode(AUTH_SECRET)
    body = b64url_decode(MESSAGE)
    for at in (0, 20, 30, len(body) - 20, len(body) - 1):  # salt, rs, keyid, ciphertext, tag
        altered = body[:at] + bytes([body[at] ^ 1]) + body[at + 1:]
        assert _refused(lambda: decrypt(altered, ua, auth)).status == 400
    assert "does not decrypt" in _refused(lambda: decrypt(body, ua, os.urandom(16))).reason
    assert _refused(lambda: decrypt(body[:-1], ua, auth)).status == 400


def test_the_rfc_8292_example_token_verifies_before_it_expires() -> None:
    vapid = verify_vapid(f"vapid t={RFC8292_TOKEN}, k={RFC8292_KEY}", "https://push.example.net",
                         now=RFC8292_EXP - 3600)
    assert vapid.claims == {"aud": "https://push.example.net", "exp": RFC8292_EXP, "sub": "mailto:push@example.com"}
    assert vapid.key_b64 == RFC8292_KEY
    late = _refused(lambda: verify_vapid(f"vapid t={RFC8292_TOKEN},k={RFC8292_KEY}", "https://push.example.net",
                                         now=RFC8292_EXP + 1))
    assert (late.status, "expired" in late.reason) == (403, True)


def _token(key: ec.EllipticCurvePrivateKey, claims: dict[str, Any], alg: str = "ES256") -> str:
    """A compact JWS made here, so that it can be wrong in every way a sender might get it wrong."""
    head = b64url_encode(json.dumps({"typ": "JWT", "alg": alg}).encode())
    body = b64url_encode(json.dumps(claims).encode())
    r, s = decode_dss_signature(key.sign(f"{head}.{body}".encode(), ec.ECDSA(hashes.SHA256())))
    return f"{head}.{body}.{b64url_encode(r.to_bytes(32, 'big') + s.to_bytes(32, 'big'))}"


def _header(key: ec.EllipticCurvePrivateKey, token: str) -> str:
    return f'vapid t={token}, k="{b64url_encode(public_bytes(key.public_key()))}"'


def test_a_well_made_credential_verifies_and_gives_its_claims_and_key() -> None:
    key, now = ec.generate_private_key(ec.SECP256R1()), time.time()
    claims = {"aud": ORIGIN, "exp": int(now) + 3600, "sub": "https://facedown.example/contact"}
    vapid = verify_vapid(_header(key, _token(key, claims)), ORIGIN, now)
    assert (vapid.claims, vapid.key) == (claims, public_bytes(key.public_key()))


@pytest.mark.parametrize(("change", "status", "reason"), [
    ({"aud": "http://127.0.0.1:9"}, 403, "aud"),
    ({"aud": ORIGIN + "/push/abc"}, 403, "aud"),
    ({"exp": -10}, 403, "expired"),
    ({"exp": 24 * 3600 + 60}, 403, "more than 24 hours"),
    ({"exp": "tomorrow"}, 403, "NumericDate"),
    ({"sub": "ops@example.org"}, 403, "sub"),
    ({"sub": "http://facedown.example"}, 403, "sub"),
    ({"sub": None}, 403, "sub"),
])
def test_a_claim_rfc_8292_forbids_is_refused(change: dict[str, Any], status: int, reason: str) -> None:
    key, now = ec.generate_private_key(ec.SECP256R1()), time.time()
    claims = {"aud": ORIGIN, "exp": 3600, "sub": "mailto:ops@example.org", **change}
    if isinstance(claims["exp"], int):
        claims["exp"] += int(now)
    claims = {k: v for k, v in claims.items() if v is not None}
    refused = _refused(lambda: verify_vapid(_header(key, _token(key, claims)), ORIGIN, now))
    assert refused.status == status and reason in refused.reason


def test_a_credential_absent_or_signed_wrongly_is_refused() -> None:
    key, other, now = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1()), time.time()
    token = _token(key, {"aud": ORIGIN, "exp": int(now) + 600, "sub": "mailto:ops@example.org"})
    cases = {
        None: 401,
        f"WebPush {token}": 401,  # the drafts' scheme, with the key in a Crypto-Key header
        f"vapid t={token}": 403,
        _header(other, token): 403,  # k is not the key that signed
        _header(key, token[:-4] + ("AAAA" if not token.endswith("AAAA") else "BBBB")): 403,
        _header(key, _token(key, {"aud": ORIGIN, "exp": int(now) + 600}, alg="HS256")): 403,
        _header(key, token + "AA"): 403,  # a signature that is not 64 octets
        _header(key, "not-a-jwt"): 403,
        f"vapid t={token}, k=BAAA": 403,
    }
    for header, status in cases.items():
        assert _refused(lambda: verify_vapid(header, ORIGIN, now)).status == status, header
