"""The push sender: claim due rows of the push outbox (one per subscription), decide each
with the player's push settings and quiet hours, render the title and body in the player's
language, encrypt and send (RFC 8291, signed with the server's VAPID key, RFC 8292), and
settle: sent, retried with back-off (or after the push service's ``Retry-After``), failed, or
gone (404/410: the subscription is removed and its other pending pushes skipped).

A push about a game carries the game's ``Topic``: sent again after a crash, or superseded by
a newer push while the browser is offline, the push service keeps one. An open page does not
hold a push back: the page itself decides whether its service worker shows it.
"""
from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime

from events import reach_outbox as outbox
from events.reach_outbox import ClaimedPush, PushItem
from service.adapters.push import Push, Pusher, Subscription
from service.adapters.rendering.render import Reader, Renderer
from service.model import reach_messages as rm
from service.usecases import reach_facts as facts
from service.usecases.dependencies import Dependencies
from service.usecases.push_keys import server_key
from service.usecases.reach_facts import Policy, Recipient

log = logging.getLogger("facedown.push")
DAY = 24 * 3600
URGENCY = {"your_turn": "normal", "reminder": "high", "game_over": "low", "invited": "normal", "chat": "normal",
           "tournament_round": "normal"}


@dataclass(frozen=True)
class Plan:
    outcome: str  # send, skipped, postpone
    push: Push | None = None
    reason: str | None = None
    at: datetime | None = None
    then: list[PushItem] = field(default_factory=list)


def _ttl(deadline: datetime | None, now: datetime) -> int:
    """How long a push service keeps a push for an offline browser: a day, and never past the
    deadline it is about (a reminder of a passed deadline is noise)."""
    if deadline is None:
        return DAY
    return int(max(60, min(DAY, (deadline - now).total_seconds())))


class PushSender:
    """Sends due pushes; :meth:`run_once` handles one batch."""

    def __init__(self, deps: Dependencies, policy: Policy | None = None, pusher: Pusher | None = None) -> None:
        self.deps = deps
        self.policy = policy or Policy()
        self._pusher = pusher
        self.renderer = Renderer(deps.config.public_url)
        self._pool: ThreadPoolExecutor | None = None

    @property
    def pusher(self) -> Pusher:
        """Made at the first push: the server's key pair is read (or made) then, not when the
        app starts (the database may be away then)."""
        if self._pusher is None:
            c = self.deps.config
            self._pusher = Pusher(server_key(self.deps), c.vapid_contact, c.push_allow_private)
        return self._pusher

    def run_once(self) -> int:
        """Claim, decide, send and settle one batch; how many rows were claimed."""
        db, now = self.deps.db, self.deps.clock()
        rows = outbox.claim_push(db, self.policy.batch, self.policy.lease_seconds, now)
        if not rows:
            return 0
        who = facts.recipients(self.deps, (r.player_id for r in rows))
        games = facts.games(self.deps, (r.game_id for r in rows))
        plans = [self._plan(r, who[r.player_id], games.get(r.game_id) if r.game_id else None, now) for r in rows]
        for row, plan in zip(rows, plans):
            if plan.outcome != "send":
                outbox.settle_push(db, row, plan.outcome, now, error=plan.reason,
                                   next_at=plan.at if plan.outcome == "postpone" else None, then=plan.then)
        sending = [(r, p) for r, p in zip(rows, plans) if p.outcome == "send"]
        if len(sending) > 1:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self.policy.senders, thread_name_prefix="facedown-push-send")
            list(self._pool.map(lambda rp: self._send(rp[0], rp[1], now), sending))
        else:
            for row, plan in sending:
                self._send(row, plan, now)
        return len(rows)

    def _send(self, row: ClaimedPush, plan: Plan, now: datetime) -> None:
        assert plan.push is not None
        pushed = self.pusher.send(Subscription.of(row.endpoint, row.p256dh, row.auth), plan.push, now)
        db = self.deps.db
        if pushed.status in ("sent", "gone"):
            outbox.settle_push(db, row, pushed.status, now, status=pushed.code, error=pushed.detail, then=plan.then)
            return
        again = self.policy.next_try(row.failures, now, pushed.retry_after) if pushed.status == "retry" else None
        if again is None:
            log.warning("push %s given up: %s", row.push_id, pushed.detail)
            outbox.settle_push(db, row, "failed", now, status=pushed.code, error=pushed.detail, then=plan.then)
        else:
            outbox.settle_push(db, row, "retry", now, status=pushed.code, error=pushed.detail, next_at=again,
                               then=plan.then)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False)

    # --- deciding ----------------------------------------------------------------------------

    def _plan(self, row: ClaimedPush, who: Recipient, game: facts.IndexRow | None, now: datetime) -> Plan:
        settings = who.settings
        if game is None:
            return Plan("skipped", reason="the game is gone")
        wait = facts.wait_of(row.kind, row.notification, row.args, game, row.player_id)
        seat, awaited, deadline = wait.seat, wait.awaited, wait.deadline
        if row.kind == "your_turn":
            if not awaited:
                return Plan("skipped", reason="no longer awaited")
            then = self._reminders(row, seat, deadline, settings.push.reminders, now)
            decision = rm.decide(settings, "push", "your_turn", now)
            return self._decided(decision, row, who, facts.message("your_turn", game, row.player_id, deadline),
                                 deadline, now, then)
        if row.kind == "reminder":
            lead = int(row.args.get("lead", 0))
            if not wait.reminder_stands(row.args):
                moved = self._reminders(row, seat, deadline, settings.push.reminders, now) if awaited else []
                return Plan("skipped", reason="the deadline moved" if moved else "no longer awaited", then=moved)
            decision = rm.decide(settings, "push", "reminder", now, deadline=deadline, lead=lead)
            return self._decided(decision, row, who, facts.message("reminder", game, row.player_id, deadline, lead),
                                 deadline, now, [])
        if not facts.still_stands(row.kind, game, row.player_id):
            return Plan("skipped", reason="no longer invited")
        decision = rm.decide(settings, "push", row.kind, now)
        return self._decided(decision, row, who, facts.message(row.kind, game, row.player_id, notification=row.notification),
                             None, now, [])

    def _reminders(self, row: ClaimedPush, seat: int | None, deadline: datetime | None, leads: tuple[int, ...],
                   now: datetime) -> list[PushItem]:
        if seat is None or deadline is None or row.game_id is None:
            return []
        return [PushItem(row.player_id, row.subscription_id, "reminder", facts.reminder_args(seat, deadline, r.lead),
                         game_id=row.game_id, dedup_key=r.key, due_at=r.at)
                for r in rm.reminders(leads, str(row.game_id), seat, deadline, now)]

    def _decided(self, decision: rm.Decision, row: ClaimedPush, who: Recipient, message: rm.Message,
                 deadline: datetime | None, now: datetime, then: list[PushItem]) -> Plan:
        if decision.action == "skip":
            return Plan("skipped", reason=decision.reason, then=then)
        if decision.action == "wait":
            return Plan("postpone", reason="quiet hours", at=decision.at, then=then)
        text = self.renderer.push(message.key, message.args, Reader(who.locale, who.settings.time_zone, now))
        push = Push(row.kind, str(row.game_id) if row.game_id else None, text.title, text.body, text.url,
                    ttl=_ttl(deadline, now), urgency=URGENCY.get(row.kind, "normal"))
        return Plan("send", push, then=then)
