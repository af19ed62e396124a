"""The e-mail and push senders' threads: every process of ``facedown serve`` runs one of
each (``Config.reach_worker``), and the one holding the channel's session advisory lock
(``events.reach_outbox.SenderLock``) sends; the others wait to take over.

A sender wakes on any player's news (the post-commit hint ``player-<id>`` that every
append with notifications sends through LISTEN/NOTIFY) and otherwise looks every couple of
seconds, for rows that came due on their own (a reminder, a digest, quiet hours' end, a retry).
The hints of a busy server (one or more per command) are gathered for ``GATHER`` seconds
into one look, and the lock's session is checked at most every ``LOCK_CHECK`` seconds: a
look and a check per hint were four statements per command (docs/performance.md).
"""
from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable

from events.errors import StoreError
from events.reach_outbox import MAIL_LOCK, PUSH_LOCK, SenderLock
from service.model.notifications import wake_key
from service.usecases.dependencies import Dependencies
from service.usecases.reach_facts import Policy
from service.usecases.reach_mail import MailSender
from service.usecases.reach_push import PushSender

log = logging.getLogger("facedown.reach")
HINT_PREFIX = wake_key("")  # "player-": every player's news
#: seconds a woken sender waits for more hints before it looks (a person's news waits that
#: much longer; the rows themselves are written by the append, so nothing waits on the hint)
GATHER = 0.1
#: seconds between checks that the lock's session is alive. Two processes both sending for
#: that long after a lost session send nothing twice: each claim leases its own rows.
LOCK_CHECK = 5.0


class SenderWorker:
    """A daemon thread that runs ``run_once`` while this process holds the lock ``key``."""

    def __init__(self, deps: Dependencies, name: str, key: int, run_once: Callable[[], int], poll: float,
                 close: Callable[[], None] | None = None, chores: tuple[Callable[[], object], float] | None = None
                 ) -> None:
        self.deps, self.name, self.key, self.run_once, self.poll = deps, name, key, run_once, poll
        self._close = close
        self._chores = chores  # (what the sending process does now and then, every so many seconds)
        self._chores_at = 0.0
        self._stop = threading.Event()
        self._wake = threading.Event()
        self.sending = threading.Event()  # this process holds the lock
        self._thread = threading.Thread(target=self._run, name=f"facedown-{name}", daemon=True)
        self._thread.start()

    def wake(self) -> None:
        self._wake.set()

    def _run(self) -> None:
        lock = SenderLock(self.deps.db.url, self.key)
        checked = 0.0  # when the lock was last seen held
        while not self._stop.is_set():
            try:
                if time.monotonic() - checked >= LOCK_CHECK or not self.sending.is_set():
                    if not lock.held():
                        self.sending.clear()
                        if not lock.acquire():
                            self._stop.wait(5 * random.uniform(0.5, 1.5))  # another process sends
                            continue
                        self.sending.set()
                    checked = time.monotonic()
                if self._chores is not None and time.monotonic() >= self._chores_at:
                    self._chores_at = time.monotonic() + self._chores[1]
                    self._chores[0]()
                self._wake.clear()  # cleared before the claim: a hint during it is not lost
                if self.run_once() == 0 and self._wake.wait(self.poll) and not self._stop.is_set():
                    self._stop.wait(GATHER)  # the hints of the next moments come into one look
            except StoreError as exc:
                log.warning("%s sender paused: %s", self.name, exc)
                self.sending.clear()
                lock.release()
                self._stop.wait(2.0)
            except Exception:  # noqa: BLE001 - the thread must outlive any one bad batch
                log.exception("%s sender failed", self.name)
                self._stop.wait(self.poll)
        lock.release()
        if self._close is not None:
            self._close()

    def close(self) -> None:
        self._stop.set()
        self._wake.set()
        self._thread.join(timeout=5)


class ReachWorkers:
    """Both senders of this process, woken by any player's news."""

    def __init__(self, deps: Dependencies, policy: Policy | None = None) -> None:
        policy = policy or Policy()
        self.mail = MailSender(deps, policy)
        self.push = PushSender(deps, policy)
        self.workers = (SenderWorker(deps, "mail", MAIL_LOCK, self.mail.run_once, policy.poll_seconds,
                                     chores=(self.mail.purge, policy.purge_every_seconds)),
                        SenderWorker(deps, "push", PUSH_LOCK, self.push.run_once, policy.poll_seconds,
                                     self.push.close))
        deps.live.on_prefix(HINT_PREFIX, self._wake)

    def _wake(self) -> None:
        for worker in self.workers:
            worker.wake()

    def close(self) -> None:
        for worker in self.workers:
            worker.close()
