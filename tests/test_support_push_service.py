"""The test push service (tests/support/push_service.py) takes what pywebpush sends, as a
browser vendor's push service would: a push with a good VAPID credential is accepted, verified
and decrypted; a wrong key, an expired or over-long token, a wrong audience, a tampered body or a
request RFC 8030 forbids is refused; and it answers 404, 410, 429 or 5xx when a test says so."""
from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import http_ece
import pytest
import requests
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid
from pywebpush import WebPusher, WebPushException, webpush

from tests.support.push_service import PushService, Subscription
from tests.support.webpush_crypto import b64url_encode, public_bytes

CONTACT = {"sub": "mailto:ops@facedown.example"}


@pytest.fixture(scope="module")
def vapid() -> Vapid:
    """The application server's key pair, as the service under test will keep it."""
    key = Vapid()
    key.generate_keys()
    return key


@pytest.fixture
def push(vapid: Vapid) -> Iterator[PushService]:
    with PushService(application_server_key=public_bytes(vapid.public_key)) as service:
        yield service


def _send(sub: Subscription, data: Any, vapid: Vapid, **kwargs: Any) -> requests.Response:
    answer: requests.Response = webpush(sub.info, json.dumps(data), vapid_private_key=vapid,
                                        vapid_claims=dict(CONTACT), **kwargs)
    return answer


def _refused(call: Any) -> requests.Response:
    with pytest.raises(WebPushException) as caught:
        call()
    response: requests.Response | None = caught.value.response
    assert response is not None
    return response


def _signed(vapid: Vapid, subscription: Subscription, **claims: Any) -> dict[str, str]:
    """VAPID headers made by py-vapid from claims pywebpush would have corrected (it replaces a
    past exp) or refused (py-vapid checks sub unless told not to), for sending them as they are."""
    lax = Vapid(private_key=vapid.private_key, conf={"no-strict": True})
    headers: dict[str, str] = lax.sign({"aud": subscription.endpoint.split("/push/")[0], **CONTACT, **claims})
    return headers


def test_a_push_from_pywebpush_is_accepted_verified_and_decrypted(push: PushService, vapid: Vapid) -> None:
    sub = push.new_subscription()
    answer = _send(sub, {"game": "g1", "seat": 2}, vapid, ttl=600, headers={"Urgency": "high", "Topic": "g1-turn"})
    assert answer.status_code == 201
    [got] = push.wait_for(1)
    assert answer.headers["Location"] == f"{push.origin}/message/{got.id}" and answer.headers["TTL"] == "600"
    assert (got.subscription_id, got.data, got.ttl, got.urgency, got.topic) == (sub.id, {"game": "g1", "seat": 2},
                                                                                600, "high", "g1-turn")
    assert got.payload == b'{"game": "g1", "seat": 2}'
    assert got.vapid is not None and got.vapid.key == public_bytes(vapid.public_key)
    assert got.vapid.claims["aud"] == push.origin and got.vapid.claims["sub"] == CONTACT["sub"]
    assert 0 < got.vapid.claims["exp"] - time.time() <= 24 * 3600
    assert got.headers["content-encoding"] == "aes128gcm"
    # the independent decryption agrees with the library's own on the very octets that came
    [request] = push.requests
    assert http_ece.decrypt(request.body, private_key=sub.private_key, auth_secret=sub.auth,
                            version="aes128gcm") == got.payload


def test_the_subscription_is_what_a_browser_hands_its_page() -> None:
    with PushService() as push:
        sub = push.new_subscription()
    info = sub.info
    assert info["endpoint"] == f"{push.origin}/push/{sub.id}" and push.origin.startswith("http://127.0.0.1:")
    assert info["keys"]["p256dh"] == b64url_encode(public_bytes(sub.private_key.public_key()))
    assert len(sub.p256dh) == 65 and sub.p256dh[0] == 4 and len(sub.auth) == 16
    assert "=" not in info["keys"]["p256dh"] + info["keys"]["auth"]
    assert push.new_subscription().id != sub.id


def test_another_application_server_key_is_refused_on_a_restricted_subscription(push: PushService) -> None:
    intruder = Vapid()
    intruder.generate_keys()
    answer = _refused(lambda: _send(push.new_subscription(), {"x": 1}, intruder))
    assert answer.status_code == 403 and "restricted" in answer.text
    assert push.pushes == []


