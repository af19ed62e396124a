"""A sender killed between the SMTP server's acceptance and the settling loses nothing and,
when its lease runs out, sends the same message again (the same Message-ID, which mail
clients show once); the senders' threads wake on a commit's hint, not on a timer."""
from __future__ import annotations

import time
import uuid
from typing import Any

import pytest

from events import reach_outbox
from service.usecases import reach_mail
from service.usecases.reach_facts import Policy
from tests.service.reach.conftest import Reach

IMMEDIATE = {"email": {"turn": "immediate"}}


class Killed(BaseException):
    """The process dies here (nothing after it runs)."""


def test_a_sender_killed_after_the_send_sends_the_same_message_again_once(world: Reach,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    ann = world.player("Ann", address="ann@example.org", settings=IMMEDIATE)
    bob = world.player("Bob", address="bob@example.org", settings=IMMEDIATE)
    world.mail.run_once()  # the verification e-mails, out of the way
    world.smtp.messages.clear()
    gid = world.game(ann, bob)
    [first] = world.awaited(gid)
    address = "ann@example.org" if first == ann[0] else "bob@example.org"
    settle = reach_outbox.settle_mail

    def dies(*args: Any, **kwargs: Any) -> str:
        raise Killed

    monkeypatch.setattr(reach_mail.outbox, "settle_mail", dies)
    with pytest.raises(Killed):
        world.mail.run_once()
    [sent] = world.mails_to(address, "news")
    monkeypatch.setattr(reach_mail.outbox, "settle_mail", settle)
    world.mail.run_once()
    assert len(world.smtp.messages) == 1, "leased: nothing is sent again before the lease runs out"
    world.clock.move(seconds=Policy().lease_seconds + 1)
    world.send_all()
    again = world.mails_to(address, "news")
    assert len(again) == 2 and again[1].header("Message-ID") == sent.header("Message-ID")
    world.clock.move(seconds=Policy().lease_seconds + 1)
    world.send_all()
    assert len(world.mails_to(address, "news")) == 2, "settled: never a third time"
    [row] = [r for r in reach_outbox.mail_rows(world.deps.db, uuid.UUID(first)) if r.kind == "your_turn"]
    assert row.status == "sent" and row.claims == 2


def _until(check: Any, timeout: float = 10.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.005)
    return False


def test_the_senders_threads_wake_on_a_commit_and_one_process_sends(world: Reach, make_app: Any) -> None:
    config = {"smtp_url": world.smtp.url, "mail_from": "facedown <noreply@facedown.test>",
              "public_url": world.deps.config.public_url, "push_allow_private": True}
    # an idle sender looks only once a minute: what wakes it within the second is the hint
    apps = [make_app(reach_worker=True, extra={"clock": world.clock, "reach_policy": Policy(poll_seconds=60.0)},
                     **config) for _ in range(2)]
    mailers = [app.extensions["facedown_workers"]["reach"].workers[0] for app in apps]
    assert _until(lambda: sum(w.sending.is_set() for w in mailers) == 1), "one process sends e-mail"
    time.sleep(0.5)
    assert sum(w.sending.is_set() for w in mailers) == 1, "and only one"
    ann = world.player("Ann", address="ann@example.org", settings=IMMEDIATE)
    bob = world.player("Bob", address="bob@example.org", settings=IMMEDIATE)
    started = time.monotonic()
    gid = world.game(ann, bob)
    [first] = world.awaited(gid)
    address = "ann@example.org" if first == ann[0] else "bob@example.org"
    assert _until(lambda: world.mails_to(address, "news"), 5.0)
    took = time.monotonic() - started
    assert took < 2.0, f"the e-mail took {took:.2f} s after the commit"
