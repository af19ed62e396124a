"""The e-mail sender: claim due rows of the mail outbox, decide each
(``service.model.reach_messages.decide``: the player's settings, quiet hours, digests, an open
page), render it in the player's language, send the batch over one SMTP connection, and
settle each row with what became of it and the rows it causes (``then``: a turn's reminders,
the digest it joins, a moved deadline's new reminders), in the settling's transaction.

A sender killed between the SMTP server's acceptance and the settling leaves the row leased;
it comes due again when the lease runs out and goes again with the same Message-ID (made from
the row's id), which mail clients show once (docs/reaching-players.md).
"""
from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from events import reach_outbox as outbox
from events.reach_outbox import ClaimedMail, MailItem
from service.adapters.mail import Mail, Mailer, SmtpConfig
from service.adapters.rendering.render import Reader, Renderer
from service.model import reach, reach_messages as rm
from service.usecases import reach_facts as facts
from service.usecases.dependencies import Dependencies
from service.usecases.reach_facts import Policy, Recipient

log = logging.getLogger("facedown.mail")
NO_SERVER = "no e-mail server"


@dataclass(frozen=True)
class Plan:
    """What to do with one claimed row: ``send`` (``mail``), or settle it at once as
    ``skipped`` / ``postpone`` (until ``at``); ``then``: the rows it causes, either way."""

    outcome: str
    mail: Mail | None = None
    reason: str | None = None
    at: datetime | None = None
    then: list[MailItem] = field(default_factory=list)


def mailer_of(deps: Dependencies) -> Mailer | None:
    """The configured mailer, or None when the server sends no e-mail (no FACEDOWN_SMTP_URL)."""
    c = deps.config
    if not c.smtp_url:
        return None
    context = c.extra.get("smtp_tls_context")  # tests: their own server's certificate
    return Mailer(SmtpConfig.parse(c.smtp_url), c.mail_from, context)


