"""Standard Webhooks signatures: ``v1,<base64 HMAC-SHA256 of "id.timestamp.body">``."""
from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

PREFIX = "whsec_"


def new_secret() -> bytes:
    return secrets.token_bytes(32)


def secret_text(secret: bytes) -> str:
    """The secret as shown to its owner once: ``whsec_`` and its base64."""
    return PREFIX + base64.b64encode(secret).decode()


def secret_bytes(text: str) -> bytes:
    """The key a receiver signs with, from the shown form (what a receiver's library does)."""
    return base64.b64decode(text[len(PREFIX):] if text.startswith(PREFIX) else text)


def signature(secret: bytes, msg_id: str, timestamp: int, body: bytes) -> str:
    signed = f"{msg_id}.{timestamp}.".encode() + body
    return "v1," + base64.b64encode(hmac.new(secret, signed, hashlib.sha256).digest()).decode()


def headers(secret: bytes, msg_id: str, timestamp: int, body: bytes) -> dict[str, str]:
    return {"webhook-id": msg_id, "webhook-timestamp": str(timestamp),
            "webhook-signature": signature(secret, msg_id, timestamp, body),
            "Content-Type": "application/json", "User-Agent": "facedown-webhooks/1"}


def verify(secret: bytes, msg_id: str, timestamp: str, body: bytes, header: str) -> bool:
    """What a receiver checks: one of the space-separated signatures matches."""
    expected = signature(secret, msg_id, int(timestamp), body)
    return any(hmac.compare_digest(expected, s) for s in header.split())
