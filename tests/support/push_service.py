"""A real Web Push push service on a loopback port, for the tests of the service's push sender.

It stands where a browser vendor's push service would (RFC 8030), and plays the browser too,
since it holds each subscription's private key: a test asks it for a subscription, hands that to
the server under test as a browser's page would, and reads back what arrived, decrypted::

    with PushService() as push:
        sub = push.new_subscription()             # sub.info is the browser's subscription JSON
        ...                                       # the server under test pushes to sub.endpoint
        [msg] = push.wait_for(1, timeout=5)
        assert msg.data == {"game": ...} and msg.urgency == "high" and msg.vapid.claims["sub"]

What a ``POST /push/<id>`` must be to get 201 Created (with a ``Location`` and the ``TTL`` kept):

- RFC 8030: a ``TTL`` header (400 without), ``Urgency`` one of very-low|low|normal|high, a
  ``Topic`` of at most 32 base64url characters, a body of at most 4096 octets (413). A push
  with the ``Topic`` of a push not yet delivered to the same subscription replaces it
  (:attr:`PushService.replacements`; :meth:`PushService.outstanding` leaves the replaced out).
- RFC 8292: an ``Authorization: vapid t=<JWT>, k=<key>`` header, checked by
  :func:`~tests.support.webpush_crypto.verify_vapid` (401 absent, 403 invalid). A subscription
  made with ``application_server_key`` (or all of them, given to the service) is restricted to
  that key, as a browser's ``pushManager.subscribe({applicationServerKey})`` makes it: another
  key is refused with 403. A ``k`` equal to the encryption key is refused with 400.
- RFC 8291: ``Content-Encoding: aes128gcm`` and a body that decrypts with the subscription's
  keys (:func:`~tests.support.webpush_crypto.decrypt`); else 400, which a real push service
  cannot check but a real browser would silently drop. A push with no body is allowed.

Every request is kept in :attr:`PushService.requests` with the status it got; the accepted ones
in :attr:`PushService.pushes`. To test how the sender copes: :meth:`PushService.expire` makes a
subscription answer 404 or 410 from then on, and :meth:`PushService.refuse_next` answers the
next pushes with 429 (and a ``Retry-After``) or a 5xx.
"""
from __future__ import annotations

import json
import os
import re
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from cryptography.hazmat.primitives.asymmetric import ec

from tests.support.webpush_crypto import (PushRefused, Vapid, b64url_decode, b64url_encode, decrypt,
                                          parse_header, public_bytes, verify_vapid)

URGENCIES = ("very-low", "low", "normal", "high")
#: RFC 8030 section 7.2: a push service must accept 4096 octets of payload body at least
MAX_BODY = 4096
_TOPIC = re.compile(r"[A-Za-z0-9_-]{1,32}")


@dataclass(frozen=True)
class Subscription:
    """One browser's push subscription: what the page hands the server (:attr:`info`), and the
    private key and auth secret that only the browser holds."""

    id: str
    endpoint: str
    private_key: ec.EllipticCurvePrivateKey = field(repr=False)
    auth: bytes = field(repr=False)
    application_server_key: bytes | None = None

    @property
    def p256dh(self) -> bytes:
        return public_bytes(self.private_key.public_key())

    @property
    def info(self) -> dict[str, Any]:
        """``PushSubscription.toJSON()``: the endpoint and the two keys, base64url."""
        return {"endpoint": self.endpoint, "expirationTime": None,
                "keys": {"p256dh": b64url_encode(self.p256dh), "auth": b64url_encode(self.auth)}}

    def decrypt(self, body: bytes) -> bytes:
        return decrypt(body, self.private_key, self.auth)


@dataclass(frozen=True)
class Request:
    """Any request that reached the service, with the status it was answered and when
    (``time.monotonic()``, to measure a sender's retry intervals)."""

    path: str
    headers: dict[str, str]
    body: bytes
    status: int
    reason: str
    at: float


@dataclass(frozen=True)
class Push:
    """An accepted push message, as the browser would receive it."""

    id: str
    subscription_id: str
    headers: dict[str, str]
    ttl: int
    urgency: str
    topic: str | None
    vapid: Vapid | None
    payload: bytes
    #: the payload parsed as JSON, or None when it is not JSON
    data: Any
    at: float