def test_a_subscription_can_be_restricted_to_its_own_key(vapid: Vapid) -> None:
    other = Vapid()
    other.generate_keys()
    with PushService() as push:
        mine = push.new_subscription(application_server_key=b64url_encode(public_bytes(other.public_key)))
        assert _refused(lambda: _send(mine, {}, vapid)).status_code == 403
        assert _send(mine, {}, other).status_code == 201
        assert _send(push.new_subscription(), {}, vapid).status_code == 201


@pytest.mark.parametrize(("claims", "reason"), [
    ({"exp": int(time.time()) - 60}, "expired"),
    ({"exp": int(time.time()) + 25 * 3600}, "more than 24 hours"),
    ({"aud": "http://127.0.0.1:1"}, "aud"),
    ({"aud": "https://127.0.0.1"}, "aud"),
    ({"sub": "ops@facedown.example"}, "sub"),
])
def test_a_token_with_a_wrong_claim_is_refused(push: PushService, vapid: Vapid, claims: dict[str, Any],
                                               reason: str) -> None:
    sub = push.new_subscription()
    answer = WebPusher(sub.info).send(json.dumps({"x": 1}), headers=_signed(vapid, sub, **claims), ttl=60)
    assert answer.status_code == 403 and reason in answer.text
    assert push.pushes == []


def test_a_push_without_vapid_is_refused_unless_the_service_allows_it(vapid: Vapid) -> None:
    with PushService() as push:
        answer = WebPusher(push.new_subscription().info).send("hello", ttl=60)
        assert answer.status_code == 401
    with PushService(require_vapid=False) as lenient:
        assert WebPusher(lenient.new_subscription().info).send("hello", ttl=60).status_code == 201
        assert lenient.pushes[0].vapid is None and lenient.pushes[0].payload == b"hello"
        restricted = lenient.new_subscription(application_server_key=public_bytes(vapid.public_key))
        assert WebPusher(restricted.info).send("hello", ttl=60).status_code == 401


def _post(sub: Subscription, vapid: Vapid, body: bytes, **headers: str) -> requests.Response:
    sent = {"TTL": "60", "Content-Encoding": "aes128gcm", **_signed(vapid, sub), **headers}
    return requests.post(sub.endpoint, data=body, headers={k: v for k, v in sent.items() if v}, timeout=5)


def test_a_tampered_body_is_refused(push: PushService, vapid: Vapid) -> None:
    sub = push.new_subscription()
    body = WebPusher(sub.info).encode(b'{"game": "g1"}')["body"]
    assert _post(sub, vapid, body).status_code == 201
    for at in (0, 90, len(body) - 1):
        tampered = body[:at] + bytes([body[at] ^ 0x80]) + body[at + 1:]
        answer = _post(sub, vapid, tampered)
        assert answer.status_code == 400, at
    assert len(push.pushes) == 1


def test_a_body_encrypted_for_another_subscription_is_refused(push: PushService, vapid: Vapid) -> None:
    sub, other = push.new_subscription(), push.new_subscription()
    answer = _post(sub, vapid, WebPusher(other.info).encode(b"hello")["body"])
    assert answer.status_code == 400 and "does not decrypt" in answer.text


@pytest.mark.parametrize(("headers", "status", "reason"), [
    ({"TTL": ""}, 400, "TTL"),
    ({"TTL": "soon"}, 400, "TTL"),
    ({"Content-Encoding": "aesgcm"}, 400, "aes128gcm"),
    ({"Content-Encoding": ""}, 400, "aes128gcm"),
    ({"Urgency": "urgent"}, 400, "Urgency"),
    ({"Topic": "a" * 33}, 400, "Topic"),
    ({"Topic": "turn/g1"}, 400, "Topic"),
    ({"Authorization": ""}, 401, "Authorization"),
])
def test_a_request_rfc_8030_forbids_is_refused(push: PushService, vapid: Vapid, headers: dict[str, str],
                                               status: int, reason: str) -> None:
    sub = push.new_subscription()
    answer = _post(sub, vapid, WebPusher(sub.info).encode(b"hello")["body"], **headers)
    assert answer.status_code == status and reason in answer.text
    assert push.requests[-1].status == status and push.pushes == []


def test_a_body_over_4096_octets_is_refused_as_too_large(push: PushService, vapid: Vapid) -> None:
    sub = push.new_subscription()
    assert _send(sub, "x" * 3991, vapid).status_code == 201  # 3993 octets of JSON: 4096 on the wire
    assert _refused(lambda: _send(sub, "x" * 3992, vapid)).status_code == 413


