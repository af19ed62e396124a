"""Web Push to a player's browsers (RFC 8030 push, RFC 8291 encryption, RFC 8292 VAPID), with
pywebpush (over http-ece and py-vapid).

* :class:`VapidKey`: the server's P-256 key pair, made once (:meth:`VapidKey.generate`) and kept
  in the database (:meth:`VapidKey.stored`: the public key as the browser's
  ``applicationServerKey`` wants it, base64url of the uncompressed point, and the private key as
  PKCS #8 DER); ``GET /v1/push/vapid-key`` shows :attr:`VapidKey.public_key`.
* :class:`Pusher` sends one push (:class:`Push`: a JSON payload ``{kind, game_id, title, body,
  url}``, encrypted ``aes128gcm``) with ``TTL``, ``Urgency`` and a ``Topic`` made from the game
  (:func:`topic_for`: a newer push about a game replaces one the browser has not yet received).
  The endpoint must pass the service's outbound address check (``service.adapters.outbound``: globally
  routable addresses only; the request connects to the very address it checked), unless
  ``FACEDOWN_PUSH_ALLOW_PRIVATE=1`` (tests). What the push service answers is classified
  (:class:`Pushed`): 201 ``sent``; 404 or 410 ``gone`` (remove the subscription); 429 or 5xx
  ``retry`` (after ``Retry-After`` when given); any other answer ``failed``.
"""
from __future__ import annotations

import base64
import hashlib
import json
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from typing import Literal
from urllib.parse import urlsplit

import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid

from service.adapters.outbound import (
    Target,
    TargetRefused,
    check,
    pinned_session,
    pinned_url,
)

# the webhook sender's connection to a checked address, TLS checked against the URL's host: one
# place for it (both move to the adapters' outbound module with the layers' restructure)

URGENCIES = ("very-low", "low", "normal", "high")
Status = Literal["sent", "gone", "retry", "failed"]
CONNECT_TIMEOUT, READ_TIMEOUT = 3.05, 10.0


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def unb64url(text: str) -> bytes:
    text = text.strip().rstrip("=")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass(frozen=True, slots=True)
class VapidKey:
    """The server's VAPID key pair (P-256)."""

    private: ec.EllipticCurvePrivateKey = field(repr=False)

    @staticmethod
    def generate() -> VapidKey:
        return VapidKey(ec.generate_private_key(ec.SECP256R1()))

    @property
    def public_key(self) -> str:
        """base64url of the uncompressed point (65 octets): a browser's ``applicationServerKey``."""
        return b64url(self.private.public_key().public_bytes(serialization.Encoding.X962,
                                                             serialization.PublicFormat.UncompressedPoint))

    def stored(self) -> tuple[str, bytes]:
        """(public key, private key as PKCS #8 DER), as the database keeps them."""
        return self.public_key, self.private.private_bytes(serialization.Encoding.DER,
                                                           serialization.PrivateFormat.PKCS8,
                                                           serialization.NoEncryption())

    @staticmethod
    def from_stored(public_key: str, private_der: bytes) -> VapidKey:
        """The pair as stored; ``ValueError`` if it is not a P-256 key or not this public key's."""
        private = serialization.load_der_private_key(private_der, password=None)
        if not isinstance(private, ec.EllipticCurvePrivateKey) or not isinstance(private.curve, ec.SECP256R1):
            raise ValueError("the stored VAPID key is not a P-256 private key")
        key = VapidKey(private)
        if key.public_key != public_key.rstrip("="):
            raise ValueError("the stored VAPID public key is not the private key's")
        return key


@dataclass(frozen=True, slots=True)
class Subscription:
    """Where a browser receives pushes: its endpoint and keys (base64url, as the page sends them)."""

    endpoint: str
    p256dh: str
    auth: str = field(repr=False)

    @staticmethod
    def of(endpoint: str, p256dh: str, auth: bytes | str) -> Subscription:
        return Subscription(endpoint, p256dh, auth if isinstance(auth, str) else b64url(auth))


def topic_for(game_id: str) -> str:
    """A push's Topic for a game (RFC 8030: at most 32 base64url characters): a game's id as
    22, anything else as a digest of 32."""
    try:
        return b64url(uuid.UUID(game_id).bytes)
    except ValueError:
        return b64url(hashlib.sha256(game_id.encode()).digest()[:24])


