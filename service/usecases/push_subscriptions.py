"""A player's Web Push subscriptions (RFC 8030/8291): one per browser that subscribed, given as
the browser's ``PushSubscription.toJSON()``: its endpoint and keys.

The endpoint is where the push sender will send requests of its own, so it passes the same
check as a webhook's URL (``service.adapters.outbound.check``): https only, and only globally
routable addresses, unless ``Config.push_allow_private`` (tests). The keys are checked for what
encryption needs: ``p256dh`` a point of P-256 in uncompressed form (65 bytes), ``auth`` 16
bytes, both base64url. The auth secret is never shown again.
"""
from __future__ import annotations

import base64
import re
import uuid
from typing import Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec

from events import reach
from service.adapters.outbound import TargetRefused, check
from service.model.game import iso
from service.model.problems import Problem
from service.usecases.dependencies import Dependencies

MAX_SUBSCRIPTIONS = 10
P256DH_BYTES, AUTH_BYTES = 65, 16
_B64URL = re.compile(r"[A-Za-z0-9_-]+={0,2}")


def _refused(field: str, reason: str) -> Problem:
    return Problem("validation", f"{field}: {reason}", errors={field: [reason]})


def _key(raw: Any, field: str, size: int) -> bytes:
    """A key as bytes, from strict base64url (padding allowed, nothing else)."""
    text = raw.strip() if isinstance(raw, str) else ""
    if not _B64URL.fullmatch(text) or len(text) > 200:
        raise _refused(field, "must be base64url (A-Z, a-z, 0-9, '-', '_')")
    bare = text.rstrip("=")
    try:
        key = base64.urlsafe_b64decode(bare + "=" * (-len(bare) % 4))
    except ValueError:
        raise _refused(field, "must be base64url (A-Z, a-z, 0-9, '-', '_')") from None
    if len(key) != size:
        raise _refused(field, f"must be {size} bytes, not {len(key)}")
    return key


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def public_key(raw: Any, field: str = "keys.p256dh") -> str:
    """The browser's public key, checked to be a point of P-256 (uncompressed), base64url."""
    key = _key(raw, field, P256DH_BYTES)
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), key)
    except ValueError:
        raise _refused(field, "is not a point of the P-256 curve in uncompressed form") from None
    if key[0] != 4:
        raise _refused(field, "is not a point of the P-256 curve in uncompressed form")
    return _b64url(key)


def endpoint_of(raw: Any, allow_private: bool) -> str:
    """The push service's URL: https, at a globally routable address (http and any address
    when ``allow_private``); 422 naming ``endpoint`` otherwise."""
    url = raw.strip() if isinstance(raw, str) else ""
    scheme = urlsplit(url).scheme if url else ""
    if scheme != "https" and not (allow_private and scheme == "http"):
        raise _refused("endpoint", "must be an https:// URL")
    try:
        check(url, allow_private)
    except TargetRefused as exc:
        raise _refused("endpoint", str(exc)) from None
    return url


def shown(sub: reach.Subscription) -> dict[str, Any]:
    """A subscription as its owner sees it (never the auth secret)."""
    return {"id": str(sub.id), "endpoint": sub.endpoint, "created_at": iso(sub.created_at),
            "last_success_at": iso(sub.last_success_at) if sub.last_success_at else None,
            "last_failure_at": iso(sub.last_failure_at) if sub.last_failure_at else None,
            "last_error": sub.last_error}


def subscribe(deps: Dependencies, pid: str, endpoint: Any, p256dh: Any, auth: Any) -> tuple[dict[str, Any], bool]:
    """Keep a browser's subscription: (it, whether it is new). The same endpoint again is the
    same subscription, its keys renewed. 409 past :data:`MAX_SUBSCRIPTIONS`."""
    url = endpoint_of(endpoint, deps.config.push_allow_private)
    key = public_key(p256dh)
    secret = _key(auth, "keys.auth", AUTH_BYTES)
    done = reach.subscribe(deps.db, uuid.UUID(pid), uuid.uuid4(), url, key, secret, deps.clock(), MAX_SUBSCRIPTIONS)
    if done.subscription is None:
        raise Problem("too-many-subscriptions", f"a player may have {MAX_SUBSCRIPTIONS} push subscriptions; "
                                                "remove one (DELETE /v1/me/push-subscriptions/{id}) first")
    found = next((s for s in reach.subscriptions(deps.db, uuid.UUID(pid)) if s.id == done.subscription.id),
                 done.subscription)
    return shown(found), done.status == "created"


def listing(deps: Dependencies, pid: str) -> dict[str, Any]:
    return {"items": [shown(s) for s in reach.subscriptions(deps.db, uuid.UUID(pid))]}


def remove(deps: Dependencies, pid: str, subscription_id: uuid.UUID) -> None:
    """Remove one of the player's subscriptions (its pushes not yet sent are not sent); 404 if
    the player has none with this id."""
    if not reach.unsubscribe(deps.db, uuid.UUID(pid), subscription_id):
        raise Problem("not-found", f"no push subscription {subscription_id}")
