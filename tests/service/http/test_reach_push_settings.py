"""Push subscriptions, notification settings and unsubscribe links, over HTTP: every answer of the
contract (200, 201, 204, 404, 409, 422 naming the field), a browser's subscription from the test
push service taken as a page would send it, and an e-mail's link turning its kind of e-mail off
without signing in, on a page in the player's language that names no one."""
from __future__ import annotations

import base64
from collections.abc import Iterator

import pytest
import requests

from service.model import reach as model
from service.usecases.push_subscriptions import MAX_SUBSCRIPTIONS
from tests.service.conftest import RULESETS
from tests.service.helpers import Live, Player, acting, start_game
from tests.service.http.reach_support import claimed, mail_rows, put, reaching, verified
from tests.support.push_service import PushService

PROBLEM = "application/problem+json"


@pytest.fixture(scope="module")
def reach_live(db_factory: object) -> Iterator[Live]:
    yield from reaching(db_factory.new())  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def push() -> Iterator[PushService]:
    with PushService() as service:
        yield service


def _errors(r: requests.Response) -> dict:
    assert r.status_code == 422 and r.headers["Content-Type"].startswith(PROBLEM), r.text
    return r.json()["errors"]


def test_the_vapid_key_is_public_and_the_same_each_time(reach_live: Live) -> None:
    first = requests.get(reach_live.url + "/v1/push/vapid-key", timeout=10)
    assert first.status_code == 200
    key = first.json()["public_key"]
    raw = base64.urlsafe_b64decode(key + "=")
    assert len(raw) == 65 and raw[0] == 4
    assert requests.get(reach_live.url + "/v1/push/vapid-key", timeout=10).json() == {"public_key": key}


def test_a_browser_subscribes_renews_lists_and_removes(reach_live: Live, push: PushService) -> None:
    ann = reach_live.player("ann")
    browser = push.new_subscription()
    made = ann.post("/v1/me/push-subscriptions", browser.info)  # PushSubscription.toJSON(), as it is
    assert made.status_code == 201 and made.headers["Cache-Control"] == "private, no-store"
    sub = made.json()
    assert sub["endpoint"] == browser.endpoint and "keys" not in sub and "auth" not in made.text
    renewed = ann.post("/v1/me/push-subscriptions", browser.info)
    assert renewed.status_code == 200 and renewed.json()["id"] == sub["id"]
    listed = ann.get("/v1/me/push-subscriptions")
    assert listed.status_code == 200 and listed.json() == {"items": [renewed.json()]}
    bob = reach_live.player("bob")
    assert bob.get("/v1/me/push-subscriptions").json() == {"items": []}
    assert bob.delete(f"/v1/me/push-subscriptions/{sub['id']}").status_code == 404
    assert ann.delete(f"/v1/me/push-subscriptions/{sub['id']}").status_code == 204
    assert ann.delete(f"/v1/me/push-subscriptions/{sub['id']}").status_code == 404
    assert ann.delete("/v1/me/push-subscriptions/not-a-uuid").status_code == 404
    assert ann.get("/v1/me/push-subscriptions").json() == {"items": []}


def test_at_most_ten_subscriptions_then_409(reach_live: Live, push: PushService) -> None:
    ann = reach_live.player("ann")
    for _ in range(MAX_SUBSCRIPTIONS):
        assert ann.post("/v1/me/push-subscriptions", push.new_subscription().info).status_code == 201
    r = ann.post("/v1/me/push-subscriptions", push.new_subscription().info)
    assert r.status_code == 409 and r.json()["type"] == "/problems/too-many-subscriptions"


def _with(info: dict, **change: object) -> dict:
    keys = {**info["keys"], **{k: v for k, v in change.items() if k in ("p256dh", "auth")}}
    out = {**info, "keys": keys, **{k: v for k, v in change.items() if k not in ("p256dh", "auth")}}
    return {k: v for k, v in out.items() if v is not DROP}