@dataclass
class _Refusal:
    status: int
    times: int
    retry_after: int | None
    subscription_id: str | None


class PushService:
    """The push service; a context manager that serves on ``127.0.0.1`` on a free port.

    ``application_server_key``: the VAPID public key (uncompressed, raw or base64url) every new
    subscription is restricted to, as the server under test publishes it; ``require_vapid``:
    refuse pushes without VAPID even to unrestricted subscriptions (what real push services do);
    ``clock``: the time the JWT's ``exp`` is judged against."""

    def __init__(self, application_server_key: bytes | str | None = None, require_vapid: bool = True,
                 require_sub: bool = True, clock: Callable[[], float] = time.time) -> None:
        self.application_server_key = _raw_key(application_server_key)
        self.require_vapid = require_vapid
        self.require_sub = require_sub
        self.clock = clock
        self.requests: list[Request] = []
        self.pushes: list[Push] = []
        #: (the push replaced, the push with the same Topic that replaced it)
        self.replacements: list[tuple[Push, Push]] = []
        self._subscriptions: dict[str, Subscription] = {}
        self._expired: dict[str, int] = {}
        self._delivered: set[str] = set()
        self._refusals: list[_Refusal] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._server.daemon_threads = True
        self.origin = f"http://127.0.0.1:{self._server.server_port}"
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05},
                                        daemon=True)

    def __enter__(self) -> PushService:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    # --- what a test sets up --------------------------------------------------------------

    def new_subscription(self, application_server_key: bytes | str | None = None) -> Subscription:
        """A new subscription, as ``pushManager.subscribe()`` makes one: a P-256 key pair and a
        16-octet auth secret, restricted to ``application_server_key`` (or the service's)."""
        sid = b64url_encode(os.urandom(18))
        sub = Subscription(sid, f"{self.origin}/push/{sid}", ec.generate_private_key(ec.SECP256R1()),
                           os.urandom(16), _raw_key(application_server_key) or self.application_server_key)
        with self._lock:
            self._subscriptions[sid] = sub
        return sub

    def expire(self, subscription: Subscription | str, status: int = 410) -> None:
        """The browser unsubscribed: pushes to it get ``status`` (404 or 410) from now on."""
        with self._lock:
            self._expired[_sid(subscription)] = status

    def refuse_next(self, status: int, times: int = 1, retry_after: int | None = None,
                    subscription: Subscription | str | None = None) -> None:
        """Answer the next ``times`` pushes (to ``subscription``, or to any) with ``status``
        (429, 500, 503...), with a ``Retry-After`` of ``retry_after`` seconds when given."""
        with self._lock:
            self._refusals.append(_Refusal(status, times, retry_after,
                                           None if subscription is None else _sid(subscription)))

    # --- what a test reads -----------------------------------------------------------------

    def wait_for(self, count: int, timeout: float = 5.0) -> list[Push]:
        """The accepted pushes once there are ``count`` of them, or all there are at the timeout."""
        deadline = time.monotonic() + timeout
        while len(self.pushes) < count and time.monotonic() < deadline:
            time.sleep(0.01)
        return list(self.pushes)

    def outstanding(self, subscription: Subscription | str) -> list[Push]:
        """The pushes the browser has yet to get: accepted, neither replaced nor delivered."""
        sid = _sid(subscription)
        with self._lock:
            replaced = {old.id for old, _ in self.replacements}
            return [p for p in self.pushes if p.subscription_id == sid
                    and p.id not in replaced and p.id not in self._delivered]

    def deliver(self, subscription: Subscription | str) -> list[Push]:
        """The browser comes online and takes its outstanding pushes (a later one with the same
        Topic then no longer replaces them)."""
        taken = self.outstanding(subscription)
        with self._lock:
            self._delivered.update(p.id for p in taken)
        return taken

    # --- what the server does --------------------------------------------------------------

    def _answer(self, path: str, headers: dict[str, str], body: bytes) -> tuple[int, dict[str, str], str]:
        match = re.fullmatch(r"/push/([A-Za-z0-9_-]+)", path)
        sub = self._subscriptions.get(match.group(1)) if match else None
        if sub is None:
            return 404, {}, "no such subscription"
        if sub.id in self._expired:
            return self._expired[sub.id], {}, "the subscription has expired"
        refusal = self._take_refusal(sub.id)
        if refusal is not None:
            extra = {} if refusal.retry_after is None else {"Retry-After": str(refusal.retry_after)}
            return refusal.status, extra, "refused as the test asked"
        try:
            push = self._accept(sub, headers, body)
        except PushRefused as refused:
            return refused.status, {}, refused.reason
        return 201, {"Location": f"{self.origin}/message/{push.id}", "TTL": str(push.ttl)}, "created"

    def _take_refusal(self, sid: str) -> _Refusal | None:
        with self._lock:
            for refusal in self._refusals:
                if refusal.subscription_id in (None, sid) and refusal.times > 0:
                    refusal.times -= 1
                    return refusal
        return None

    def _accept(self, sub: Subscription, headers: dict[str, str], body: bytes) -> Push:
        ttl_text = headers.get("ttl")
        if ttl_text is None or not ttl_text.strip().isdigit():
            raise PushRefused(400, f"TTL header missing or not a number of seconds: {ttl_text!r}")
        urgency = headers.get("urgency", "normal").strip()
        if urgency not in URGENCIES:
            raise PushRefused(400, f"Urgency {urgency!r} is none of {URGENCIES}")
        topic = headers.get("topic")
        if topic is not None and not _TOPIC.fullmatch(topic):
            raise PushRefused(400, f"Topic {topic!r} is not 1 to 32 base64url characters")
        if len(body) > MAX_BODY:
            raise PushRefused(413, f"body of {len(body)} octets, more than {MAX_BODY}")
        vapid = self._check_vapid(sub, headers)
        payload = self._open(sub, headers, body, vapid)
        return self._keep(Push(uuid.uuid4().hex, sub.id, headers, int(ttl_text), urgency, topic, vapid, payload,
                               _json(payload), time.monotonic()))

    def _check_vapid(self, sub: Subscription, headers: dict[str, str]) -> Vapid | None:
        authorization = headers.get("authorization")
        if authorization is None and not self.require_vapid and sub.application_server_key is None:
            return None
        vapid = verify_vapid(authorization, self.origin, self.clock(), self.require_sub)
        if sub.application_server_key is not None and vapid.key != sub.application_server_key:
            raise PushRefused(403, "the subscription is restricted to another application server key")
        return vapid

    def _open(self, sub: Subscription, headers: dict[str, str], body: bytes, vapid: Vapid | None) -> bytes:
        if not body:
            return b""
        encoding = headers.get("content-encoding")
        if encoding != "aes128gcm":
            raise PushRefused(400, f"Content-Encoding {encoding!r}, not exactly aes128gcm")
        if vapid is not None and parse_header(body).keyid == vapid.key:
            # RFC 8292 section 3.2: signing and key exchange MUST use different keys
            raise PushRefused(400, "the VAPID key is also the encryption key")
        return sub.decrypt(body)

    def _keep(self, push: Push) -> Push:
        with self._lock:
            if push.topic is not None:
                replaced = {old.id for old, _ in self.replacements}
                for old in self.pushes:
                    if (old.subscription_id == push.subscription_id and old.topic == push.topic
                            and old.id not in replaced and old.id not in self._delivered):
                        self.replacements.append((old, push))
            self.pushes.append(push)
        return push

    def _record(self, request: Request) -> None:
        with self._lock:
            self.requests.append(request)


def _handler(service: PushService) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - the standard library's name
            # the whole body is read before any answer, so the sender sees the status, not a reset
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            headers = {k.lower(): v for k, v in self.headers.items()}
            status, extra, reason = service._answer(self.path, headers, body)
            service._record(Request(self.path, headers, body, status, reason, time.monotonic()))
            text = reason.encode()
            self.send_response(status)
            for name, value in extra.items():
                self.send_header(name, value)
            self.send_header("Content-Type", "text/plain; charset=utf-8")
            self.send_header("Content-Length", str(len(text)))
            self.end_headers()
            self.wfile.write(text)

        def log_message(self, *args: Any) -> None:
            pass

    return Handler


def _sid(subscription: Subscription | str) -> str:
    return subscription if isinstance(subscription, str) else subscription.id


def _raw_key(key: bytes | str | None) -> bytes | None:
    return b64url_decode(key) if isinstance(key, str) else key


def _json(payload: bytes) -> Any:
    try:
        return json.loads(payload)
    except ValueError:
        return None

