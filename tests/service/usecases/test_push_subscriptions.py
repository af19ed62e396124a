"""Push subscriptions as use cases, on a real PostgreSQL: a browser's subscription kept (the same
endpoint renewed, not doubled), at most ten, removed; endpoints checked as webhook URLs are
(https, routable, unless the server allows private ones); keys checked for what encryption
needs. The test push service's subscriptions are real browsers' in all but name."""
from __future__ import annotations

import base64
import dataclasses
import uuid

import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from events import reach
from service.model.problems import Problem
from service.usecases import push_subscriptions as subs
from service.usecases.dependencies import Dependencies
from tests.service.usecases.conftest import player
from tests.support.push_service import PushService


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def point() -> bytes:
    return ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(Encoding.X962,
                                                                             PublicFormat.UncompressedPoint)


@pytest.fixture
def private_ok(deps: Dependencies) -> Dependencies:
    deps.config = dataclasses.replace(deps.config, push_allow_private=True)
    return deps


def test_a_browser_s_subscription_is_kept_renewed_listed_and_removed(private_ok: Dependencies) -> None:
    pid, _ = player(private_ok, "ann")
    with PushService() as push:
        browser = push.new_subscription()
        info = browser.info
        shown, created = subs.subscribe(private_ok, pid, info["endpoint"], info["keys"]["p256dh"],
                                        info["keys"]["auth"])
        assert created and shown["endpoint"] == browser.endpoint and shown["created_at"].endswith("Z")
        assert set(shown) == {"id", "endpoint", "created_at", "last_success_at", "last_failure_at", "last_error"}
        again, created = subs.subscribe(private_ok, pid, info["endpoint"], b64(point()), b64(b"k" * 16))
        assert not created and again["id"] == shown["id"]
        [kept] = reach.subscriptions(private_ok.db, uuid.UUID(pid))
        assert kept.p256dh != info["keys"]["p256dh"]  # the renewed keys
        assert subs.listing(private_ok, pid) == {"items": [again]}
        subs.remove(private_ok, pid, uuid.UUID(shown["id"]))
        assert subs.listing(private_ok, pid) == {"items": []}
        with pytest.raises(Problem) as gone:
            subs.remove(private_ok, pid, uuid.UUID(shown["id"]))
        assert gone.value.slug == "not-found"


def test_another_player_cannot_remove_or_see_a_subscription(private_ok: Dependencies) -> None:
    ann, _ = player(private_ok, "ann")
    bob, _ = player(private_ok, "bob")
    shown, _ = subs.subscribe(private_ok, ann, "http://127.0.0.1:9/push/a", b64(point()), b64(b"a" * 16))
    assert subs.listing(private_ok, bob) == {"items": []}
    with pytest.raises(Problem) as refused:
        subs.remove(private_ok, bob, uuid.UUID(shown["id"]))
    assert refused.value.slug == "not-found"
    assert len(subs.listing(private_ok, ann)["items"]) == 1


def test_a_player_has_at_most_ten_subscriptions(private_ok: Dependencies) -> None:
    pid, _ = player(private_ok, "ann")
    for i in range(subs.MAX_SUBSCRIPTIONS):
        subs.subscribe(private_ok, pid, f"http://127.0.0.1:9/push/{i}", b64(point()), b64(b"a" * 16))
    with pytest.raises(Problem) as full:
        subs.subscribe(private_ok, pid, "http://127.0.0.1:9/push/more", b64(point()), b64(b"a" * 16))
    assert full.value.slug == "too-many-subscriptions" and full.value.status == 409
    # renewing one of the ten is still allowed
    assert subs.subscribe(private_ok, pid, "http://127.0.0.1:9/push/3", b64(point()), b64(b"b" * 16))[1] is False


@pytest.mark.parametrize("endpoint", ["http://127.0.0.1:9/push/a", "https://127.0.0.1/push/a",
                                      "https://10.0.0.8/push/a", "https://[::1]/push", "https://169.254.169.254/x",
                                      "ftp://push.example.org/a", "https://user:pw@127.0.0.1/", "not a url", ""])
def test_an_endpoint_that_is_not_https_at_a_public_address_is_422(deps: Dependencies, endpoint: str) -> None:
    pid, _ = player(deps, "ann")
    with pytest.raises(Problem) as refused:
        subs.subscribe(deps, pid, endpoint, b64(point()), b64(b"a" * 16))
    assert refused.value.slug == "validation" and list(refused.value.extra["errors"]) == ["endpoint"]


def test_with_private_addresses_allowed_http_and_loopback_pass_but_other_schemes_do_not(
        private_ok: Dependencies) -> None:
    pid, _ = player(private_ok, "ann")
    assert subs.subscribe(private_ok, pid, "http://127.0.0.1:9/push/a", b64(point()), b64(b"a" * 16))[1]
    with pytest.raises(Problem):
        subs.subscribe(private_ok, pid, "ftp://127.0.0.1/push/a", b64(point()), b64(b"a" * 16))


def _compressed() -> str:
    key = ec.generate_private_key(ec.SECP256R1()).public_key()
    return b64(key.public_bytes(Encoding.X962, PublicFormat.CompressedPoint))


@pytest.mark.parametrize(("p256dh", "auth", "field"), [
    ("", b64(b"a" * 16), "keys.p256dh"),
    ("not base64!", b64(b"a" * 16), "keys.p256dh"),
    (b64(b"\x04" + b"\x01" * 64), b64(b"a" * 16), "keys.p256dh"),  # 65 bytes, not on the curve
    ("TRUNCATED", b64(b"a" * 16), "keys.p256dh"),  # a real point cut to 64 bytes
    ("COMPRESSED", b64(b"a" * 16), "keys.p256dh"),
    ("POINT", b64(b"a" * 15), "keys.auth"),
    ("POINT", b64(b"a" * 17), "keys.auth"),
    ("POINT", "a+b/", "keys.auth"),
])
def test_keys_that_encryption_cannot_use_are_422_naming_the_key(private_ok: Dependencies, p256dh: str, auth: str,
                                                               field: str) -> None:
    pid, _ = player(private_ok, "ann")
    p256dh = {"COMPRESSED": _compressed(), "POINT": b64(point()), "TRUNCATED": b64(point()[:64])}.get(p256dh, p256dh)
    with pytest.raises(Problem) as refused:
        subs.subscribe(private_ok, pid, "http://127.0.0.1:9/push/a", p256dh, auth)
    assert refused.value.slug == "validation" and list(refused.value.extra["errors"]) == [field]
    assert subs.listing(private_ok, pid) == {"items": []}


def test_padded_base64url_keys_are_taken_and_kept_unpadded(private_ok: Dependencies) -> None:
    pid, _ = player(private_ok, "ann")
    key = point()
    padded = base64.urlsafe_b64encode(key).decode()
    assert padded.endswith("=")
    subs.subscribe(private_ok, pid, "http://127.0.0.1:9/push/a", padded, base64.urlsafe_b64encode(b"a" * 16).decode())
    [kept] = reach.subscriptions(private_ok.db, uuid.UUID(pid))
    assert kept.p256dh == b64(key)
