"""A player's e-mail address and signing in by e-mail, called as use cases on a real PostgreSQL:
the verification link's token travels in the outbox row only (its SHA-256 kept), works once,
for 24 hours, for the latest address; a withdrawn address is forgotten everywhere; and signing
in by e-mail writes a code's e-mail for a verified address only, answering the same, after the
same time, whatever the address."""
from __future__ import annotations

import dataclasses
import time
import uuid
from datetime import timedelta

import pytest

from events import reach, reach_outbox
from service.model.problems import Problem
from service.usecases import accounts, emails, sessions
from service.usecases.dependencies import Dependencies
from tests.service.usecases.conftest import player

SMTP = "smtp://127.0.0.1:2525"


@pytest.fixture
def mailing(deps: Dependencies) -> Dependencies:
    """The dependencies of a server that sends e-mail (an SMTP server configured; no sender runs:
    these tests read what is written for it)."""
    deps.config = dataclasses.replace(deps.config, smtp_url=SMTP)
    return deps


def _claimed(deps: Dependencies, pid: str) -> list[reach_outbox.ClaimedMail]:
    """The player's due e-mail rows as the sender would claim them (with their secrets)."""
    return [m for m in reach_outbox.claim_mail(deps.db, 50, 30 * 86400, deps.clock()) if str(m.player_id) == pid]


def _verified(deps: Dependencies, pid: str, address: str) -> None:
    emails.set_email(deps, pid, address)
    [mail] = [m for m in _claimed(deps, pid) if m.kind == "verify_email"]
    emails.verify(deps, mail.secret)


def test_an_address_is_verified_once_by_the_token_its_e_mail_carries(mailing: Dependencies) -> None:
    pid, _ = player(mailing, "ann")
    assert emails.set_email(mailing, pid, "  Ann.Lee@Example.ORG ") == {"email": "Ann.Lee@example.org",
                                                                       "email_verified": False}
    me = accounts.me(mailing, pid)
    assert (me["email"], me["email_verified"], me["email_sending"]) == ("Ann.Lee@example.org", False, True)
    [row] = reach_outbox.mail_rows(mailing.db, uuid.UUID(pid))
    assert row.kind == "verify_email" and row.status == "pending"
    assert row.args["address"] == "Ann.Lee@example.org" and row.args["expires_at"]
    [mail] = _claimed(mailing, pid)
    assert mail.address == "Ann.Lee@example.org" and mail.secret and len(mail.secret) >= 43
    assert emails.verify(mailing, mail.secret) == {"email": "Ann.Lee@example.org", "email_verified": True}
    assert accounts.me(mailing, pid)["email_verified"] is True
    with pytest.raises(Problem) as again:
        emails.verify(mailing, mail.secret)
    assert again.value.slug == "invalid-token" and "used" in again.value.detail
    with pytest.raises(Problem) as unknown:
        emails.verify(mailing, mail.secret + "x")
    assert unknown.value.slug == "invalid-token" and "not valid" in unknown.value.detail


def test_a_token_expires_after_a_day_and_a_newer_address_replaces_the_older_link(mailing: Dependencies) -> None:
    pid, _ = player(mailing, "ann")
    start = mailing.clock()
    mailing.clock = lambda: start
    emails.set_email(mailing, pid, "ann@example.org")
    [first] = _claimed(mailing, pid)
    mailing.clock = lambda: start + timedelta(hours=24, seconds=1)
    with pytest.raises(Problem) as expired:
        emails.verify(mailing, first.secret)
    assert expired.value.slug == "invalid-token" and "expired" in expired.value.detail
    mailing.clock = lambda: start + timedelta(hours=25)
    emails.set_email(mailing, pid, "ann@example.net")
    [second] = _claimed(mailing, pid)
    emails.set_email(mailing, pid, "ann@example.com")
    with pytest.raises(Problem) as replaced:
        emails.verify(mailing, second.secret)
    assert replaced.value.slug == "invalid-token" and "replaced" in replaced.value.detail
    for refusal in (expired.value, replaced.value):
        assert "example" not in refusal.detail and pid not in refusal.detail  # no address, no account


def test_a_corrected_address_is_sent_the_only_link(mailing: Dependencies) -> None:
    pid, _ = player(mailing, "ann")
    emails.set_email(mailing, pid, "ann@exmaple.org")  # mistyped, corrected before its e-mail went
    emails.set_email(mailing, pid, "ann@example.org")
    rows = reach_outbox.mail_rows(mailing.db, uuid.UUID(pid))
    assert [(r.kind, r.status) for r in rows] == [("verify_email", "skipped"), ("verify_email", "pending")]
    [mail] = _claimed(mailing, pid)
    assert mail.address == "ann@example.org"
    assert emails.verify(mailing, mail.secret)["email_verified"] is True


@pytest.mark.parametrize("raw", ["", "ann", "ann@", "@example.org", "ann@localhost", "a b@example.org",
                                 "ann@exa\nmple.org", "ü@example.org", "a" * 250 + "@example.org", 7, None])
def test_what_is_not_an_address_is_422_naming_email(mailing: Dependencies, raw: object) -> None:
    pid, _ = player(mailing, "ann")
    with pytest.raises(Problem) as refused:
        emails.set_email(mailing, pid, raw)
    assert refused.value.slug == "validation" and list(refused.value.extra["errors"]) == ["email"]
    assert reach_outbox.mail_rows(mailing.db, uuid.UUID(pid)) == []