DROP = object()


@pytest.mark.parametrize(("change", "field"), [
    ({"endpoint": "ftp://127.0.0.1/push"}, "endpoint"), ({"endpoint": ""}, "endpoint"),
    ({"endpoint": DROP}, "endpoint"), ({"keys": DROP}, "keys"), ({"p256dh": "AAAA"}, "keys.p256dh"),
    ({"p256dh": "B" * 87}, "keys.p256dh"), ({"auth": "c2hvcnQ"}, "keys.auth"), ({"auth": 16}, "keys"),
    ({"expirationTime": "soon"}, "expirationTime"), ({"extra": 1}, "extra")])
def test_a_subscription_that_cannot_be_used_is_422_naming_the_field(reach_live: Live, push: PushService,
                                                                   change: dict, field: str) -> None:
    ann = reach_live.player("ann")
    errors = _errors(ann.post("/v1/me/push-subscriptions", _with(push.new_subscription().info, **change)))
    assert field in errors, errors
    assert ann.get("/v1/me/push-subscriptions").json() == {"items": []}


def test_a_server_that_refuses_private_endpoints_refuses_loopback_and_plain_http(live: Live,
                                                                               push: PushService) -> None:
    ann = live.player("ann")
    assert "endpoint" in _errors(ann.post("/v1/me/push-subscriptions", push.new_subscription().info))
    https = _with(push.new_subscription().info, endpoint="https://127.0.0.1:9/push/x")
    assert "endpoint" in _errors(ann.post("/v1/me/push-subscriptions", https))


def test_settings_start_as_the_defaults_and_a_put_changes_only_what_it_sends(reach_live: Live) -> None:
    ann = reach_live.player("ann")
    r = ann.get("/v1/me/notification-settings")
    assert r.status_code == 200 and r.json() == model.effective(None).json()
    assert r.headers["Cache-Control"] == "private, no-store"
    r = put(ann, "/v1/me/notification-settings", {"time_zone": "America/Sao_Paulo",
                                                  "quiet_hours": {"from": "23:00", "to": "08:00"}})
    assert r.status_code == 200 and r.json()["quiet_hours"] == {"from": "23:00", "to": "08:00"}
    r = put(ann, "/v1/me/notification-settings", {"push": {"turn": False}, "quiet_hours": None})
    after = r.json()
    assert after["time_zone"] == "America/Sao_Paulo" and after["quiet_hours"] is None
    assert after["push"]["turn"] is False and after["push"]["reminders"] == [86400, 7200]
    assert ann.get("/v1/me/notification-settings").json() == after
    assert reach_live.player("bob").get("/v1/me/notification-settings").json() == model.effective(None).json()


@pytest.mark.parametrize(("body", "field"), [
    ({"time_zone": "Nowhere/Town"}, "time_zone"), ({"time_zone": None}, "time_zone"),
    ({"quiet_hours": {"from": "7:00", "to": "08:00"}}, "quiet_hours.from"),
    ({"quiet_hours": {"from": "08:00", "to": "08:00"}}, "quiet_hours"),
    ({"email": {"turn": "sometimes"}}, "email.turn"), ({"email": {"reminders": [1] * 7}}, "email.reminders"),
    ({"push": {"reminders": [86400 * 31]}}, "push.reminders[0]"), ({"push": "on"}, "push"),
    ({"push": {"loud": True}}, "push.loud"), ({"language": "en"}, "language")])
def test_a_setting_that_cannot_be_is_422_naming_it(reach_live: Live, body: dict, field: str) -> None:
    ann = reach_live.player("ann")
    assert field in _errors(put(ann, "/v1/me/notification-settings", body))
    assert ann.get("/v1/me/notification-settings").json() == model.effective(None).json()


