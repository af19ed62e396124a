"""The Web Push sender (service/adapters/push.py) against a real push service that checks the VAPID
signature against the published key and decrypts the payload with the browser's private key
(tests/support/push_service.py): accepted and readable, a Topic per game that replaces, and
every answer classified (410 gone, 429 retry after its Retry-After, other 4xx failed)."""
from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import datetime, timezone

import pytest

from service.adapters.push import Push, Pushed, Pusher, Subscription, VapidKey, retry_after, topic_for, unb64url
from tests.support.push_service import PushService
from tests.support.push_service import Subscription as Browser

CONTACT = "mailto:ops@facedown.example"
GAME = "6f1c0c7e-0000-4000-8000-000000000001"


@pytest.fixture(scope="module")
def key() -> VapidKey:
    return VapidKey.generate()


@pytest.fixture
def push_service(key: VapidKey) -> Iterator[PushService]:
    with PushService(application_server_key=key.public_key) as service:
        yield service


@pytest.fixture
def pusher(key: VapidKey) -> Pusher:
    return Pusher(key, CONTACT, allow_private=True)  # the push service is on loopback


def of(browser: Browser) -> Subscription:
    keys = browser.info["keys"]
    return Subscription.of(browser.endpoint, keys["p256dh"], keys["auth"])


def turn(game: str = GAME, **extra: object) -> Push:
    return Push("your_turn", game, "Your turn", "Friday night waits for you", f"https://facedown.example/#/game/{game}",
                **extra)  # type: ignore[arg-type]


def test_the_key_pair_is_stored_and_read_back_and_its_public_key_is_what_a_browser_takes(key: VapidKey) -> None:
    public, private = key.stored()
    raw = unb64url(public)
    assert len(raw) == 65 and raw[0] == 4 and "=" not in public
    assert VapidKey.from_stored(public, private).public_key == public
    with pytest.raises(ValueError):
        VapidKey.from_stored(VapidKey.generate().public_key, private)


def test_a_push_arrives_signed_by_the_published_key_and_decrypts_to_its_payload(
        push_service: PushService, pusher: Pusher, key: VapidKey) -> None:
    browser = push_service.new_subscription()
    got = pusher.send(of(browser), turn(ttl=3600, urgency="high"))
    assert got == Pushed("sent", 201)
    [arrived] = push_service.wait_for(1)
    assert arrived.data == {"kind": "your_turn", "game_id": GAME, "title": "Your turn",
                            "body": "Friday night waits for you", "url": f"https://facedown.example/#/game/{GAME}"}
    assert (arrived.ttl, arrived.urgency, arrived.topic) == (3600, "high", topic_for(GAME))
    assert arrived.headers["content-encoding"] == "aes128gcm"
    assert arrived.vapid is not None and arrived.vapid.key == unb64url(key.public_key)
    assert arrived.vapid.claims["sub"] == CONTACT and arrived.vapid.claims["aud"] == push_service.origin


def test_a_newer_push_about_a_game_replaces_the_one_not_yet_received(push_service: PushService,
                                                                     pusher: Pusher) -> None:
    browser = push_service.new_subscription()
    other = str(uuid.uuid4())
    for push in (turn(), turn(other), turn()):
        assert pusher.send(of(browser), push).status == "sent"
    first, about_other, newer = push_service.wait_for(3)
    assert push_service.replacements == [(first, newer)]
    assert push_service.outstanding(browser) == [about_other, newer]


def test_a_topic_is_at_most_32_base64url_characters_and_one_per_game() -> None:
    topics = {topic_for(str(uuid.uuid4())) for _ in range(50)} | {topic_for("not a uuid" * 10)}
    assert len(topics) == 51
    assert all(len(t) <= 32 and set(t) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
               for t in topics)


@pytest.mark.parametrize("status", [404, 410])
def test_a_subscription_the_push_service_no_longer_has_is_gone(push_service: PushService, pusher: Pusher,
                                                               status: int) -> None:
    browser = push_service.new_subscription()
    push_service.expire(browser, status)
    got = pusher.send(of(browser), turn())
    assert (got.status, got.code) == ("gone", status)


def test_too_many_pushes_are_retried_after_the_time_the_push_service_asks(push_service: PushService,
                                                                          pusher: Pusher) -> None:
    browser = push_service.new_subscription()
    push_service.refuse_next(429, retry_after=120)
    assert pusher.send(of(browser), turn()) == Pushed("retry", 429, 120.0, "HTTP 429")
    push_service.refuse_next(503)
    assert pusher.send(of(browser), turn()) == Pushed("retry", 503, None, "HTTP 503")
    assert pusher.send(of(browser), turn()).status == "sent"


def test_a_push_refused_for_what_it_is_fails_for_good(push_service: PushService, pusher: Pusher) -> None:
    browser = push_service.new_subscription()
    too_big = Push("your_turn", GAME, "x", "y" * 5000, "https://facedown.example/")
    assert (pusher.send(of(browser), too_big).status, push_service.requests[-1].status) == ("failed", 413)
    elsewhere = push_service.new_subscription(application_server_key=VapidKey.generate().public_key)
    assert pusher.send(of(elsewhere), turn()) == Pushed("failed", 403, None, "HTTP 403")


def test_an_endpoint_at_a_private_address_is_refused_unless_allowed(push_service: PushService, key: VapidKey) -> None:
    browser = push_service.new_subscription()
    strict = Pusher.from_env(key, CONTACT, {})
    got = strict.send(of(browser), turn())
    assert got.status == "failed" and (got.detail or "").startswith("refused:")
    assert push_service.requests == []  # nothing was sent there
    assert Pusher.from_env(key, CONTACT, {"FACEDOWN_PUSH_ALLOW_PRIVATE": "1"}).send(of(browser), turn()).status == "sent"


def test_a_push_service_that_cannot_be_reached_is_tried_again(key: VapidKey, pusher: Pusher) -> None:
    with PushService(application_server_key=key.public_key) as gone_away:
        browser = gone_away.new_subscription()
    got = pusher.send(of(browser), turn())
    assert got.status == "retry" and got.code is None


def test_retry_after_is_seconds_or_a_date() -> None:
    now = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)
    assert retry_after("30", now) == 30.0
    assert retry_after("Sun, 01 Mar 2026 12:02:00 GMT", now) == 120.0
    assert retry_after("Sun, 01 Mar 2026 11:00:00 GMT", now) == 0.0
    assert retry_after("soon", now) is None and retry_after(None, now) is None
