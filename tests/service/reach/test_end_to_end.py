"""Through the routes (reach-api's) and the senders of a served app, in real time: an address
given and verified from the e-mail that arrives over SMTP, a browser subscribed, a game whose
turn is e-mailed and pushed, its unsubscribe link followed with one click, and a sign-in code
e-mailed to a new device."""
from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from service.usecases.reach_facts import Policy
from tests.service.helpers import Live, Player, serve
from tests.support.push_service import PushService
from tests.support.smtp_server import SmtpServer

PUBLIC = "https://play.facedown.test"


@pytest.fixture
def site(database_url: str) -> Iterator[tuple[Live, SmtpServer, PushService]]:
    with SmtpServer() as smtp, PushService() as push:
        # an idle sender looks once a minute: what it sends sooner, a hint woke it for
        for live in serve(database_url, smtp_url=smtp.url, mail_from="facedown <noreply@facedown.test>",
                          public_url=PUBLIC, push_allow_private=True, reach_worker=True,
                          extra={"reach_policy": Policy(poll_seconds=60.0)}):
            yield live, smtp, push


def _until(check: Any, timeout: float = 10.0) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = check()
        if got:
            return got
        time.sleep(0.02)
    raise AssertionError("not within the time")


def _mail(smtp: SmtpServer, address: str, marker: str) -> Any:
    return _until(lambda: next((m for m in smtp.messages if address in m.rcpt_tos and marker in (m.text() or "")),
                               None))


def _put(player: Player, path: str, body: Any) -> requests.Response:
    return requests.put(player.live.url + path, json=body, headers=player.auth, timeout=10)


def _reachable(live: Live, smtp: SmtpServer, push: PushService, name: str) -> tuple[Player, str, Any]:
    player = live.player(name)
    address = f"{name.lower()}@example.org"
    assert _put(player, "/v1/me/email", {"email": address}).status_code == 202
    mail = _mail(smtp, address, "/verify-email?token=")
    token = re.search(r"/verify-email\?token=([\w-]+)", mail.text()).group(1)
    assert requests.post(f"{live.url}/v1/me/email/verify", json={"token": token}, timeout=10).status_code == 200
    assert _put(player, "/v1/me/notification-settings", {"email": {"turn": "immediate"}}).status_code == 200
    key = requests.get(f"{live.url}/v1/push/vapid-key", timeout=10).json()["public_key"]
    sub = push.new_subscription(application_server_key=key)
    assert player.post("/v1/me/push-subscriptions", sub.info).status_code == 201
    return player, address, sub


def test_a_players_turn_reaches_them_and_one_click_turns_that_email_off(
        site: tuple[Live, SmtpServer, PushService]) -> None:
    live, smtp, push = site
    ann, ann_at, _ = _reachable(live, smtp, push, "Ann")
    bob, bob_at, _ = _reachable(live, smtp, push, "Bob")
    made = ann.post("/v1/games", {"ruleset": "pedro", "seats": 2, "name": "Friday table"})
    gid = made.json()["id"]
    assert bob.post(f"/v1/games/{gid}/join", {}).status_code == 200
    game = ann.get(f"/v1/games/{gid}").json()
    [seat] = game["awaiting"]
    first = next(p for p in (ann, bob) if any(s["seat"] == seat and s["player_id"] == p.id for s in game["seats"]))
    address = ann_at if first is ann else bob_at
    turn = _mail(smtp, address, f"{PUBLIC}/#/game/{gid}")
    _until(lambda: [p for p in push.pushes if p.data["kind"] == "your_turn" and p.data["game_id"] == gid])
    link = turn.header("List-Unsubscribe").strip("<>")
    assert link.startswith(f"{PUBLIC}/v1/unsubscribe/")
    clicked = requests.post(link.replace(PUBLIC, live.url), data="List-Unsubscribe=One-Click", timeout=10,
                            headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert clicked.status_code == 200
    assert first.get("/v1/me/notification-settings").json()["email"]["turn"] == "off"


def test_a_sign_in_code_is_emailed_to_a_verified_address(site: tuple[Live, SmtpServer, PushService]) -> None:
    live, smtp, push = site
    ann, address, _ = _reachable(live, smtp, push, "Ann")
    asked = requests.post(f"{live.url}/v1/session/email", json={"email": address}, timeout=10)
    assert asked.status_code == 202
    mail = _mail(smtp, address, "/signin?code=")
    code = re.search(r"/signin\?code=([A-Z0-9-]+)", mail.text()).group(1)
    assert code in mail.text() and mail.header("List-Unsubscribe") is None
    opened = requests.post(f"{live.url}/v1/session", json={"code": code}, timeout=10,
                           headers={"Origin": live.url})
    assert opened.status_code in (200, 201), opened.text


def test_a_verification_email_goes_within_a_second_of_the_request(site: tuple[Live, SmtpServer, PushService]) -> None:
    live, smtp, _ = site
    ann = live.player("Ann")
    asked = time.monotonic()
    assert _put(ann, "/v1/me/email", {"email": "ann@example.org"}).status_code == 202
    mail = _mail(smtp, "ann@example.org", "/verify-email?token=")
    assert mail.at - asked < 1.0, f"{mail.at - asked:.2f} s"
