"""Signed webhooks: Standard Webhooks headers a receiver can verify, retries with back-off,
the same webhook-id on a duplicate, a lease that survives a worker killed mid-send, and a
webhook that keeps failing disabled with its owner told."""
from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from service.tools.contract.conformance import SHORT
from service.adapters.webhooks import signing
from service.adapters.webhooks.delivery import Policy, run_once
from tests.service.conftest import RULESETS
from tests.service.helpers import Live, acting, serve, start_game
from tests.service.http.test_notifications import CARD, _all, _play
from tests.service.webhook_receiver import receiver

FAST = Policy(retry_after=(0.3, 0.6, 1.2), disable_after=2, lease_seconds=2, poll_seconds=0.05, allow_private=True)


@pytest.fixture(scope="module")
def live(db_factory: object) -> Iterator[Live]:
    yield from serve(db_factory.new(), webhook_worker=True, webhooks_allow_private=True,  # type: ignore[attr-defined]
                     extra={"webhook_policy": FAST})


def _register(p: Any, url: str, events: list[str] | None = None) -> dict[str, Any]:
    r = p.post("/v1/me/webhooks", {"url": url, **({"events": events} if events else {})})
    assert r.status_code == 201, r.text
    return r.json()


def _move(gid: str, players: list[Any], n: int = 1) -> None:
    for _ in range(n):
        p, v = acting(gid, players)
        actions = v["legal_actions"]
        assert p.post(f"/v1/games/{gid}/commands", next((a for a in actions if "call" not in a["type"].lower()),
                                                         actions[0])).status_code == 200


def test_a_receiver_verifies_every_delivery_with_the_secret_shown_once(live: Live) -> None:
    with receiver() as rx:
        gid, players = start_game(live, "pedro", seats=2)
        hook = _register(players[1], rx.url)
        assert hook["secret"].startswith("whsec_")
        assert "secret" not in players[1].get("/v1/me/webhooks").json()["webhooks"][0]
        _move(gid, players, 4)
        expected = [n for n in _all(players[1]) if n["seq"] > 0 and n["kind"] in hook["events"]]
        got = rx.wait_for(1, 10)
        assert got
        key = signing.secret_bytes(hook["secret"])
        for d in got:
            assert signing.verify(key, d.headers["webhook-id"], d.headers["webhook-timestamp"], d.body,
                                  d.headers["webhook-signature"])
            assert d.headers["webhook-signature"].startswith("v1,")
            assert abs(int(d.headers["webhook-timestamp"]) - time.time()) < 60
            body = d.json()
            assert body["type"] == body["data"]["kind"] and body["data"]["game_id"] == gid
            assert not CARD.findall(d.body.decode())
        # only notifications after the registration, and each at most once when answered 200
        seqs = [d.json()["data"]["seq"] for d in rx.wait_for(len(got), 1)]
        assert len(seqs) == len(set(seqs)) and set(seqs) <= {n["seq"] for n in expected}
        assert not signing.verify(b"wrong key", got[0].headers["webhook-id"], got[0].headers["webhook-timestamp"],
                                  got[0].body, got[0].headers["webhook-signature"])


def test_a_failed_delivery_is_retried_with_back_off_and_the_same_webhook_id(live: Live) -> None:
    with receiver() as rx:
        rx.answer = lambda n: 500 if n < 2 else 200
        gid, players = start_game(live, "least-score", seats=2)
        seat = acting(gid, players)[1]["seat"]
        waiting = players[1 - seat]
        hook = _register(waiting, rx.url, ["your_turn"])
        _move(gid, players, 1)  # now the other seat's turn: one your_turn
        got = rx.wait_for(3, 15)
        assert len(got) >= 3
        ids = {d.headers["webhook-id"] for d in got[:3]}
        assert len(ids) == 1, "a retry is the same message"
        gaps = [b.at - a.at for a, b in zip(got, got[1:3])]
        assert gaps[0] >= 0.25 and gaps[1] >= 0.5 and gaps[1] > gaps[0]  # 0.3 s, then 0.6 s (±10 %)
        # the receiver saw the third attempt before its answer reached the worker, which then
        # settles it: read the log once that is done
        deadline = time.monotonic() + 10
        while True:
            log = waiting.get(f"/v1/me/webhooks/{hook['id']}/deliveries").json()["deliveries"]
            first = next(d for d in log if d["webhook_id_header"] in ids)
            if first["status"] != "pending" or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert first["status"] == "delivered" and first["attempts"] == 3
        assert [a["status"] for a in first["attempt_log"]] == [500, 500, 200]


def test_a_webhook_that_keeps_failing_is_disabled_and_its_owner_told(live: Live) -> None:
    with receiver() as rx:
        rx.answer = lambda n: 503
        gid, players = start_game(live, "pedro", seats=2)
        hook = _register(players[0], rx.url)
        _move(gid, players, 20)  # several notifications for players[0], each failing for good
        deadline = time.monotonic() + 30
        state: dict[str, Any] = {}
        while time.monotonic() < deadline:
            state = next(w for w in players[0].get("/v1/me/webhooks").json()["webhooks"] if w["id"] == hook["id"])
            if not state["enabled"]:
                break
            time.sleep(0.1)
        assert not state["enabled"] and "failed" in state["disabled_reason"]
        told = [n for n in _all(players[0]) if n["kind"] == "webhook_disabled"]
        assert told and told[-1]["data"]["webhook_id"] == hook["id"]


