"""One delivery attempt over HTTP with requests: to the checked address, with timeouts, no
redirects (a redirect could lead anywhere), and the Standard Webhooks headers."""
from __future__ import annotations

import time
from dataclasses import dataclass

import requests

from service.adapters.outbound import TargetRefused, check, pinned_session, pinned_url
from service.adapters.webhooks import signing

CONNECT_TIMEOUT, READ_TIMEOUT = 3.05, 10.0


@dataclass(frozen=True, slots=True)
class Attempt:
    status: int | None
    error: str | None
    duration_ms: int

    @property
    def delivered(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


def send(url: str, secret: bytes, msg_id: str, body: bytes, allow_private: bool) -> Attempt:
    """POST ``body`` to ``url`` once; never raises."""
    start = time.monotonic()

    def done(status: int | None, error: str | None) -> Attempt:
        return Attempt(status, error, int((time.monotonic() - start) * 1000))

    try:
        target = check(url, allow_private)
    except TargetRefused as exc:
        return done(None, f"refused: {exc}")
    headers = signing.headers(secret, msg_id, int(time.time()), body)
    headers["Host"] = target.host if target.port in (80, 443) else f"{target.host}:{target.port}"
    with pinned_session(target) as session:
        try:
            r = session.post(pinned_url(target), data=body, headers=headers, allow_redirects=False,
                             timeout=(CONNECT_TIMEOUT, READ_TIMEOUT))
        except requests.RequestException as exc:
            return done(None, f"{type(exc).__name__}: {str(exc)[:300]}")
        r.close()
    return done(r.status_code, None if 200 <= r.status_code < 300 else f"HTTP {r.status_code}")
