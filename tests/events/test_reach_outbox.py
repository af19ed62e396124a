"""The e-mail and push outboxes (sql/017, events/reach_outbox.py) on real PostgreSQL, as the
service's own login: rows written by the append that writes their notifications (or by none,
when it rolls back), routed by the player's settings, address and subscriptions; the claim
protocol (two claimers never share a row; a claim abandoned is taken again after its lease;
its late settling changes nothing); settling, and the rows a settling causes."""
from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone

import psycopg
import pytest

from events import notifications, reach, reach_outbox
from events.db import Database
from events.errors import StoreError
from events.notifications import Item
from events.reach_outbox import MailItem, PushItem
from events.roles import service_url
from events.store import EventStore, NewEvent
from tests.events.test_reach_players import digest, give_address

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)
LEASE = 60


@pytest.fixture
def db(database_url: str) -> Iterator[Database]:
    database = Database(service_url(database_url), max_size=6)
    yield database
    database.close()


def reachable(db: Database, address: str | None = None, subscriptions: int = 0) -> uuid.UUID:
    """A player with a verified address (if given) and that many push subscriptions."""
    player = uuid.uuid4()
    if address:
        give_address(db, player, address, f"token-{player}")
        assert reach.verify_email(db, digest(f"token-{player}"), NOW).status == "verified"
        [verification] = reach_outbox.claim_mail(db, 10, LEASE, NOW)
        reach_outbox.settle_mail(db, verification, "sent", NOW)
    for n in range(subscriptions):
        reach.subscribe(db, player, uuid.uuid4(), f"https://push.example/{player}/{n}", "p256dh", b"auth", NOW, 5)
    return player


def mails(db: Database, player: uuid.UUID) -> list[reach_outbox.Row]:
    """The player's e-mail rows but the verification of their address."""
    return [r for r in reach_outbox.mail_rows(db, player) if r.kind != "verify_email"]


def append_notifying(db: Database, items: list[Item], *, fail: bool = False) -> uuid.UUID:
    """A game's first event, its notifications written by the append (``fail``: an effect after
    them is refused, so the whole append rolls back)."""
    game = uuid.uuid4()
    effects = [notifications.effect(items)] + ([{"op": "no such effect"}] if fail else [])
    EventStore(db).append(game, 0, [NewEvent("GameOpened", {"ruleset": "pedro"})], effects=effects)
    return game


def test_the_kinds_a_channel_may_carry_are_the_same_in_sql_and_python(database_url: str) -> None:
    with psycopg.connect(database_url) as conn:
        assert tuple(conn.execute("SELECT fd_reach_kinds()").fetchone()[0]) == reach.REACH_KINDS


def test_a_notification_writes_an_email_row_and_a_push_row_per_subscription_in_its_append(db: Database) -> None:
    both = reachable(db, "both@example.org", subscriptions=2)
    mail_only = reachable(db, "mail@example.org")
    nobody = reachable(db)  # neither an address nor a subscription
    unverified = uuid.uuid4()
    give_address(db, unverified, "later@example.org", "never-used")
    game = uuid.uuid4()
    items = [Item(str(p), "your_turn", str(game), 1, (0,), {"name": "g"}) for p in (both, mail_only, nobody, unverified)]
    items.append(Item(str(both), "can_react", str(game), 1, (0,)))  # a kind no channel carries
    EventStore(db).append(game, 0, [NewEvent("GameOpened", {})], effects=[notifications.effect(items)])
    [mail] = mails(db, both)
    assert (mail.kind, mail.game_id, mail.seq, mail.status, mail.due_at) == ("your_turn", game, 1, "pending", None)
    pushes = reach_outbox.push_rows(db, both)
    assert sorted(p.subscription_id for p in pushes) == sorted(s.id for s in reach.subscriptions(db, both))
    assert {(p.kind, p.seq) for p in pushes} == {("your_turn", 1)}
    assert [m.kind for m in mails(db, mail_only)] == ["your_turn"]
    assert reach_outbox.push_rows(db, mail_only) == []
    assert mails(db, nobody) == [] and reach_outbox.push_rows(db, nobody) == []
    assert [m.kind for m in reach_outbox.mail_rows(db, unverified)] == ["verify_email"]


