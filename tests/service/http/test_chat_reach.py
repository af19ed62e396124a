"""A game chat's message follows a player out of the page as their settings say (docs/chat.md,
service/model/reach.py): pushed by default, e-mailed only to who asks; and what it carries
is the sender's handle and the words, nothing the server adds about the game's cards."""
from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone

import pytest
import requests

from events import reach, reach_outbox
from events.db import Database
from events.roles import service_url
from service.model import reach as settings
from tests.events.test_reach_outbox import NOW
from tests.events.test_reach_players import digest, give_address
from tests.service.helpers import Live, Player, serve


@pytest.fixture(scope="module")
def live(db_factory: object) -> Iterator[Live]:
    yield from serve(db_factory.new(), extra={"chat_rate": (100.0, 100.0)})  # type: ignore[attr-defined]


@pytest.fixture
def db(live: Live) -> Iterator[Database]:
    database = Database(service_url(live.database_url), max_size=2)
    yield database
    database.close()


def _seated(live: Live, db: Database, n: int) -> tuple[str, list[Player]]:
    """A started game of ``n`` players, each with an address and a push subscription."""
    players = [live.player(f"reach-{i}") for i in range(n)]
    for p in players:
        pid = uuid.UUID(p.id)
        give_address(db, pid, f"{p.id}@example.org", f"token-{pid}")
        assert reach.verify_email(db, digest(f"token-{pid}"), NOW).status == "verified"
        reach.subscribe(db, pid, uuid.uuid4(), f"https://push.example/{pid}", "p256dh", b"auth", NOW, 5)
    gid = players[0].post("/v1/games", {"ruleset": "corte", "seats": n}).json()["id"]
    for p in players[1:]:
        assert p.post(f"/v1/games/{gid}/join", {}).status_code == 200
    return gid, players


def _kinds(rows: list[reach_outbox.Row]) -> list[str]:
    return [r.kind for r in rows if r.kind == "chat"]


def test_a_chat_is_pushed_by_default_and_mailed_only_to_who_asks(live: Live, db: Database) -> None:
    gid, (ann, bob, cy) = _seated(live, db, 3)
    chosen = settings.update(None, {"email": {"chat": True}, "push": {"chat": False}})
    mail, push = settings.follows(settings.effective(chosen))
    reach.put_settings(db, uuid.UUID(cy.id), chosen, mail, push, NOW)
    assert ann.post(f"/v1/games/{gid}/chat", {"text": "gg"}).status_code == 201
    assert _kinds(reach_outbox.push_rows(db, uuid.UUID(bob.id))) == ["chat"]
    assert _kinds(reach_outbox.push_rows(db, uuid.UUID(cy.id))) == []
    assert _kinds(reach_outbox.mail_rows(db, uuid.UUID(cy.id))) == ["chat"]
    assert _kinds(reach_outbox.push_rows(db, uuid.UUID(ann.id))) == []  # not to the sender
    # e-mail is off by default: a player with no settings follows every kind in the store, and
    # the sender leaves it unsent by the defaults (service/model/reach.py)
    assert settings.effective(None).email.chat is False and settings.effective(None).push.chat is True


def test_the_unsubscribe_link_of_a_chat_e_mail_names_the_chat_and_turns_it_off(live: Live, db: Database) -> None:
    gid, (ann, bob) = _seated(live, db, 2)
    chosen = settings.update(None, {"email": {"chat": True}})
    reach.put_settings(db, uuid.UUID(bob.id), chosen, *settings.follows(settings.effective(chosen)), NOW)
    assert ann.post(f"/v1/games/{gid}/chat", {"text": "gg"}).status_code == 201
    later = datetime.now(timezone.utc) + timedelta(days=1)
    [mail] = [m for m in reach_outbox.claim_mail(db, 500, 60, later)
              if m.player_id == uuid.UUID(bob.id) and m.kind == "chat"]
    link = f"{live.url}/v1/unsubscribe/{mail.unsubscribe}"
    page = requests.get(link, timeout=10)
    assert page.status_code == 200 and "E-mails when someone writes in a game&#x27;s table talk" in page.text
    done = requests.post(link, headers={"Accept": "text/html"}, timeout=10)
    assert done.status_code == 200 and "table talk" in done.text
    assert bob.get("/v1/me/notification-settings").json()["email"]["chat"] is False


def test_what_a_chat_notification_carries_is_the_handle_and_the_words(live: Live, db: Database) -> None:
    gid, (ann, bob) = _seated(live, db, 2)
    ann.post(f"/v1/games/{gid}/chat", {"text": "  I hold the 5H, honest  "})
    [note] = [n for n in bob.get("/v1/me/notifications").json()["notifications"] if n["kind"] == "chat"]
    # the player's own words may name a card; nothing the server adds does
    assert note["data"] == {"handle": ann.get("/v1/me").json()["handle"], "text": "I hold the 5H, honest"}
    assert note["game_id"] == gid and note["version"] is None