def _news_token(live: Live, locale: str) -> tuple[Player, str, str]:
    """A player with a verified address, their language chosen, who has an e-mail of news (their
    turn, written by the game's own notification): (the player, its kind, its link's token)."""
    gid, players = start_game(live, RULESETS[0], seats=2)
    for i, p in enumerate(players):
        assert put(p, "/v1/me/locale", {"locale": locale}).status_code == 200
        verified(live, p, f"news{i}.{p.id[:8]}@example.org")
    p = players[0]
    put(p, "/v1/me/notification-settings", {"email": {"turn": "immediate"}})
    # a command makes news: play until a seat with an address is told it is its turn
    for _ in range(20):
        for q in players:
            rows = [m for m in claimed(live, q) if m.kind in ("your_turn", "game_over", "invited")]
            if rows:
                return q, rows[0].kind, str(rows[0].unsubscribe)
        actor, view = acting(gid, players)
        r = actor.post(f"/v1/games/{gid}/commands", view["legal_actions"][0],
                       headers={"If-Match": f'"{view["version"]}"'})
        assert r.status_code in (200, 201), r.text
    raise AssertionError("no e-mail of news was written")


def test_an_unsubscribe_link_shows_a_page_then_one_click_turns_that_e_mail_off(reach_live: Live) -> None:
    player, kind, token = _news_token(reach_live, "es")
    link = f"{reach_live.url}/v1/unsubscribe/{token}"
    page = requests.get(link, timeout=10)
    assert page.status_code == 200 and page.headers["Content-Type"].startswith("text/html")
    assert 'lang="es"' in page.text and "Desactivarlos" in page.text and '<form method="post">' in page.text
    assert "<script" not in page.text and "@" not in page.text and player.id not in page.text
    for part in ("<title>Darse de baja - facedown</title>", "<main><h1>Darse de baja</h1>", '<button type="submit">'):
        assert part in page.text  # a title, a landmark, a heading, a labelled button
    assert page.headers["Cache-Control"] == "private, no-store" and "Content-Security-Policy" in page.headers
    before = player.get("/v1/me/notification-settings").json()
    assert before == player.get("/v1/me/notification-settings").json()  # the page changed nothing
    done = requests.post(link, data={"List-Unsubscribe": "One-Click"}, timeout=10)  # a mail client's one click
    assert done.status_code == 200 and done.json() == {"kind": kind, "turned_off": model.unsubscribe(kind)}
    after = player.get("/v1/me/notification-settings").json()
    assert after == model.effective(model.update(before, model.unsubscribe(kind))).json() != before
    browser = requests.post(link, headers={"Accept": "text/html,*/*;q=0.8"}, timeout=10)  # the page's button
    assert browser.status_code == 200 and "Hecho" in browser.text
    assert player.get("/v1/me/notification-settings").json() == after


def test_an_unknown_unsubscribe_link_is_404_as_a_page_and_as_a_problem(reach_live: Live) -> None:
    link = f"{reach_live.url}/v1/unsubscribe/9b2e4c6a-1d3f-4a5b-8c7d-0e1f2a3b4c5d"
    page = requests.get(link, headers={"Accept-Language": "pt-BR"}, timeout=10)
    assert page.status_code == 404 and "não é válido" in page.text and 'lang="pt-BR"' in page.text
    r = requests.post(link, timeout=10)
    assert r.status_code == 404 and r.headers["Content-Type"].startswith(PROBLEM)
    assert requests.get(f"{reach_live.url}/v1/unsubscribe/nope", timeout=10).status_code == 404


def test_the_link_of_an_e_mail_the_player_asked_for_turns_nothing_off(reach_live: Live) -> None:
    ann = reach_live.player("ann")
    put(ann, "/v1/me/email", {"email": "ann.asked@example.org"})
    [mail] = claimed(reach_live, ann, "verify_email")
    assert requests.post(f"{reach_live.url}/v1/unsubscribe/{mail.unsubscribe}", timeout=10).status_code == 404
    assert [r.kind for r in mail_rows(reach_live, ann)] == ["verify_email"]
