"""What the tests of the reach routes share: a server that sends e-mail (an SMTP server
configured; its sender not running, so the tests read the outbox rows it would send, with their
secrets as its claim gives them) and accepts push endpoints on loopback; and reading the store
as the sender does."""
from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone
from typing import Any

import requests

from events import reach_outbox
from events.db import Database
from events.roles import service_url
from tests.service.contract_watch import answers_checked
from tests.service.helpers import Live, Player, serve
from tests.support.smtp_server import SmtpServer

LEASE = 30 * 86400  # a claim in these tests holds its rows for the rest of the test


def reaching(database_url: str, **config: Any) -> Iterator[Live]:
    """A live server that sends e-mail (to a real SMTP server on loopback, though its sender
    does not run here) and takes push endpoints on loopback; every answer checked against
    openapi.yaml."""
    with SmtpServer() as smtp:
        for server in serve(database_url, smtp_url=smtp.url, push_allow_private=True, reach_worker=False, **config):
            with answers_checked(server.url) as wrong:
                yield server
            assert not wrong, "answers that break the contract:\n" + "\n".join(dict.fromkeys(wrong))


@contextmanager
def store(live: Live) -> Iterator[Database]:
    """The server's database, as the service's own login."""
    db = Database(service_url(live.database_url), max_size=2)
    try:
        yield db
    finally:
        db.close()


def claimed(live: Live, player: Player, kind: str | None = None) -> list[reach_outbox.ClaimedMail]:
    """The player's due e-mail rows (of ``kind``) as the sender's claim gives them, secrets
    included; claimed, so each is given once. The claim takes every due row: the others are put
    back, due at once (a postponement, as the sender's own)."""
    now = datetime.now(timezone.utc)
    with store(live) as db:
        rows = reach_outbox.claim_mail(db, 500, LEASE, now)
        mine = [m for m in rows if str(m.player_id) == player.id and (kind is None or m.kind == kind)]
        for other in rows:
            if other not in mine:
                reach_outbox.settle_mail(db, other, "postpone", now, next_at=now - timedelta(seconds=1))
    return mine


def mail_rows(live: Live, player: Player) -> list[reach_outbox.Row]:
    with store(live) as db:
        return reach_outbox.mail_rows(db, uuid.UUID(player.id))


def verified(live: Live, player: Player, address: str) -> None:
    """The player has this verified address (through the routes, as a player would)."""
    r = player._session().put(live.url + "/v1/me/email", json={"email": address}, headers=player.auth, timeout=10)
    assert r.status_code == 202, r.text
    [mail] = claimed(live, player, "verify_email")
    v = requests.post(live.url + "/v1/me/email/verify", json={"token": mail.secret}, timeout=10)  # no sign-in
    assert v.status_code == 200, v.text


def put(player: Player, path: str, body: Any) -> Any:
    return player._session().put(player.live.url + path, json=body, headers=player.auth, timeout=10)
