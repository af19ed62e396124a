"""Where and how a player can be reached (sql/016, events/reach.py), on real PostgreSQL and as the
service's own login: an address verified once by its token, a verified address held by one
account, the VAPID key pair made once, push subscriptions, notification settings."""
from __future__ import annotations

import hashlib
import uuid
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone

import pytest

from events import reach, reach_outbox
from events.db import Database
from events.reach_outbox import MailItem
from events.roles import service_url

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)


@pytest.fixture
def db(database_url: str) -> Iterator[Database]:
    database = Database(service_url(database_url), max_size=4)
    yield database
    database.close()


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def give_address(db: Database, player: uuid.UUID, address: str, token: str, now: datetime = NOW) -> None:
    mail = MailItem(player, "verify_email", {"address": address}, to_address=address, secret=token)
    reach.set_email(db, player, address, digest(token), now + timedelta(hours=24), now, mail)


def test_an_address_is_unverified_until_its_token_is_used_and_a_token_works_once(db: Database) -> None:
    ann = uuid.uuid4()
    give_address(db, ann, "ann@example.org", "t1")
    given = reach.email_of(db, ann)
    assert given is not None and (given.address, given.verified_at) == ("ann@example.org", None)
    assert reach.email_owner(db, "ann@example.org") is None  # not verified: nobody's for signing in

    done = reach.verify_email(db, digest("t1"), NOW + timedelta(hours=1))
    assert done == reach.Verification("verified", ann, "ann@example.org")
    assert reach.email_of(db, ann).verified_at == NOW + timedelta(hours=1)  # type: ignore[union-attr]
    assert reach.email_owner(db, "ANN@example.org") == ann
    assert reach.verify_email(db, digest("t1"), NOW + timedelta(hours=2)).status == "used"
    assert reach.verify_email(db, digest("nope"), NOW).status == "unknown"


def test_a_token_expires_after_its_day_and_one_for_an_address_given_before_verifies_nothing(db: Database) -> None:
    bob = uuid.uuid4()
    give_address(db, bob, "bob@example.org", "old")
    assert reach.verify_email(db, digest("old"), NOW + timedelta(hours=24)).status == "expired"
    give_address(db, bob, "bob@example.org", "again", NOW + timedelta(days=2))
    give_address(db, bob, "robert@example.org", "new", NOW + timedelta(days=2))
    assert reach.verify_email(db, digest("again"), NOW + timedelta(days=2)).status == "changed"
    assert reach.email_of(db, bob).verified_at is None  # type: ignore[union-attr]
    assert reach.verify_email(db, digest("new"), NOW + timedelta(days=2)).status == "verified"
    # a new address is unverified again, however verified the old one was
    give_address(db, bob, "bob@example.org", "back", NOW + timedelta(days=3))
    assert reach.email_of(db, bob) == reach.Email("bob@example.org", None, NOW + timedelta(days=3))


def test_the_verification_email_is_written_with_its_token_in_one_transaction(db: Database) -> None:
    cat = uuid.uuid4()
    give_address(db, cat, "cat@example.org", "secret-token")
    [row] = reach_outbox.mail_rows(db, cat)
    assert (row.kind, row.status) == ("verify_email", "pending")
    [claimed] = reach_outbox.claim_mail(db, 10, 60, NOW)
    # it goes to the address it verifies (not a verified one: there is none), carrying the token
    assert (claimed.address, claimed.secret, claimed.notification) == ("cat@example.org", "secret-token", None)


def test_a_verified_address_belongs_to_the_last_account_that_proved_it(db: Database) -> None:
    ann, other = uuid.uuid4(), uuid.uuid4()
    give_address(db, ann, "shared@example.org", "a")
    give_address(db, other, "Shared@Example.org", "b")
    reach.verify_email(db, digest("a"), NOW)
    assert reach.email_owner(db, "shared@example.org") == ann
    assert reach.verify_email(db, digest("b"), NOW + timedelta(minutes=5)).status == "verified"
    assert reach.email_owner(db, "shared@example.org") == other
    assert reach.email_of(db, ann).verified_at is None  # type: ignore[union-attr]