def test_a_server_without_smtp_refuses_an_address_and_every_sign_in_by_e_mail_alike(deps: Dependencies) -> None:
    pid, _ = player(deps, "ann")
    assert accounts.me(deps, pid)["email_sending"] is False
    for call in (lambda: emails.set_email(deps, pid, "ann@example.org"),
                 lambda: emails.sign_in_by_email(deps, "ann@example.org"),
                 lambda: emails.sign_in_by_email(deps, "not an address")):
        with pytest.raises(Problem) as refused:
            call()
        assert refused.value.slug == "email-unavailable" and refused.value.status == 409
    assert reach.email_of(deps.db, uuid.UUID(pid)) is None


def test_a_withdrawn_address_is_forgotten_with_its_tokens_and_pending_e_mails(mailing: Dependencies) -> None:
    pid, _ = player(mailing, "ann")
    emails.set_email(mailing, pid, "ann@example.org")
    emails.forget(mailing, pid)
    assert reach.email_of(mailing.db, uuid.UUID(pid)) is None
    assert accounts.me(mailing, pid)["email"] is None
    [row] = reach_outbox.mail_rows(mailing.db, uuid.UUID(pid))
    assert row.status == "skipped" and "address" not in row.args
    assert _claimed(mailing, pid) == []
    with mailing.db.connection() as conn:
        kept = conn.execute("SELECT count(*) FROM mail_outbox WHERE to_address IS NOT NULL").fetchone()
    assert kept == (0,)
    emails.forget(mailing, pid)  # again: nothing to forget, no error


def test_sign_in_by_e_mail_writes_a_code_for_a_verified_address_only(mailing: Dependencies) -> None:
    ann, _ = player(mailing, "ann")
    bob, _ = player(mailing, "bob")
    _verified(mailing, ann, "ann@example.org")
    emails.set_email(mailing, bob, "bob@example.org")  # given, never verified
    _claimed(mailing, bob)
    answers = [emails.sign_in_by_email(mailing, a) for a in ("ANN@example.org", "bob@example.org",
                                                              "nobody@example.org")]
    assert answers[0] == answers[1] == answers[2] == {"expires_in": sessions.CODE_SECONDS}
    assert [r.kind for r in reach_outbox.mail_rows(mailing.db, uuid.UUID(bob))] == ["verify_email"]
    [row] = [r for r in reach_outbox.mail_rows(mailing.db, uuid.UUID(ann)) if r.kind == "signin_code"]
    assert set(row.args) == {"expires_at"}
    [mail] = _claimed(mailing, ann)
    assert mail.kind == "signin_code" and mail.address == "ann@example.org"  # the verified one, at send time
    assert len(mail.secret) == 11 and mail.secret[5] == "-"
    opened = sessions.sign_in_with_code(mailing, mail.secret)
    assert opened["player"]["id"] == ann
    with pytest.raises(Problem) as twice:
        sessions.sign_in_with_code(mailing, mail.secret)
    assert twice.value.slug == "invalid-code"


def test_an_inbox_gets_at_most_three_live_codes_at_once(mailing: Dependencies) -> None:
    ann, _ = player(mailing, "ann")
    _verified(mailing, ann, "ann@example.org")
    start = mailing.clock()
    mailing.clock = lambda: start
    for _ in range(5):
        emails.sign_in_by_email(mailing, "ann@example.org")
    codes = [r for r in reach_outbox.mail_rows(mailing.db, uuid.UUID(ann)) if r.kind == "signin_code"]
    assert len(codes) == sessions.MAX_EMAILED_CODES
    mailing.clock = lambda: start + timedelta(seconds=sessions.CODE_SECONDS + 1)  # those have expired
    emails.sign_in_by_email(mailing, "ann@example.org")
    assert len([r for r in reach_outbox.mail_rows(mailing.db, uuid.UUID(ann)) if r.kind == "signin_code"]) == 4


def test_sign_in_by_e_mail_takes_as_long_for_an_account_as_for_none(mailing: Dependencies) -> None:
    ann, _ = player(mailing, "ann")
    _verified(mailing, ann, "ann@example.org")

    def took(address: str) -> float:
        began = time.monotonic()
        emails.sign_in_by_email(mailing, address)
        return time.monotonic() - began

    known = [took("ann@example.org") for _ in range(2)]
    unknown = [took(f"nobody{i}@example.org") for i in range(2)]
    floor = emails.SIGNIN_ANSWER_SECONDS
    assert all(t >= floor for t in known + unknown)
    # both are the floor, give or take a scheduler's slice: the work was done inside it
    assert abs(min(known) - min(unknown)) < 0.05, (known, unknown)


def test_verifying_an_address_takes_it_from_the_account_that_had_it(mailing: Dependencies) -> None:
    ann, _ = player(mailing, "ann")
    bob, _ = player(mailing, "bob")
    _verified(mailing, ann, "shared@example.org")
    _verified(mailing, bob, "Shared@example.org")
    assert accounts.me(mailing, ann)["email_verified"] is False
    assert reach.email_owner(mailing.db, "shared@example.org") == uuid.UUID(bob)
    emails.sign_in_by_email(mailing, "shared@example.org")
    assert [r.kind for r in reach_outbox.mail_rows(mailing.db, uuid.UUID(bob))][-1] == "signin_code"
    assert "signin_code" not in [r.kind for r in reach_outbox.mail_rows(mailing.db, uuid.UUID(ann))]