class MailSender:
    """Sends due e-mail; :meth:`run_once` handles one batch (the worker thread calls it, and
    so may a test, after moving the clock)."""

    def __init__(self, deps: Dependencies, policy: Policy | None = None, mailer: Mailer | None = None) -> None:
        self.deps = deps
        self.policy = policy or Policy()
        self.mailer = mailer if mailer is not None else mailer_of(deps)
        self.renderer = Renderer(deps.config.public_url)

    def run_once(self) -> int:
        """Claim, decide, send and settle one batch; how many rows were claimed."""
        db, now = self.deps.db, self.deps.clock()
        rows = outbox.claim_mail(db, self.policy.batch, self.policy.lease_seconds, now)
        if not rows:
            return 0
        if self.mailer is None:  # nothing is e-mailed: nothing piles up either
            for row in rows:
                outbox.settle_mail(db, row, "skipped", now, error=NO_SERVER)
            return len(rows)
        who = facts.recipients(self.deps, (r.player_id for r in rows))
        rows_of = facts.games(self.deps, (r.game_id for r in rows))
        pages = facts.open_pages(self.deps, [r.player_id for r in rows], now)
        plans = [self._plan(r, who[r.player_id], rows_of.get(r.game_id) if r.game_id else None,
                            pages.get(r.player_id, set()), now) for r in rows]
        sending = [(r, p) for r, p in zip(rows, plans) if p.outcome == "send"]
        results = self.mailer.send([p.mail for _, p in sending if p.mail is not None]) if sending else []
        for (row, plan), sent in zip(sending, results):
            self._settle_sent(row, plan, sent.status, sent.detail, now)
        for row, plan in zip(rows, plans):
            if plan.outcome != "send":
                outbox.settle_mail(db, row, plan.outcome, now, error=plan.reason,
                                   next_at=plan.at if plan.outcome == "postpone" else None, then=plan.then)
        return len(rows)

    def purge(self) -> int:
        """Forget rows settled more than the retention ago (their unsubscribe links with them)
        and verification tokens used or expired as long ago."""
        return outbox.purge(self.deps.db, self.deps.clock() - timedelta(days=self.policy.keep_days))

    def _settle_sent(self, row: ClaimedMail, plan: Plan, status: str, detail: str | None, now: datetime) -> None:
        db = self.deps.db
        if status == "sent":
            outbox.settle_mail(db, row, "sent", now, then=plan.then)
            return
        again = self.policy.next_try(row.failures, now) if status == "retry" else None
        if again is None:
            log.warning("e-mail %s given up: %s", row.mail_id, detail)
            outbox.settle_mail(db, row, "failed", now, error=detail, then=plan.then)
        else:
            outbox.settle_mail(db, row, "retry", now, error=detail, next_at=again, then=plan.then)

    # --- deciding ----------------------------------------------------------------------------

    def _plan(self, row: ClaimedMail, who: Recipient, game: facts.IndexRow | None,
              pages: set[uuid.UUID | None], now: datetime) -> Plan:
        settings = who.settings
        if row.address is None:
            return Plan("skipped", reason="no verified address")
        if row.kind in rm.ASKED:
            return self._mail(row, who, row.kind, row.args, now)
        if row.kind == "digest":
            return self._digest(row, who, pages, now)
        if game is None:
            return Plan("skipped", reason="the game is gone")
        wait = facts.wait_of(row.kind, row.notification, row.args, game, row.player_id)
        seat, awaited, deadline = wait.seat, wait.awaited, wait.deadline
        # a page of the game, or any page (each shows what waits for the player)
        site_open = game.id in pages or None in pages
        if row.kind == "your_turn":
            if not awaited:
                return Plan("skipped", reason="no longer awaited")
            then = self._reminders(row, seat, deadline, settings.email.reminders, now)
            decision = rm.decide(settings, "email", "your_turn", now, page_open=site_open)
            if decision.action == "digest":
                assert decision.at is not None
                digest = MailItem(row.player_id, "digest", dedup_key=rm.digest_key(decision.at), due_at=decision.at)
                return Plan("skipped", reason="in the digest", then=[*then, digest])
            return self._decided(decision, row, who, facts.message("your_turn", game, row.player_id, deadline),
                                 now, then)
        if row.kind == "reminder":
            lead = int(row.args.get("lead", 0))
            if not wait.reminder_stands(row.args):
                moved = self._reminders(row, seat, deadline, settings.email.reminders, now) if awaited else []
                return Plan("skipped", reason="the deadline moved" if moved else "no longer awaited", then=moved)
            decision = rm.decide(settings, "email", "reminder", now, deadline=deadline, lead=lead,
                                 page_open=site_open)
            return self._decided(decision, row, who, facts.message("reminder", game, row.player_id, deadline, lead),
                                 now, [])
        if not facts.still_stands(row.kind, game, row.player_id):
            return Plan("skipped", reason="no longer invited")
        decision = rm.decide(settings, "email", row.kind, now, page_open=site_open)
        return self._decided(decision, row, who, facts.message(row.kind, game, row.player_id, notification=row.notification),
                             now, [])

    def _reminders(self, row: ClaimedMail, seat: int | None, deadline: datetime | None, leads: tuple[int, ...],
                   now: datetime) -> list[MailItem]:
        if seat is None or deadline is None or row.game_id is None:
            return []
        return [MailItem(row.player_id, "reminder", facts.reminder_args(seat, deadline, r.lead), game_id=row.game_id,
                         dedup_key=r.key, due_at=r.at)
                for r in rm.reminders(leads, str(row.game_id), seat, deadline, now)]

    def _digest(self, row: ClaimedMail, who: Recipient, pages: set[uuid.UUID | None], now: datetime) -> Plan:
        waiting = facts.waiting_for(self.deps, row.player_id, pages)
        message = rm.digest(waiting)
        if message is None:
            return Plan("skipped", reason="nothing waits")
        return self._decided(rm.decide(who.settings, "email", "digest", now), row, who, message, now, [])

    def _decided(self, decision: rm.Decision, row: ClaimedMail, who: Recipient, message: rm.Message,
                 now: datetime, then: list[MailItem]) -> Plan:
        if decision.action == "skip":
            return Plan("skipped", reason=decision.reason, then=then)
        if decision.action == "wait":
            return Plan("postpone", reason=decision.reason or "quiet hours", at=decision.at, then=then)
        plan = self._mail(row, who, message.key, message.args, now)
        return Plan(plan.outcome, plan.mail, plan.reason, plan.at, then)

    def _mail(self, row: ClaimedMail, who: Recipient, key: str, args: dict, now: datetime) -> Plan:  # type: ignore[type-arg]
        base = self.deps.config.public_url
        unsubscribe = f"{base}/v1/unsubscribe/{row.unsubscribe}" if reach.unsubscribe(row.kind) else None
        reader = Reader(who.locale, who.settings.time_zone, now)
        text = self.renderer.mail(key, args, reader, secret=row.secret, unsubscribe_url=unsubscribe)
        assert row.address is not None
        return Plan("send", Mail(row.address, text.subject, text.text, row.mail_id.hex, text.html, unsubscribe,
                                 text.language, now))