def test_a_delivery_claimed_by_a_worker_that_died_is_sent_again_with_the_same_id(live: Live) -> None:
    """The lease: a claim never settled (the sender was killed) is due again, same webhook-id."""
    from events import webhooks

    api = live.app.extensions["facedown"]
    worker = live.app.extensions["facedown_workers"]["webhooks"]
    worker.close()  # this process's worker stops: the test plays both the dead and the next one
    try:
        with receiver() as rx:
            gid, players = start_game(live, "pedro", seats=2)
            _register(players[0], rx.url)
            _register(players[1], rx.url)
            _move(gid, players, 2)
            claimed = webhooks.claim(api.db, 100, FAST.lease_seconds)  # ... and then the process dies
            assert claimed
            assert webhooks.claim(api.db, 100, FAST.lease_seconds) == []  # leased: nobody else sends it
            time.sleep(FAST.lease_seconds + 0.2)
            while run_once(api, FAST):
                pass
            got = rx.wait_for(len(claimed), 5)
            sent = {d.headers["webhook-id"] for d in got}
            assert {f"msg_{c.delivery_id.hex}" for c in claimed} <= sent
    finally:
        from service.adapters.webhooks.delivery import DeliveryWorker

        live.app.extensions["facedown_workers"]["webhooks"] = DeliveryWorker(api, FAST)


def test_private_and_malformed_targets_are_refused_unless_allowed(live: Live, db_factory: object) -> None:
    p = live.player("careful")
    for url in ("ftp://example.com/x", "http://user:pw@example.com/", "http:///nohost", "x" * 3000):
        r = p.post("/v1/me/webhooks", {"url": url})
        assert r.status_code == 422 and r.headers["Content-Type"] == "application/problem+json", (url, r.text)
    r = p.post("/v1/me/webhooks", {"url": "http://127.0.0.1:9/x", "events": ["nope"]})
    assert r.status_code == 422 and "your_turn" in r.text
    for strict in serve(db_factory.new()):  # type: ignore[attr-defined]  # the default: private refused
        q = strict.player("strict")
        for url in ("http://127.0.0.1:8080/hook", "http://10.1.2.3/", "http://[::1]/", "http://169.254.169.254/",
                    "http://100.100.100.200/", "http://[2002:7f00:1::]/", "http://[2002:a9fe:a9fe::]/"):
            r = q.post("/v1/me/webhooks", {"url": url})
            assert r.status_code == 422 and "not globally routable" in r.json()["detail"], (url, r.text)


def test_a_removed_webhook_gets_nothing_more_and_is_gone_from_the_list(live: Live) -> None:
    with receiver() as rx:
        gid, players = start_game(live, "pedro", seats=2)
        hook = _register(players[0], rx.url)
        assert players[0].delete(f"/v1/me/webhooks/{hook['id']}").status_code == 204
        assert players[0].get("/v1/me/webhooks").json()["webhooks"] == []
        _move(gid, players, 4)
        time.sleep(0.5)
        assert rx.received == []
        missing = players[0].delete(f"/v1/me/webhooks/{uuid.uuid4()}")
        assert missing.status_code == 404 and missing.headers["Content-Type"] == "application/problem+json"
        assert json.loads(missing.text)["status"] == 404


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_delivery_of_a_game_is_its_notification_exactly_and_names_no_card(live: Live, ruleset: str) -> None:
    """The leak test of the webhook channel: a webhook for every seat, a game played on, and
    each delivery compared with the notification it carries (which names no card)."""
    with receiver() as rx:
        gid, players = start_game(live, ruleset, seats=3 if ruleset != "least-score" else 4, options=SHORT[ruleset])
        secrets = {}
        heads = {}
        for p in players:
            heads[p.id] = max([n["seq"] for n in _all(p)] or [0])
            secrets[p.id] = signing.secret_bytes(_register(p, rx.url)["secret"])
        _play(gid, players, 120)
        expected = {(p.id, n["seq"]): n for p in players for n in _all(p) if n["seq"] > heads[p.id]}
        assert len(expected) >= 5, "the game gave news"
        got = rx.wait_for(len(expected), 60)
        time.sleep(0.3)  # nothing more than that comes
        delivered = {}
        for d in rx.received:
            # The signature is an HMAC in base64: its random letters spell "QS" or "4C" by chance
            # and say nothing of any card, so it alone is left out of the scan.
            shown = {k: v for k, v in d.headers.items() if k.lower() != "webhook-signature"}
            text = d.body.decode() + json.dumps(shown)
            assert not CARD.findall(text), CARD.findall(text)[:5]
            owner = [pid for pid, key in secrets.items() if signing.verify(
                key, d.headers["webhook-id"], d.headers["webhook-timestamp"], d.body, d.headers["webhook-signature"])]
            assert len(owner) == 1, "signed with its owner's secret only"
            body = d.json()
            assert set(body) == {"type", "timestamp", "data"} and body["type"] == body["data"]["kind"]
            assert body["timestamp"] == body["data"]["at"] and body["timestamp"].endswith("Z")
            key = (owner[0], body["data"]["seq"])
            assert key not in delivered, "answered 200: delivered once"
            delivered[key] = body["data"]
        assert len(got) == len(expected) and delivered == expected
