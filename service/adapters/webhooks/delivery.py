"""The delivery worker: sends the outbox, one process at a time.

Every worker process of ``facedown serve`` runs one; the one that holds a session advisory
lock (on its own connection) delivers, the others wait to take over. A delivery is claimed
with a lease, sent, and settled: a worker killed between claim and settle loses nothing,
the lease runs out and the delivery is sent again with the same ``webhook-id``.
"""
from __future__ import annotations

import logging
import os
import random
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

import orjson

from events import webhooks
from events.db import Database
from events.errors import StoreError
from events.locks import SessionLock
from events.webhooks import Due
from service.adapters.wakeups import Live
from service.adapters.webhooks import sending
from service.model.notifications import notification_out, wake_key

log = logging.getLogger("facedown.webhooks")


class Outbox(Protocol):
    """What delivering needs: the pool, the wake-ups (a disabled webhook's owner hears of
    it) and the clock (the use cases' dependencies have them)."""

    @property
    def db(self) -> Database: ...
    @property
    def live(self) -> Live: ...
    @property
    def clock(self) -> Callable[[], datetime]: ...


@dataclass(frozen=True)
class Policy:
    """Back-off between attempts (seconds after each failed one; its length is the number of
    retries), when a webhook is disabled, and how the worker paces itself."""

    retry_after: tuple[float, ...] = (5, 30, 120, 600, 1800, 3600, 10800, 21600)
    disable_after: int = 5  # deliveries in a row that failed for good
    lease_seconds: int = 60
    poll_seconds: float = 1.0
    batch: int = 32
    senders: int = 8
    allow_private: bool = False

    @staticmethod
    def from_env(allow_private: bool) -> Policy:
        """The defaults, or ``FACEDOWN_WEBHOOK_RETRY_SECONDS`` (comma-separated),
        ``FACEDOWN_WEBHOOK_DISABLE_AFTER`` and ``FACEDOWN_WEBHOOK_LEASE_SECONDS``."""
        env = os.environ.get
        retry = env("FACEDOWN_WEBHOOK_RETRY_SECONDS")
        return Policy(retry_after=tuple(float(x) for x in retry.split(",")) if retry else Policy.retry_after,
                      disable_after=int(env("FACEDOWN_WEBHOOK_DISABLE_AFTER", str(Policy.disable_after))),
                      lease_seconds=int(env("FACEDOWN_WEBHOOK_LEASE_SECONDS", str(Policy.lease_seconds))),
                      allow_private=allow_private)


def payload(d: Due) -> bytes:
    """The body: Standard Webhooks' ``{type, timestamp, data}``, ``data`` the notification
    exactly as the account stream and ``/v1/me/notifications`` show it."""
    data = notification_out(d.notification)
    return orjson.dumps({"type": data["kind"], "timestamp": data["at"], "data": data})


def message_id(d: Due) -> str:
    return f"msg_{d.delivery_id.hex}"


def deliver(outbox: Outbox, policy: Policy, d: Due, now: datetime) -> str:
    """Send one claimed delivery and record the attempt; returns how it was settled."""
    if d.secret is None:  # removed meanwhile
        attempt = sending.Attempt(None, "the webhook was removed", 0)
    else:
        attempt = sending.send(d.url, d.secret, message_id(d), payload(d), policy.allow_private)
    retries_left = d.attempt <= len(policy.retry_after)
    next_at = None
    if not attempt.delivered and retries_left and d.secret is not None:
        delay = policy.retry_after[d.attempt - 1]
        next_at = now + timedelta(seconds=delay * random.uniform(0.9, 1.1))
    result = webhooks.settle(outbox.db, d.delivery_id, d.attempt, attempt.status, attempt.error, attempt.duration_ms,
                             attempt.delivered, next_at, policy.disable_after)
    if result == "disabled":
        outbox.live.hint(wake_key(str(d.player_id)), 0)
    return result


def run_once(outbox: Outbox, policy: Policy, pool: ThreadPoolExecutor | None = None) -> int:
    """Claim and send one batch of due deliveries; returns how many were sent."""
    due = webhooks.claim(outbox.db, policy.batch, policy.lease_seconds)
    now = outbox.clock()
    if pool is None:
        for d in due:
            deliver(outbox, policy, d, now)
    else:
        list(pool.map(lambda d: deliver(outbox, policy, d, now), due))
    return len(due)


class DeliveryWorker:
    """A daemon thread (a greenlet under gevent) that delivers while it holds the lock."""

    def __init__(self, outbox: Outbox, policy: Policy) -> None:
        self.outbox, self.policy = outbox, policy
        self._stop = threading.Event()
        self.delivering = threading.Event()  # this process holds the lock
        self._thread = threading.Thread(target=self._run, name="facedown-webhooks", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        pool = ThreadPoolExecutor(self.policy.senders, thread_name_prefix="facedown-webhook-send")
        lock = SessionLock(self.outbox.db.url)
        while not self._stop.is_set():
            try:
                if not lock.held:
                    if not lock.acquire():
                        self._stop.wait(5 * random.uniform(0.5, 1.5))  # another process delivers
                        continue
                    self.delivering.set()
                if run_once(self.outbox, self.policy, pool) == 0:
                    lock.check()  # the lock's session is alive (else reconnect)
                    self._stop.wait(self.policy.poll_seconds)
            except StoreError as exc:
                log.warning("webhook delivery paused: %s", exc)
                self.delivering.clear()
                lock.release()
                self._stop.wait(2.0)
            except Exception:  # noqa: BLE001 - the thread must outlive any one bad batch
                log.exception("webhook delivery failed")
                self._stop.wait(self.policy.poll_seconds)
        pool.shutdown(wait=False)
        lock.release()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
