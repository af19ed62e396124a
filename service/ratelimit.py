"""Per-caller rate limits: a token bucket per bearer token (per client address without one).

A bot that loops on the API must not starve the players of a correspondence service.
Each worker process keeps its own buckets (in memory, the least recently seen callers
forgotten first), so the service-wide limit is the per-worker one times the workers;
that keeps the check free of any shared state on the hot path. Over the limit: 429
``rate-limited`` with ``Retry-After`` (seconds).
"""
from __future__ import annotations

import hashlib
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from flask import Flask, request

from service.problems import Problem

EXEMPT = frozenset({"/healthz", "/readyz", "/openapi.yaml"})


@dataclass
class _Bucket:
    tokens: float
    at: float


class RateLimiter:
    """``rate`` requests per second on average, ``burst`` at once, per caller."""

    def __init__(self, rate: float, burst: float, callers: int = 100_000,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.callers, self.clock = rate, burst, callers, clock
        self._buckets: OrderedDict[str, _Bucket] = OrderedDict()
        self._lock = threading.Lock()

    def wait(self, caller: str) -> float:
        """Take one request from ``caller``'s bucket: 0 if allowed, else seconds until it would be."""
        now = self.clock()
        with self._lock:
            bucket = self._buckets.get(caller)
            if bucket is None:
                bucket = self._buckets[caller] = _Bucket(self.burst, now)
                if len(self._buckets) > self.callers:
                    self._buckets.popitem(last=False)
            else:
                self._buckets.move_to_end(caller)
                bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.at) * self.rate)
                bucket.at = now
            if bucket.tokens >= 1:
                bucket.tokens -= 1
                return 0.0
            return (1 - bucket.tokens) / self.rate


def _caller() -> str:
    header = request.headers.get("Authorization", "")
    if header:  # the token's digest: the limiter never holds a usable token
        return "t:" + hashlib.sha256(header.encode("utf-8", "surrogatepass")).hexdigest()
    return "a:" + (request.remote_addr or "?")


def install(app: Flask, limiter: RateLimiter) -> None:
    """Check every request but the health probes against ``limiter``."""

    @app.before_request
    def _limit() -> None:
        if request.path in EXEMPT:
            return
        wait = limiter.wait(_caller())
        if wait > 0:
            raise Problem("rate-limited", f"more than {limiter.rate:g} requests per second; slow down",
                          headers={"Retry-After": str(max(1, math.ceil(wait)))})
