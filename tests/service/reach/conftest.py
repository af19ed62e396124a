"""The e-mail and push senders on a real PostgreSQL, with the SMTP server and the push service
of tests/support, on a clock the test moves. Players, addresses, subscriptions and settings
are written through ``events.reach`` (the routes are another part's)."""
from __future__ import annotations

import hashlib
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest

from events import game_index, reach, reach_outbox, roles
from events.db import Database
from events.reach_outbox import MailItem
from events.store import EventStore
from service.adapters.wakeups import Live
from service.config import Config
from service.model import reach as reach_model
from service.model import reach_messages as rm
from service.usecases import accounts, lobby, playing, reading
from service.adapters.push import unb64url
from service.usecases.dependencies import Dependencies
from service.usecases.push_keys import server_key
from service.usecases.reach_mail import MailSender
from service.usecases.reach_push import PushSender
from tests.support.push_service import PushService
from tests.support.smtp_server import SmtpServer

PUBLIC = "https://play.facedown.test"
START = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)  # a Monday


@dataclass
class Clock:
    now: datetime = START

    def __call__(self) -> datetime:
        return self.now

    def move(self, **delta: float) -> datetime:
        self.now += timedelta(**delta)
        return self.now


@dataclass
class Reach:
    """A test's world: the use cases' dependencies on the moved clock, the SMTP server, the
    push service, and both senders."""

    deps: Dependencies
    clock: Clock
    smtp: SmtpServer
    push: PushService
    mail: MailSender
    pusher: PushSender
    tokens: dict[str, str] = field(default_factory=dict)  # player -> bearer token

    def player(self, name: str, *, address: str | None = None, locale: str | None = None,
               settings: dict[str, Any] | None = None, subscribe: bool = False) -> tuple[str, str]:
        made = accounts.register_player(self.deps, name, name.lower() + "-" + uuid.uuid4().hex[:6])
        pid = made["id"]
        self.tokens[pid] = made["token"]
        if locale:
            accounts.choose_locale(self.deps, pid, locale)
        if settings is not None:
            stored = reach_model.update(None, settings)
            email_kinds, push_kinds = reach_model.follows(reach_model.effective(stored))
            reach.put_settings(self.deps.db, uuid.UUID(pid), stored, email_kinds, push_kinds, self.clock())
        if address:
            self.verified(pid, address)
        if subscribe:
            self.subscribe(pid)
        return pid, name

    def verified(self, pid: str, address: str) -> None:
        """Give the player an address and verify it (its verification e-mail stays pending)."""
        token = f"token-{uuid.uuid4()}"
        digest = hashlib.sha256(token.encode()).hexdigest()
        expires = self.clock() + timedelta(hours=24)
        mail = MailItem(uuid.UUID(pid), "verify_email", rm.verify_email(address, expires).args, to_address=address,
                        secret=token)
        reach.set_email(self.deps.db, uuid.UUID(pid), address, digest, expires, self.clock(), mail)
        assert reach.verify_email(self.deps.db, digest, self.clock()).status == "verified"

    def subscribe(self, pid: str) -> Any:
        """A browser's subscription for the player, restricted to the server's VAPID key as
        ``pushManager.subscribe({applicationServerKey})`` makes it."""
        sub = self.push.new_subscription(application_server_key=server_key(self.deps).public_key)
        info = sub.info
        reach.subscribe(self.deps.db, uuid.UUID(pid), uuid.uuid4(), info["endpoint"], info["keys"]["p256dh"],
                        unb64url(info["keys"]["auth"]), self.clock(), 10)
        return sub

    def game(self, creator: tuple[str, str], *others: tuple[str, str], ruleset: str = "pedro",
             name: str = "Friday table", options: dict[str, Any] | None = None) -> uuid.UUID:
        cur, _ = lobby.create_game(self.deps, creator, ruleset, 1 + len(others), options or {}, name, True, None)
        gid = uuid.UUID(cur.game.id)
        for other in others:
            lobby.join_game(self.deps, gid, other, None)
        return gid

    def awaited(self, gid: uuid.UUID) -> list[str]:
        """The players the game waits for now (who is first depends on the deal)."""
        row = game_index.rows(self.deps.db, [gid])[gid]
        return [s["player_id"] for s in row.seats if s["seat"] in row.awaiting]

    def mails_to(self, address: str, kind: str | None = None) -> list[Any]:
        """What the SMTP server accepted for ``address`` (``kind``: but verification e-mails)."""
        return [m for m in self.smtp.messages if address in m.rcpt_tos
                and (kind is None or "/verify-email?" not in (m.text() or ""))]

    def unsubscribe(self, mail: Any) -> None:
        """What a POST to an e-mail's List-Unsubscribe link does (RFC 8058; the route is
        reach-api's): that kind of e-mail off for its player."""
        token = uuid.UUID((mail.header("List-Unsubscribe") or "").strip("<>").rsplit("/", 1)[1])
        found = reach_outbox.unsubscribe_target(self.deps.db, token)
        assert found is not None
        player, kind = found
        stored = reach.settings_of(self.deps.db, player)
        merged = reach_model.update(stored.settings if stored else None, reach_model.unsubscribe(kind))
        email_kinds, push_kinds = reach_model.follows(reach_model.effective(merged))
        reach.put_settings(self.deps.db, player, merged, email_kinds, push_kinds, self.clock())

    def play(self, gid: uuid.UUID, player: str, choose: Any = None) -> bool:
        """The player makes a move: ``choose(view)``'s (None: none now), else the first legal
        one. Whether a move was made."""
        _, view = reading.seat_view(self.deps, gid, player, lambda version: False)
        assert view is not None and view["legal_actions"]
        chosen = choose(view) if choose is not None else view["legal_actions"][0]
        if chosen is None:
            return False
        playing.run_command(self.deps, gid, player, chosen, None, None, f"/v1/games/{gid}/commands")
        return True

    def send_all(self, rounds: int = 20) -> None:
        """Run both senders until nothing is due now."""
        for _ in range(rounds):
            if self.mail.run_once() + self.pusher.run_once() == 0:
                return
        raise AssertionError("the senders never ran dry")


def make_deps(database_url: str, clock: Clock, smtp_url: str = "", **config: Any) -> Dependencies:
    db = Database(roles.service_url(database_url), max_size=6)
    cfg = Config(database_url=database_url, public_url=PUBLIC, smtp_url=smtp_url,
                 mail_from="facedown <noreply@facedown.test>", push_allow_private=True,
                 vapid_contact="mailto:ops@facedown.test", **config)
    deps = Dependencies(cfg, EventStore(db), db, Live(db.url))
    deps.clock = clock
    return deps


@pytest.fixture
def world(database_url: str) -> Iterator[Reach]:
    clock = Clock()
    with SmtpServer() as smtp, PushService() as push:
        deps = make_deps(database_url, clock, smtp.url)
        mail, pusher = MailSender(deps), PushSender(deps)
        yield Reach(deps, clock, smtp, push, mail, pusher)
        pusher.close()
        deps.close()
