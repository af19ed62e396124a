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
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import orjson

from events import webhooks
from events.db import connect
from events.errors import StoreError
from events.webhooks import Due
from service.usecases.dependencies import Api
from service.usecases.inbox import notification_out
from service.model.notifications import wake_key
from service.adapters.webhooks import sending

log = logging.getLogger("facedown.webhooks")
LOCK_KEY = 0x66647768  # "fdwh": one delivering process at a time


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


def deliver(api: Api, policy: Policy, d: Due, now: datetime) -> str:
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
    result = webhooks.settle(api.db, d.delivery_id, d.attempt, attempt.status, attempt.error, attempt.duration_ms,
                             attempt.delivered, next_at, policy.disable_after)
    if result == "disabled":
        api.live.hint(wake_key(str(d.player_id)), 0)
    return result


def run_once(api: Api, policy: Policy, pool: ThreadPoolExecutor | None = None) -> int:
    """Claim and send one batch of due deliveries; returns how many were sent."""
    due = webhooks.claim(api.db, policy.batch, policy.lease_seconds)
    now = api.clock()
    if pool is None:
        for d in due:
            deliver(api, policy, d, now)
    else:
        list(pool.map(lambda d: deliver(api, policy, d, now), due))
    return len(due)


class DeliveryWorker:
    """A daemon thread (a greenlet under gevent) that delivers while it holds the lock."""

    def __init__(self, api: Api, policy: Policy) -> None:
        self.api, self.policy = api, policy
        self._stop = threading.Event()
        self.delivering = threading.Event()  # this process holds the lock
        self._thread = threading.Thread(target=self._run, name="facedown-webhooks", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        pool = ThreadPoolExecutor(self.policy.senders, thread_name_prefix="facedown-webhook-send")
        lock: Any = None
        while not self._stop.is_set():
            try:
                if lock is None:
                    lock = connect(self.api.db.url)
                    got = lock.execute("SELECT pg_try_advisory_lock(%s)", (LOCK_KEY,)).fetchone()[0]
                    if not got:
                        lock.close()
                        lock = None
                        self._stop.wait(5 * random.uniform(0.5, 1.5))  # another process delivers
                        continue
                    self.delivering.set()
                if run_once(self.api, self.policy, pool) == 0:
                    lock.execute("SELECT 1")  # the lock's session is alive (else reconnect)
                    self._stop.wait(self.policy.poll_seconds)
            except StoreError as exc:
                log.warning("webhook delivery paused: %s", exc)
                self.delivering.clear()
                if lock is not None:
                    try:
                        lock.close()
                    except Exception:  # noqa: BLE001 - it is being dropped anyway
                        pass
                lock = None
                self._stop.wait(2.0)
            except Exception:  # noqa: BLE001 - the thread must outlive any one bad batch
                log.exception("webhook delivery failed")
                self._stop.wait(self.policy.poll_seconds)
        pool.shutdown(wait=False)
        if lock is not None:
            lock.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