def test_a_rolled_back_append_writes_no_outbox_row(db: Database) -> None:
    ann = reachable(db, "ann@example.org", subscriptions=1)
    with pytest.raises(StoreError, match="unknown effect"):
        append_notifying(db, [Item(str(ann), "your_turn", str(uuid.uuid4()), 1, (0,))], fail=True)
    assert notifications.head(db, ann) == 0
    assert mails(db, ann) == [] and reach_outbox.push_rows(db, ann) == []
    append_notifying(db, [Item(str(ann), "your_turn", str(uuid.uuid4()), 1, (0,))])
    assert len(mails(db, ann)) == len(reach_outbox.push_rows(db, ann)) == 1


def test_the_players_settings_decide_which_kinds_each_channel_follows(db: Database) -> None:
    ann = reachable(db, "ann@example.org", subscriptions=1)
    reach.put_settings(db, ann, {"email": {"turn": "off", "reminders": []}}, ["game_over", "invited"],
                       ["your_turn"], NOW)
    append_notifying(db, [Item(str(ann), k, str(uuid.uuid4()), 1, (0,)) for k in ("your_turn", "game_over")])
    assert [m.kind for m in mails(db, ann)] == ["game_over"]
    assert [p.kind for p in reach_outbox.push_rows(db, ann)] == ["your_turn"]


def test_notifications_without_an_append_write_their_rows_too(db: Database) -> None:
    ann = reachable(db, "ann@example.org")
    notifications.insert(db, [Item(str(ann), "invited", str(uuid.uuid4()), 1, (2,))])
    assert [m.kind for m in mails(db, ann)] == ["invited"]


def test_a_claimed_row_carries_its_notification_and_the_address_it_goes_to(db: Database) -> None:
    ann = reachable(db, "ann@example.org", subscriptions=1)
    game = append_notifying(db, [Item(str(ann), "your_turn", None, 1, (3,), {"name": "Friday"})])
    [mail] = reach_outbox.claim_mail(db, 10, LEASE, NOW)
    assert (mail.player_id, mail.kind, mail.claim, mail.failures, mail.address) == (ann, "your_turn", 1, 0,
                                                                                    "ann@example.org")
    assert mail.notification is not None and mail.secret is None
    assert (mail.notification.seq, mail.notification.kind, mail.notification.seats,
            mail.notification.data) == (1, "your_turn", [3], {"name": "Friday"})
    [push] = reach_outbox.claim_push(db, 10, LEASE, NOW)
    assert (push.endpoint, push.p256dh, push.auth, push.claim) == (reach.subscriptions(db, ann)[0].endpoint,
                                                                   "p256dh", b"auth", 1)
    assert game is not None and push.notification is not None and push.notification.kind == "your_turn"


