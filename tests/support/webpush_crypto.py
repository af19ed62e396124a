"""What a browser and a push service check in a Web Push request, written from the RFCs alone.

The service sends pushes with a library (pywebpush, over http-ece and py-vapid); these functions
are the independent other side that its tests measure it against, so they use only
``cryptography``'s primitives (ECDH, ECDSA, AES-GCM) and the standard library's HMAC, step by
step as the RFCs write them:

- :func:`decrypt`: RFC 8291 (Message Encryption for Web Push) over RFC 8188's ``aes128gcm``
  content coding, as the user agent does. :func:`derive` gives every intermediate value, so a
  test can compare them with RFC 8291 Appendix A.
- :func:`verify_vapid`: RFC 8292 (VAPID), as a push service does with the ``Authorization:
  vapid t=<JWT>, k=<key>`` header: an ES256 JWS checked against ``k``, ``aud`` the push
  resource's origin, ``exp`` in the future and at most 24 hours ahead, ``sub`` a contact URI.

Errors carry the HTTP status a push service answers with, so the server only relays them.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
import struct
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidSignature, InvalidTag
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

#: RFC 8292 section 2: "An exp claim MUST NOT be more than 24 hours from the time of the request"
MAX_EXP_AHEAD = 24 * 3600
#: RFC 8188 section 2.1: "Values [of rs] smaller than 18 are invalid"
MIN_RECORD_SIZE = 18
#: AEAD_AES_128_GCM's authentication tag
TAG_LENGTH = 16


class PushRefused(Exception):
    """A push the push service refuses: ``status`` is its HTTP answer, ``reason`` says why."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(f"{status}: {reason}")
        self.status = status
        self.reason = reason


def b64url_encode(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    """base64url with or without its padding (RFC 7515 leaves it out, some senders keep it)."""
    text = text.strip().rstrip("=")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def public_bytes(key: ec.EllipticCurvePublicKey) -> bytes:
    """A P-256 public key in the X9.62 uncompressed form (65 octets, 0x04 first) both RFCs use."""
    return key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)


def load_public(raw: bytes) -> ec.EllipticCurvePublicKey:
    """A P-256 point from its uncompressed form; refuses a point off the curve (RFC 8291
    section 7: "MUST verify that the public key they receive is on the P-256 curve")."""
    if len(raw) != 65 or raw[0] != 4:
        raise ValueError("not an uncompressed P-256 point")
    return ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)


# --- RFC 8291 + RFC 8188: decryption -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Header:
    """RFC 8188 section 2.1: salt (16) || rs (4, big-endian) || idlen (1) || keyid (idlen)."""

    salt: bytes
    rs: int
    keyid: bytes

    @property
    def length(self) -> int:
        return 21 + len(self.keyid)


def parse_header(body: bytes) -> Header:
    if len(body) < 21:
        raise PushRefused(400, "body shorter than the aes128gcm header")
    salt, (rs,), idlen = body[:16], struct.unpack(">I", body[16:20]), body[20]
    if len(body) < 21 + idlen:
        raise PushRefused(400, "body shorter than the aes128gcm header's keyid")
    if rs < MIN_RECORD_SIZE:
        raise PushRefused(400, f"record size {rs} is below {MIN_RECORD_SIZE}")
    return Header(salt, rs, body[21:21 + idlen])


@dataclass(frozen=True, slots=True)
class Keys:
    """Every value RFC 8291 section 3.4 derives, named as in its pseudocode and Appendix A."""

    ecdh_secret: bytes
    prk_key: bytes
    key_info: bytes
    ikm: bytes
    prk: bytes
    cek: bytes
    nonce: bytes


def _hmac(key: bytes, data: bytes) -> bytes:
    return hmac.new(key, data, hashlib.sha256).digest()


def derive(ua_private: ec.EllipticCurvePrivateKey, as_public: bytes, auth_secret: bytes, salt: bytes) -> Keys:
    """The user agent's side of RFC 8291 section 3.4, HKDF written out as single HMACs (every
    output here is at most one SHA-256 block long, so HKDF-Expand is one HMAC with counter 1)."""
    ecdh_secret = ua_private.exchange(ec.ECDH(), load_public(as_public))
    prk_key = _hmac(auth_secret, ecdh_secret)
    key_info = b"WebPush: info\x00" + public_bytes(ua_private.public_key()) + as_public
    ikm = _hmac(prk_key, key_info + b"\x01")
    prk = _hmac(salt, ikm)
    cek = _hmac(prk, b"Content-Encoding: aes128gcm\x00\x01")[:16]
    nonce = _hmac(prk, b"Content-Encoding: nonce\x00\x01")[:12]
    return Keys(ecdh_secret, prk_key, key_info, ikm, prk, cek, nonce)


