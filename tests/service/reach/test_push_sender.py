"""The push sender against the test push service: encrypted (the service decrypts with the
browser's keys), signed with the server's VAPID key (the service checks it against the key
the subscription was made with), a Topic per game, and a subscription the push service
says is gone removed."""
from __future__ import annotations

import uuid

import pytest

from events import reach, reach_outbox
from service.adapters.push import topic_for
from tests.service.reach.conftest import PUBLIC, Reach


def test_a_turn_is_pushed_encrypted_and_signed_with_the_games_topic(world: Reach) -> None:
    ann = world.player("Ann", subscribe=True, locale="pt-BR")
    bob = world.player("Bob", subscribe=True, locale="pt-BR")
    gid = world.game(ann, bob, name="Mesa de sexta")
    [first] = world.awaited(gid)
    world.send_all()
    turns = [p for p in world.push.pushes if p.data["kind"] == "your_turn"]
    assert len(turns) == 1
    push = turns[0]
    assert push.data == {"kind": "your_turn", "game_id": str(gid), "title": "Sua vez: Mesa de sexta",
                         "body": push.data["body"], "url": f"{PUBLIC}/#/game/{gid}"}
    assert "Aguardando:" in push.data["body"] and "Prazo:" in push.data["body"]
    assert push.topic == topic_for(str(gid)) and push.urgency == "normal" and 0 < push.ttl <= 24 * 3600
    assert push.vapid is not None and push.vapid.claims["sub"] == "mailto:ops@facedown.test"
    [row] = [r for r in reach_outbox.push_rows(world.deps.db, uuid.UUID(first)) if r.kind == "your_turn"]
    assert row.status == "sent"


@pytest.mark.parametrize("status", [404, 410])
def test_a_subscription_the_push_service_says_is_gone_is_removed(world: Reach, status: int) -> None:
    ann = world.player("Ann")
    bob = world.player("Bob")
    subs = {ann[0]: world.subscribe(ann[0]), bob[0]: world.subscribe(bob[0])}
    for sub in subs.values():
        world.push.expire(sub, status)
    gid = world.game(ann, bob)
    [first] = world.awaited(gid)
    world.send_all()
    assert world.push.pushes == []
    assert reach.subscriptions(world.deps.db, uuid.UUID(first)) == []
    [row] = [r for r in reach_outbox.push_rows(world.deps.db, uuid.UUID(first)) if r.kind == "your_turn"]
    assert row.status == "failed" and str(status) in (row.last_error or "")


def test_a_push_refused_for_a_while_is_retried_after_the_back_off(world: Reach) -> None:
    ann, bob = world.player("Ann", subscribe=True), world.player("Bob", subscribe=True)
    world.push.refuse_next(503, times=1, retry_after=120)
    gid = world.game(ann, bob)
    world.send_all()
    [first] = world.awaited(gid)
    [row] = [r for r in reach_outbox.push_rows(world.deps.db, uuid.UUID(first)) if r.kind == "your_turn"]
    # the only push due (game_started is not pushed): refused, due again after Retry-After
    assert row.status == "pending" and row.failures == 1 and row.due_at is not None
    assert (row.due_at - world.clock()).total_seconds() >= 120
    assert [r.status for r in world.push.requests] == [503]
    world.clock.move(seconds=121)
    world.send_all()
    assert [p.data["kind"] for p in world.push.pushes].count("your_turn") == 1