def test_two_claimers_never_get_the_same_row(db: Database) -> None:
    players = [uuid.uuid4() for _ in range(4)]
    reach_outbox.enqueue_mail(db, [MailItem(p, "signin_code", to_address="x@example.org") for p in players
                                   for _ in range(15)])
    got: list[list[uuid.UUID]] = [[], [], []]
    start = threading.Barrier(3)

    def claimer(n: int) -> None:
        start.wait()
        while batch := reach_outbox.claim_mail(db, 4, LEASE, NOW):
            got[n].extend(m.mail_id for m in batch)

    threads = [threading.Thread(target=claimer, args=(n,)) for n in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    every = [m for batch in got for m in batch]
    assert len(every) == len(set(every)) == 60


def test_a_claim_abandoned_is_taken_again_after_its_lease_and_its_late_settling_changes_nothing(db: Database) -> None:
    ann = reachable(db, "ann@example.org")
    append_notifying(db, [Item(str(ann), "game_over", str(uuid.uuid4()), 9, (0,))])
    [first] = reach_outbox.claim_mail(db, 10, LEASE, NOW)  # ... and the claimer is killed
    assert reach_outbox.claim_mail(db, 10, LEASE, NOW + timedelta(seconds=LEASE - 1)) == []
    [again] = reach_outbox.claim_mail(db, 10, LEASE, NOW + timedelta(seconds=LEASE))
    assert (again.mail_id, again.claim, again.unsubscribe) == (first.mail_id, 2, first.unsubscribe)
    assert reach_outbox.settle_mail(db, first, "sent", NOW) == "stale"
    assert mails(db, ann)[0].status == "pending"
    assert reach_outbox.settle_mail(db, again, "sent", NOW + timedelta(seconds=LEASE + 1)) == "sent"
    assert reach_outbox.claim_mail(db, 10, LEASE, NOW + timedelta(days=1)) == []


def test_a_retry_counts_a_failure_a_postponement_does_not_and_both_are_due_at_their_time(db: Database) -> None:
    ann = reachable(db, "ann@example.org")
    append_notifying(db, [Item(str(ann), "invited", str(uuid.uuid4()), 1, (0,))])
    [m] = reach_outbox.claim_mail(db, 1, LEASE, NOW)
    later = NOW + timedelta(minutes=5)
    assert reach_outbox.settle_mail(db, m, "retry", NOW, error="451 try later", next_at=later) == "pending"
    assert reach_outbox.claim_mail(db, 1, LEASE, later - timedelta(seconds=1)) == []
    [m] = reach_outbox.claim_mail(db, 1, LEASE, later)
    assert (m.claim, m.failures) == (2, 1)
    morning = NOW + timedelta(hours=8)
    reach_outbox.settle_mail(db, m, "postpone", later, next_at=morning)
    [row] = mails(db, ann)
    assert (row.due_at, row.failures, row.last_error) == (morning, 1, "451 try later")
    [m] = reach_outbox.claim_mail(db, 1, LEASE, morning)
    assert (m.claim, m.failures) == (3, 1)
    with pytest.raises(ValueError):
        reach_outbox.settle_mail(db, m, "retry", morning)  # when again?


def test_a_settling_writes_the_rows_it_causes_once_each(db: Database) -> None:
    ann = reachable(db, "ann@example.org")
    game = append_notifying(db, [Item(str(ann), "your_turn", None, 1, (0,))])
    [turn] = reach_outbox.claim_mail(db, 1, LEASE, NOW)
    deadline = NOW + timedelta(hours=72)
    reminders = [MailItem(ann, "reminder", {"lead": lead}, game_id=game, due_at=deadline - timedelta(seconds=lead),
                          dedup_key=f"reminder:{game}:{deadline.isoformat()}:{lead}") for lead in (86400, 7200)]
    digest_row = MailItem(ann, "digest", due_at=NOW + timedelta(hours=6), dedup_key="digest:2026-03-01T18:00")
    reach_outbox.settle_mail(db, turn, "skipped", NOW, error="in the digest", then=[*reminders, digest_row])
    # the same again (a second notification the same day, or a retried settling): nothing new
    assert reach_outbox.enqueue_mail(db, [*reminders, digest_row]) == 0
    rows = {r.kind: r for r in mails(db, ann) if r.status == "pending"}
    assert sorted(r.kind for r in mails(db, ann)) == ["digest", "reminder", "reminder", "your_turn"]
    assert rows["digest"].due_at == NOW + timedelta(hours=6)
    due = reach_outbox.claim_mail(db, 10, LEASE, deadline - timedelta(seconds=86400))
    assert [(m.kind, m.args) for m in due] == [("digest", {}), ("reminder", {"lead": 86400})]  # earliest due first


def test_a_secret_is_read_by_the_claim_only_until_the_row_is_settled(db: Database, database_url: str) -> None:
    ann = uuid.uuid4()
    reach_outbox.enqueue_mail(db, [MailItem(ann, "signin_code", {"expires_in": 600}, to_address="a@example.org",
                                            secret="ABCDE-FGHJK")])
    [m] = reach_outbox.claim_mail(db, 1, LEASE, NOW)
    assert (m.secret, m.address) == ("ABCDE-FGHJK", "a@example.org")
    reach_outbox.settle_mail(db, m, "retry", NOW, next_at=NOW)
    [m] = reach_outbox.claim_mail(db, 1, LEASE, NOW)
    assert m.secret == "ABCDE-FGHJK"  # kept while the e-mail may still be sent
    reach_outbox.settle_mail(db, m, "sent", NOW)
    with psycopg.connect(database_url) as owner:
        assert owner.execute("SELECT count(*) FROM mail_secrets").fetchone() == (0,)


def test_a_push_service_saying_gone_removes_the_subscription_and_skips_its_other_pushes(db: Database) -> None:
    ann = reachable(db, subscriptions=2)
    append_notifying(db, [Item(str(ann), "your_turn", str(uuid.uuid4()), 1, (0,))])
    append_notifying(db, [Item(str(ann), "game_over", str(uuid.uuid4()), 1, (0,))])
    first = reach_outbox.claim_push(db, 1, LEASE, NOW)[0]
    assert reach_outbox.settle_push(db, first, "gone", NOW, status=410, error="HTTP 410") == "gone"
    kept = [s.id for s in reach.subscriptions(db, ann)]
    assert first.subscription_id not in kept and len(kept) == 1
    rows = reach_outbox.push_rows(db, ann)
    assert {(r.subscription_id == first.subscription_id, r.status) for r in rows} == {(True, "failed"),
                                                                                      (True, "skipped"),
                                                                                      (False, "pending")}
    rest = reach_outbox.claim_push(db, 10, LEASE, NOW)
    assert {p.subscription_id for p in rest} == set(kept) and len(rest) == 2
    assert reach_outbox.settle_push(db, rest[0], "sent", NOW, status=201) == "sent"
    assert reach.subscriptions(db, ann)[0].last_success_at == NOW


def test_a_push_whose_subscription_was_removed_is_skipped_by_the_claim(db: Database) -> None:
    ann = reachable(db, subscriptions=1)
    append_notifying(db, [Item(str(ann), "invited", str(uuid.uuid4()), 1, (0,))])
    reach.unsubscribe(db, ann, reach.subscriptions(db, ann)[0].id)
    assert reach_outbox.claim_push(db, 10, LEASE, NOW) == []
    [row] = reach_outbox.push_rows(db, ann)
    assert (row.status, row.last_error) == ("skipped", "the subscription is gone")


def test_a_scheduled_push_is_written_once_and_due_at_its_time(db: Database) -> None:
    ann = reachable(db, subscriptions=1)
    sub = reach.subscriptions(db, ann)[0].id
    item = PushItem(ann, sub, "reminder", {"lead": 7200}, dedup_key="reminder:g:t:7200", due_at=NOW)
    assert reach_outbox.enqueue_push(db, [item, item]) == 1
    assert reach_outbox.claim_push(db, 10, LEASE, NOW - timedelta(seconds=1)) == []
    [p] = reach_outbox.claim_push(db, 10, LEASE, NOW)
    assert (p.kind, p.args, p.notification) == ("reminder", {"lead": 7200}, None)


def test_an_unsubscribe_link_names_the_player_and_the_kind_of_email(db: Database) -> None:
    ann = reachable(db, "ann@example.org")
    append_notifying(db, [Item(str(ann), "game_over", str(uuid.uuid4()), 1, (0,))])
    [m] = reach_outbox.claim_mail(db, 1, LEASE, NOW)
    assert reach_outbox.unsubscribe_target(db, m.unsubscribe) == (ann, "game_over")
    assert reach_outbox.unsubscribe_target(db, uuid.uuid4()) is None


def test_the_purge_forgets_what_was_settled_before_a_moment_and_keeps_the_rest(db: Database) -> None:
    ann = reachable(db, "ann@example.org", subscriptions=1)
    append_notifying(db, [Item(str(ann), "your_turn", str(uuid.uuid4()), 1, (0,))])
    append_notifying(db, [Item(str(ann), "invited", str(uuid.uuid4()), 1, (0,))])
    [m, _] = reach_outbox.claim_mail(db, 2, LEASE, NOW)
    reach_outbox.settle_mail(db, m, "sent", NOW)
    assert reach_outbox.purge(db, NOW) == 0
    # the verification e-mail (settled when ann verified) and its token, and this one
    assert reach_outbox.purge(db, NOW + timedelta(seconds=1)) == 3
    assert [r.status for r in mails(db, ann)] == ["pending"]
    assert len(reach_outbox.push_rows(db, ann)) == 2


def test_one_process_holds_the_senders_lock_and_another_takes_it_when_it_dies(database_url: str) -> None:
    first = reach_outbox.SenderLock(database_url, reach_outbox.MAIL_LOCK)
    second = reach_outbox.SenderLock(database_url, reach_outbox.MAIL_LOCK)
    pushing = reach_outbox.SenderLock(database_url, reach_outbox.PUSH_LOCK)
    try:
        assert first.acquire() and first.acquire()
        assert not second.acquire()
        assert pushing.acquire()  # the other channel's sender is on its own
        # the holding process is killed: its session ends, and the lock with it
        with psycopg.connect(database_url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory'"
                          " AND objid = %s AND granted", (reach_outbox.MAIL_LOCK,))
        assert not first.held()
        assert second.acquire()
    finally:
        for lock in (first, second, pushing):
            lock.release()