@dataclass(frozen=True, slots=True)
class Push:
    """One push: what the service worker shows (rendered ``title`` and ``body``), the game it
    opens (``url``), and how the push service should treat it."""

    kind: str
    game_id: str | None
    title: str
    body: str
    url: str
    ttl: int = 24 * 3600  # seconds the push service keeps it for a browser that is offline
    urgency: str = "normal"
    topic: str | None = None  # None: the game's (:func:`topic_for`), or none without a game

    def payload(self) -> bytes:
        return json.dumps({"kind": self.kind, "game_id": self.game_id, "title": self.title, "body": self.body,
                           "url": self.url}, ensure_ascii=False, separators=(",", ":")).encode()

    def headers(self) -> dict[str, str]:
        if self.urgency not in URGENCIES:
            raise ValueError(f"Urgency is one of {URGENCIES}, not {self.urgency!r}")
        topic = self.topic if self.topic is not None else topic_for(self.game_id) if self.game_id else None
        return {"Urgency": self.urgency, **({"Topic": topic} if topic else {})}


@dataclass(frozen=True, slots=True)
class Pushed:
    """What became of a push: ``sent``, ``gone`` (remove the subscription), ``retry`` (not before
    ``retry_after`` seconds when the push service said so) or ``failed``."""

    status: Status
    code: int | None = None
    retry_after: float | None = None
    detail: str | None = None


def retry_after(value: str | None, now: datetime) -> float | None:
    """A ``Retry-After`` header in seconds from ``now`` (it is seconds or an HTTP date)."""
    if value is None or not value.strip():
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max(0.0, (when - now).total_seconds())


def classify(code: int, headers: Mapping[str, str], now: datetime) -> Pushed:
    if code in (200, 201, 202):
        return Pushed("sent", code)
    if code in (404, 410):
        return Pushed("gone", code, detail=f"HTTP {code}: the subscription has expired or was withdrawn")
    if code == 429 or 500 <= code < 600:
        return Pushed("retry", code, retry_after(headers.get("Retry-After"), now), f"HTTP {code}")
    return Pushed("failed", code, detail=f"HTTP {code}")


def _host(target: Target) -> str:
    """The Host header of the endpoint's own host (the request goes to its checked address)."""
    default = target.port == (443 if target.scheme == "https" else 80)
    return target.host if default else f"{target.host}:{target.port}"


class Pusher:
    """Sends pushes signed with ``key``; ``contact`` is the VAPID ``sub`` claim (a ``mailto:``
    or ``https:`` URI the push service may use to reach the operator)."""

    def __init__(self, key: VapidKey, contact: str, allow_private: bool = False) -> None:
        if not contact.startswith(("mailto:", "https:")):
            raise ValueError("the VAPID contact is a mailto: or https: URI")
        self.key, self.contact, self.allow_private = key, contact, allow_private
        self._vapid = Vapid(private_key=key.private)

    @staticmethod
    def from_env(key: VapidKey, contact: str, environ: Mapping[str, str]) -> Pusher:
        return Pusher(key, contact, allow_private=environ.get("FACEDOWN_PUSH_ALLOW_PRIVATE") == "1")

    def send(self, subscription: Subscription, push: Push, now: datetime | None = None) -> Pushed:
        """Encrypt and send one push; never raises for what the network or the push service does."""
        # imported at the first push, not with the app: pywebpush imports aiohttp (which it does
        # not use with a requests session), a fifth of the time every process took to import the app
        from pywebpush import WebPushException, webpush

        now = now or datetime.now(timezone.utc)
        try:
            target = check(subscription.endpoint, self.allow_private)
        except TargetRefused as exc:
            return Pushed("failed", detail=f"refused: {exc}")
        url, host = pinned_url(target), _host(target)
        origin = f"{target.scheme}://{urlsplit(target.url).netloc.rpartition('@')[2]}"
        info = {"endpoint": url, "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth}}
        with pinned_session(target) as session:
            try:
                answer = webpush(info, push.payload().decode(), vapid_private_key=self._vapid,
                                 vapid_claims={"sub": self.contact, "aud": origin}, ttl=push.ttl,
                                 headers={**push.headers(), "Host": host}, content_encoding="aes128gcm",
                                 timeout=(CONNECT_TIMEOUT, READ_TIMEOUT), requests_session=session)
            except WebPushException as exc:
                if exc.response is None:
                    return Pushed("failed", detail=str(exc)[:300])
                return classify(exc.response.status_code, exc.response.headers, now)
            except requests.RequestException as exc:
                return Pushed("retry", detail=f"{type(exc).__name__}: {str(exc)[:300]}")
            except ValueError as exc:  # keys that are not keys: this subscription can never work
                return Pushed("failed", detail=f"the subscription's keys are not usable: {exc}"[:300])
        assert isinstance(answer, requests.Response)
        return classify(answer.status_code, answer.headers, now)