def test_the_vapid_key_used_to_encrypt_too_is_refused(push: PushService, vapid: Vapid) -> None:
    sub = push.new_subscription()
    body = http_ece.encrypt(b"hello", private_key=vapid.private_key, dh=sub.p256dh, auth_secret=sub.auth,
                            version="aes128gcm")
    answer = _post(sub, vapid, body)
    assert answer.status_code == 400 and "also the encryption key" in answer.text


def test_a_push_with_the_topic_of_an_undelivered_one_replaces_it(push: PushService, vapid: Vapid) -> None:
    sub, other = push.new_subscription(), push.new_subscription()
    first = _send(sub, {"n": 1}, vapid, ttl=60, headers={"Topic": "turn"})
    _send(sub, {"n": 2}, vapid, ttl=60, headers={"Topic": "turn"})
    _send(other, {"n": 3}, vapid, ttl=60, headers={"Topic": "turn"})
    _send(sub, {"n": 4}, vapid, ttl=60)
    assert [(old.data, new.data) for old, new in push.replacements] == [({"n": 1}, {"n": 2})]
    assert first.headers["Location"].endswith(push.replacements[0][0].id)
    assert [p.data for p in push.deliver(sub)] == [{"n": 2}, {"n": 4}]
    _send(sub, {"n": 5}, vapid, ttl=60, headers={"Topic": "turn"})  # the earlier one was delivered
    assert len(push.replacements) == 1 and [p.data for p in push.outstanding(sub)] == [{"n": 5}]


def test_an_expired_subscription_answers_410_or_404_from_then_on(push: PushService, vapid: Vapid) -> None:
    gone, lost, kept = push.new_subscription(), push.new_subscription(), push.new_subscription()
    push.expire(gone)
    push.expire(lost.id, status=404)
    for _ in range(2):
        assert _refused(lambda: _send(gone, {}, vapid)).status_code == 410
        assert _refused(lambda: _send(lost, {}, vapid)).status_code == 404
    assert _send(kept, {}, vapid).status_code == 201
    unknown = {**kept.info, "endpoint": f"{push.origin}/push/nobody"}
    assert _refused(lambda: webpush(unknown, "{}", vapid_private_key=vapid,
                                    vapid_claims=dict(CONTACT))).status_code == 404


def test_the_next_pushes_can_be_throttled_or_failed(push: PushService, vapid: Vapid) -> None:
    sub, other = push.new_subscription(), push.new_subscription()
    push.refuse_next(429, retry_after=30)
    push.refuse_next(503, times=2, subscription=sub)
    with pytest.raises(WebPushException) as throttled:
        _send(sub, {"try": 1}, vapid)
    assert throttled.value.response is not None and throttled.value.response.status_code == 429
    assert throttled.value.retry_after == "30"
    assert _send(other, {"try": 1}, vapid).status_code == 201  # the 503s are for sub alone
    assert [_refused(lambda: _send(sub, {}, vapid)).status_code for _ in range(2)] == [503, 503]
    assert _send(sub, {"try": 4}, vapid).status_code == 201
    assert [r.status for r in push.requests] == [429, 201, 503, 503, 201]
    assert [p.data for p in push.pushes] == [{"try": 1}, {"try": 4}]


def test_a_push_without_a_payload_is_accepted(push: PushService, vapid: Vapid) -> None:
    sub = push.new_subscription()
    answer = webpush(sub.info, None, vapid_private_key=vapid, vapid_claims=dict(CONTACT), ttl=0)
    assert answer.status_code == 201
    assert (push.pushes[0].payload, push.pushes[0].data, push.pushes[0].ttl) == (b"", None, 0)


def test_a_push_is_judged_against_the_services_clock(vapid: Vapid) -> None:
    now = [time.time()]
    with PushService(application_server_key=public_bytes(vapid.public_key), clock=lambda: now[0]) as push:
        sub = push.new_subscription()
        headers = _signed(vapid, sub, exp=int(now[0]) + 600)
        assert WebPusher(sub.info).send("hi", headers=dict(headers), ttl=60).status_code == 201
        now[0] += 601
        assert WebPusher(sub.info).send("hi", headers=dict(headers), ttl=60).status_code == 403


def test_a_subscription_decrypts_what_was_encrypted_for_it() -> None:
    with PushService() as push:
        sub = push.new_subscription()
    body = http_ece.encrypt(b"secret", private_key=ec.generate_private_key(ec.SECP256R1()), dh=sub.p256dh,
                            auth_secret=sub.auth, version="aes128gcm")
    assert sub.decrypt(body) == b"secret"
