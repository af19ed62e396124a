"""Per-caller rate limits: token buckets per authenticated player, else per client address.

A bot that loops on the API must not starve the players of a correspondence service.
Each worker process keeps its own buckets (in memory, the least recently seen callers
forgotten first), so the service-wide limit is the per-worker one times the workers;
that keeps the check free of any shared state on the hot path. Over a limit: 429
``rate-limited`` with ``Retry-After`` (seconds).

Three budgets, the last two a tenth of the first (``COSTLY_SHARE``, ``LOOKUP_SHARE``):

* every request, keyed by the player its bearer token authenticates, or by the client
  address when there is no token or it is not valid: however the header is spelled
  (``bearer``, trailing spaces), one player has one bucket, and a bad token buys nothing;
* **costly anonymous reads** (routes marked :func:`costly`: the audit, the game list),
  keyed by address: an audit can cost a thousand views; registration
  (:func:`per_address`) spends the same budget whoever calls;
* **token look-ups that found nothing**, keyed by address: a token this worker has not
  seen costs a database query, so an address whose budget of unknown tokens is spent
  gets 429 before its next query (``service.http.requests.look_up``).

The address is ``request.remote_addr`` (behind a proxy, configure it to set that to the
client's), and an IPv6 address counts by its /64: one host there holds a whole /64.
"""
from __future__ import annotations

import ipaddress
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from flask import Flask, current_app, request

from service.model.problems import Problem

EXEMPT = frozenset({"/healthz", "/readyz", "/openapi.yaml"})
COSTLY_SHARE = 0.1  # of the per-caller rate and burst, per address
LOOKUP_SHARE = 0.1
F = TypeVar("F", bound=Callable[..., Any])


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

    def _refilled(self, caller: str, now: float) -> _Bucket:
        bucket = self._buckets.get(caller)
        if bucket is None:
            bucket = self._buckets[caller] = _Bucket(self.burst, now)
            if len(self._buckets) > self.callers:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(caller)
            bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.at) * self.rate)
            bucket.at = now
        return bucket

    def wait(self, caller: str) -> float:
        """Take one request from ``caller``'s bucket: 0 if allowed, else seconds until it would be."""
        with self._lock:
            bucket = self._refilled(caller, self.clock())
            if bucket.tokens >= 1:
                bucket.tokens -= 1
                return 0.0
            return (1 - bucket.tokens) / self.rate

    def peek(self, caller: str) -> float:
        """Seconds until ``caller`` may send one request (0: now), taking nothing."""
        with self._lock:
            bucket = self._refilled(caller, self.clock())
            return 0.0 if bucket.tokens >= 1 else (1 - bucket.tokens) / self.rate

    def share(self, fraction: float) -> RateLimiter:
        """A limiter with ``fraction`` of this one's rate and burst (a burst of at least 1)."""
        return RateLimiter(self.rate * fraction, max(1.0, self.burst * fraction), self.callers, self.clock)


@dataclass(frozen=True)
class Limits:
    """One app's budgets (see the module docstring)."""

    requests: RateLimiter
    costly: RateLimiter
    lookups: RateLimiter


def costly(view: F) -> F:
    """Mark a route as a costly read: anonymous callers also spend their address's costly budget."""
    view.rate_class = "costly"  # type: ignore[attr-defined]
    return view


def per_address(view: F) -> F:
    """Mark a route whose every caller spends the address's costly budget: registration (a
    player may not mint players, each with a bucket of its own, at its own rate)."""
    view.rate_class = "per-address"  # type: ignore[attr-defined]
    return view


def address() -> str:
    """The client's address as a bucket key: the address, or the /64 of an IPv6 address (an
    IPv4 address mapped into IPv6, as a dual-stack socket shows it, is its IPv4 address)."""
    raw = request.remote_addr or "?"
    if ":" in raw:
        try:
            ip = ipaddress.IPv6Address(raw.split("%")[0])
        except ValueError:
            return "a:" + raw
        if ip.ipv4_mapped is not None:
            return "a:" + str(ip.ipv4_mapped)
        return "n:" + str(ipaddress.IPv6Network(f"{ip}/64", strict=False).network_address)
    return "a:" + raw


def limits() -> Limits | None:
    """This app's limits, or ``None`` when it has none."""
    return current_app.extensions.get("facedown_limits")


def too_many(wait: float, detail: str) -> Problem:
    return Problem("rate-limited", detail, headers={"Retry-After": str(max(1, math.ceil(wait)))})


def install(app: Flask, limiter: RateLimiter, claimed: Callable[[], str | None]) -> None:
    """Check every request but the health probes against ``limiter`` and its shares, keyed by
    the player ``claimed()`` says sent it (else the address). Authentication is handed in, as
    it asks these limits in turn before it looks up a token it does not know."""
    app.extensions["facedown_limits"] = budgets = Limits(limiter, limiter.share(COSTLY_SHARE),
                                                         limiter.share(LOOKUP_SHARE))

    @app.before_request
    def _limit() -> None:
        if request.path in EXEMPT:
            return
        who = claimed()  # may itself answer 429 (a spent budget of unknown tokens)
        wait = budgets.requests.wait("p:" + who if who is not None else address())
        if wait > 0:
            raise too_many(wait, f"more than {limiter.rate:g} requests per second; slow down")
        kind = getattr(app.view_functions.get(request.endpoint or ""), "rate_class", None)
        if kind == "per-address" or (kind == "costly" and who is None):
            wait = budgets.costly.wait(address())
            if wait > 0:
                raise too_many(wait, f"more than {budgets.costly.rate:g} costly requests per second from"
                                     " this address without a token; slow down")


_budgets_lock = threading.Lock()


def spend(name: str, key: str, rate: float, burst: float, what: str) -> None:
    """Take one from ``key``'s bucket of the budget ``name`` (one per app, made on first use,
    whatever the general limit: the game chat's, per player); 429 when it is spent."""
    config = current_app.extensions["facedown"].config
    with _budgets_lock:
        budgets = current_app.extensions.setdefault("facedown_budgets", {})
        limiter = budgets.get(name)
        if limiter is None:
            limiter = budgets[name] = RateLimiter(rate, burst, clock=config.extra.get("monotonic", time.monotonic))
    wait = limiter.wait(key)
    if wait > 0:
        raise too_many(wait, f"more than {burst:g} {what} at once, or {rate * 60:g} a minute; slow down")