def test_the_vapid_key_pair_is_made_once_and_every_caller_gets_the_kept_one(db: Database) -> None:
    assert reach.vapid_public(db) is None
    first = reach.vapid_key(db, "public-1", b"private-1", NOW)
    second = reach.vapid_key(db, "public-2", b"private-2", NOW + timedelta(seconds=1))
    assert first == second == ("public-1", b"private-1")
    assert reach.vapid_public(db) == "public-1"


def test_a_subscription_is_kept_renewed_by_its_endpoint_listed_and_removed(db: Database) -> None:
    dan = uuid.uuid4()
    made = reach.subscribe(db, dan, uuid.uuid4(), "https://push.example/a", "key-a", b"auth-a", NOW, limit=2)
    assert made.status == "created" and made.subscription is not None
    again = reach.subscribe(db, dan, uuid.uuid4(), "https://push.example/a", "key-a2", b"auth-a2",
                            NOW + timedelta(minutes=1), limit=2)
    assert again.status == "renewed" and again.subscription is not None
    assert (again.subscription.id, again.subscription.created_at) == (made.subscription.id, NOW)
    second = reach.subscribe(db, dan, uuid.uuid4(), "https://push.example/b", "key-b", b"auth-b",
                             NOW + timedelta(minutes=2), limit=2)
    assert second.status == "created"
    third = reach.subscribe(db, dan, uuid.uuid4(), "https://push.example/c", "key-c", b"auth-c", NOW, limit=2)
    assert third == reach.Subscribed("too_many", None)
    listed = reach.subscriptions(db, dan)
    assert [(s.endpoint, s.p256dh) for s in listed] == [("https://push.example/a", "key-a2"),
                                                         ("https://push.example/b", "key-b")]
    assert reach.subscriptions(db, uuid.uuid4()) == []
    assert reach.unsubscribe(db, dan, made.subscription.id) is True
    assert reach.unsubscribe(db, dan, made.subscription.id) is False
    assert [s.endpoint for s in reach.subscriptions(db, dan)] == ["https://push.example/b"]


def test_settings_are_kept_as_the_player_chose_them_with_what_each_channel_follows(db: Database) -> None:
    eve, fay = uuid.uuid4(), uuid.uuid4()
    assert reach.settings_of(db, eve) is None
    reach.put_settings(db, eve, {"email": {"turn": "off"}}, ["game_over"], ["your_turn", "invited"], NOW)
    reach.put_settings(db, eve, {"email": {"turn": "immediate"}}, ["your_turn"], [], NOW + timedelta(hours=1))
    reach.put_settings(db, fay, {"time_zone": "Europe/Lisbon"}, ["invited"], ["invited"], NOW)
    assert reach.settings_of(db, eve) == reach.StoredSettings({"email": {"turn": "immediate"}}, ("your_turn",), (),
                                                              NOW + timedelta(hours=1))
    both = reach.settings_for(db, [eve, fay, uuid.uuid4()])
    assert set(both) == {eve, fay} and both[fay].settings == {"time_zone": "Europe/Lisbon"}


def test_an_open_page_counts_while_its_process_is_alive_and_not_once_it_closes(db: Database) -> None:
    ann, bob, game = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    reach.page_opened(db, "worker-1", ann, game, NOW)
    reach.page_opened(db, "worker-2", ann, None, NOW)  # the account's stream: some page
    reach.page_opened(db, "worker-2", bob, game, NOW)
    assert reach.open_pages(db, [ann, bob, uuid.uuid4()], NOW) == {ann: {game, None}, bob: {game}}
    reach.page_closed(db, "worker-2", bob, game)
    assert bob not in reach.open_pages(db, [bob], NOW)
    # worker-1 keeps touching its rows; worker-2 was killed and touches nothing
    assert reach.pages_alive(db, "worker-1", NOW + timedelta(seconds=30)) == 1
    assert reach.open_pages(db, [ann], NOW + timedelta(seconds=15)) == {ann: {game}}
    # a process that starts again under the same name drops what its former life left
    assert reach.pages_alive(db, "worker-1", NOW + timedelta(seconds=40), reset=True) == 0
    assert reach.open_pages(db, [ann], NOW) == {ann: {None}}
