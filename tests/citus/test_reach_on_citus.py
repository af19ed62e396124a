"""Reaching players on the cluster (sql/016, sql/017): `facedown db distribute` places every table
as docs/deployment-citus.md says, a player's outboxes, settings and subscriptions sit with their
notifications, and every function of the outboxes runs on the cluster as on one server (the
notifications' Citus form writes the outboxes, the claim takes each row once)."""
from __future__ import annotations

import os
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from events import citus, notifications, reach, reach_outbox
from events.citus_cluster import LocalCluster
from events.db import Database, connect
from events.notifications import Item
from events.reach_outbox import MailItem
from events.roles import service_url
from events.store import EventStore, NewEvent
from tests.citus.test_placement import _node_of
from tests.events.test_reach_players import digest, give_address

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)
#: as docs/deployment-citus.md's table says
DOCUMENTED = {"player_emails": "reference", "email_tokens": "reference", "vapid_keys": "reference",
              "push_subscriptions": "player_id", "push_subscription_secrets": "player_id",
              "notification_settings": "player_id", "mail_outbox": "player_id", "mail_secrets": "player_id",
              "push_outbox": "player_id", "page_presence": "player_id"}


@pytest.fixture(scope="module")
def distributed(citus_cluster: LocalCluster) -> str:
    """A database of the cluster migrated, then distributed by `facedown db distribute` itself."""
    from events import migrations

    url = citus_cluster.new_database(f"fd_reach_{uuid.uuid4().hex[:6]}")
    facedown = Path(sys.executable).with_name("facedown")
    done = subprocess.run([str(facedown), "db", "distribute"], env={**os.environ, "DATABASE_URL": url},
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert migrations.pending(url) == []
    return url


@pytest.fixture
def db(distributed: str) -> Iterator[Database]:
    database = Database(service_url(distributed), max_size=4)
    yield database
    database.close()


def test_distribute_places_the_tables_of_reaching_players_as_documented(distributed: str) -> None:
    doc = (citus.OVERRIDES.parent.parent.parent / "docs" / "deployment-citus.md").read_text()
    with connect(distributed) as conn:
        placed = citus.placement(conn)
        groups = {r[0]: r[1] for r in conn.execute(
            "SELECT logicalrelid::regclass::text, colocationid FROM pg_dist_partition WHERE partmethod = 'h'")}
    assert {t: placed[t] for t in DOCUMENTED} == DOCUMENTED == {t: citus.PLAN[t] for t in DOCUMENTED}
    # with a player's notifications, in the one co-location group
    assert {groups[t] for t, how in DOCUMENTED.items() if how == "player_id"} == {groups["notifications"]}
    for table in DOCUMENTED:
        assert f"`{table}`" in doc, f"docs/deployment-citus.md does not say where {table} is"


def test_a_players_outboxes_are_written_by_an_append_on_another_node_and_sit_with_their_notifications(
        db: Database, distributed: str) -> None:
    ann = uuid.uuid4()
    give_address(db, ann, "ann@example.org", "t-ann")
    assert reach.verify_email(db, digest("t-ann"), NOW).status == "verified"
    for n in range(2):
        reach.subscribe(db, ann, uuid.uuid4(), f"https://push.example/{n}", "p256dh", b"auth", NOW, 5)
    reach.put_settings(db, ann, {"email": {"turn": "immediate"}}, ["your_turn", "game_over"], ["your_turn"], NOW)
    game = uuid.uuid4()
    # the append runs on the game's node (a distributed function) and notifies ann in her shard
    EventStore(db).append(game, 0, [NewEvent("GameOpened", {})], effects=[notifications.effect(
        [Item(str(ann), "your_turn", str(game), 1, (0,), {"name": "g"}), Item(str(ann), "invited", str(game), 1, (0,))])])
    notifications.insert(db, [Item(str(ann), "game_over", str(game), 2, (0,))])
    assert sorted(r.kind for r in reach_outbox.mail_rows(db, ann)) == ["game_over", "verify_email", "your_turn"]
    assert sorted(r.kind for r in reach_outbox.push_rows(db, ann)) == ["your_turn", "your_turn"]
    with connect(distributed) as conn:
        nodes = {t: _node_of(conn, t, str(ann))[1:] for t, how in DOCUMENTED.items() if how == "player_id"}
        nodes["notifications"] = _node_of(conn, "notifications", str(ann))[1:]
    assert len(set(nodes.values())) == 1, nodes


def test_open_pages_are_recorded_touched_and_read_on_the_cluster(db: Database) -> None:
    ann, game = uuid.uuid4(), uuid.uuid4()
    reach.page_opened(db, "w1", ann, game, NOW)
    assert reach.pages_alive(db, "w1", NOW + timedelta(seconds=5)) == 1
    assert reach.open_pages(db, [ann], NOW + timedelta(seconds=5)) == {ann: {game}}
    reach.page_closed(db, "w1", ann, game)
    assert reach.open_pages(db, [ann], NOW) == {}


def test_the_claim_settling_and_purge_run_on_the_cluster_as_on_one_server(db: Database) -> None:
    players = [uuid.uuid4() for _ in range(6)]
    reach_outbox.enqueue_mail(db, [MailItem(p, "signin_code", to_address="x@example.org", secret="CODE")
                                   for p in players for _ in range(4)])
    got: list[list[reach_outbox.ClaimedMail]] = [[], []]
    failed: list[BaseException] = []

    def claimer(n: int) -> None:
        try:
            while batch := reach_outbox.claim_mail(db, 5, 60, NOW + timedelta(days=1)):
                got[n].extend(batch)
        except BaseException as exc:  # a claim that fails (it once met a distributed deadlock)
            failed.append(exc)

    threads = [threading.Thread(target=claimer, args=(n,)) for n in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failed == []
    mine = [m for batch in got for m in batch if m.player_id in players]
    assert len(mine) == len({m.mail_id for m in mine}) == 24 and all(m.secret == "CODE" for m in mine)
    first = mine[0]
    then = [MailItem(first.player_id, "reminder", {"lead": 7200}, dedup_key="r:1", due_at=NOW + timedelta(days=3))]
    assert reach_outbox.settle_mail(db, first, "sent", NOW + timedelta(days=1), then=then) == "sent"
    assert reach_outbox.settle_mail(db, first, "sent", NOW + timedelta(days=1)) == "stale"
    assert reach_outbox.enqueue_mail(db, then) == 0
    assert reach_outbox.unsubscribe_target(db, first.unsubscribe) == (first.player_id, "signin_code")
    for m in mine[1:]:
        reach_outbox.settle_mail(db, m, "skipped", NOW + timedelta(days=1))
    assert reach_outbox.purge(db, NOW + timedelta(days=2)) >= 24


def test_a_push_service_saying_gone_removes_the_subscription_on_the_cluster(db: Database) -> None:
    bob = uuid.uuid4()
    sub = reach.subscribe(db, bob, uuid.uuid4(), "https://push.example/bob", "p256dh", b"auth", NOW, 5)
    assert sub.subscription is not None
    notifications.insert(db, [Item(str(bob), "invited", str(uuid.uuid4()), 1, (0,))])
    [push] = [p for p in reach_outbox.claim_push(db, 50, 60, NOW + timedelta(days=5)) if p.player_id == bob]
    assert reach_outbox.settle_push(db, push, "gone", NOW, status=410, error="HTTP 410") == "gone"
    assert reach.subscriptions(db, bob) == []