def decrypt(body: bytes, ua_private: ec.EllipticCurvePrivateKey, auth_secret: bytes) -> bytes:
    """The plaintext of an ``aes128gcm`` push message body, as a user agent reads it.

    RFC 8291 section 4: one record, the sender's ECDH key (65 octets) as the whole keyid, and a
    last-record padding delimiter of 0x02; RFC 8188 section 2: the delimiter is the last non-zero
    octet, with only zeros after it."""
    header = parse_header(body)
    if len(header.keyid) != 65:
        raise PushRefused(400, "the keyid is not the sender's 65-octet public key")
    record = body[header.length:]
    if len(record) > header.rs:
        raise PushRefused(400, "more than one record (a push message has exactly one)")
    if len(record) < TAG_LENGTH + 1:
        raise PushRefused(400, "the record is shorter than a delimiter and a tag")
    try:
        keys = derive(ua_private, header.keyid, auth_secret, header.salt)
    except ValueError as error:
        raise PushRefused(400, f"the sender's key is not a P-256 point: {error}") from error
    try:
        # a single record has sequence number 0, so the nonce is NONCE itself (section 3.4's note)
        padded = AESGCM(keys.cek).decrypt(keys.nonce, record, b"")
    except InvalidTag as error:
        raise PushRefused(400, "the record does not decrypt (wrong keys, or the body was altered)") from error
    unpadded = padded.rstrip(b"\x00")
    if not unpadded:
        raise PushRefused(400, "the record holds no padding delimiter")
    if unpadded[-1] != 2:
        raise PushRefused(400, f"padding delimiter {unpadded[-1]:#04x}, not 0x02 (last record)")
    return unpadded[:-1]


# --- RFC 8292: VAPID -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Vapid:
    """A verified VAPID credential: the JWT's claims and the key (``k``) that signed it."""

    claims: dict[str, Any]
    key: bytes
    token: str

    @property
    def key_b64(self) -> str:
        return b64url_encode(self.key)


def parse_credentials(authorization: str) -> tuple[str, dict[str, str]]:
    """An Authorization header's scheme (lower case) and its auth-params (RFC 7235 section 2.1:
    ``name = value`` pairs, a value a token or a quoted string, separated by commas)."""
    scheme, _, rest = authorization.strip().partition(" ")
    params: dict[str, str] = {}
    for part in rest.split(","):
        name, sep, value = part.partition("=")
        if sep:
            params[name.strip().lower()] = value.strip().strip('"')
    return scheme.lower(), params


def verify_vapid(authorization: str | None, origin: str, now: float, require_sub: bool = True) -> Vapid:
    """The credential of an ``Authorization: vapid t=..., k=...`` header, checked as RFC 8292
    says a push service does. 401 when it is absent or in another scheme (the draft-era
    ``WebPush`` + ``Crypto-Key`` form included), 403 when present but invalid."""
    if not authorization:
        raise PushRefused(401, "no Authorization header")
    scheme, params = parse_credentials(authorization)
    if scheme != "vapid":
        raise PushRefused(401, f"authentication scheme {scheme!r}, not 'vapid'")
    token, k = params.get("t"), params.get("k")
    if not token or not k:
        raise PushRefused(403, "the vapid credential lacks its t (token) or k (key) parameter")
    try:
        key = b64url_decode(k)
        public = load_public(key)
    except ValueError as error:
        raise PushRefused(403, f"k is not a P-256 public key: {error}") from error
    claims = _verified_claims(token, public)
    _check_claims(claims, origin, now, require_sub)
    return Vapid(claims, key, token)


def _verified_claims(token: str, public: ec.EllipticCurvePublicKey) -> dict[str, Any]:
    """RFC 7515's compact JWS: header.payload.signature, the ES256 signature being r || s
    (32 octets each, RFC 7518 section 3.4), over the ASCII of ``header.payload``."""
    parts = token.split(".")
    if len(parts) != 3:
        raise PushRefused(403, "the token is not a compact JWS of three parts")
    try:
        header = json.loads(b64url_decode(parts[0]))
        claims = json.loads(b64url_decode(parts[1]))
        signature = b64url_decode(parts[2])
    except ValueError as error:
        raise PushRefused(403, f"the token does not decode: {error}") from error
    if not isinstance(header, dict) or header.get("alg") != "ES256":
        raise PushRefused(403, f"JWS alg {header.get('alg') if isinstance(header, dict) else header!r}, not ES256")
    if len(signature) != 64:
        raise PushRefused(403, f"an ES256 signature is 64 octets, not {len(signature)}")
    der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
    try:
        public.verify(der, f"{parts[0]}.{parts[1]}".encode("ascii"), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature as error:
        raise PushRefused(403, "the JWT's signature does not verify with k") from error
    if not isinstance(claims, dict):
        raise PushRefused(403, "the JWT's claims are not an object")
    return claims


def _check_claims(claims: dict[str, Any], origin: str, now: float, require_sub: bool) -> None:
    aud = claims.get("aud")
    if aud != origin:
        raise PushRefused(403, f"aud {aud!r} is not the push resource's origin {origin!r}")
    exp = claims.get("exp")
    if not isinstance(exp, int) or isinstance(exp, bool):
        raise PushRefused(403, f"exp {exp!r} is not a NumericDate")
    if exp <= now:
        raise PushRefused(403, f"the token expired {now - exp:.0f} s ago")
    if exp > now + MAX_EXP_AHEAD:
        raise PushRefused(403, f"exp is {exp - now:.0f} s ahead, more than 24 hours")
    sub = claims.get("sub")
    if sub is None and not require_sub:
        return
    if not isinstance(sub, str) or not sub.startswith(("mailto:", "https:")) or len(sub) <= len("https:"):
        raise PushRefused(403, f"sub {sub!r} is not a mailto: or https: contact URI")
