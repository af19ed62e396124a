"""Reaching a player whose page is closed, in the browser, apart from the pushes themselves
(test_pushes_in_the_browser.py): the Account page subscribes this browser, or says why it
cannot; lists and removes subscriptions; gives, verifies and removes an address; saves the
notification settings; and the pages our e-mails link to (``/verify-email?token=``,
``/signin?code=``) do their work and take the secret out of the address bar. In Spanish, no
English is left on any of them.

Chromium refuses ``pushManager.subscribe()`` in the browser contexts Playwright makes (they are
incognito-like), so the page's own subscribing is seen to fail and say so, and a subscription
is made through the API with the test's push service to be listed and removed on the page.
"""
from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timezone
from typing import Any

import pytest
import requests

from tests.browser.driver import Seat, Table, catalog, players
from tests.browser.test_languages import english_phrases, no_english
from tests.e2e.served import Served, served
from tests.support.push_service import PushService
from tests.support.smtp_server import SmtpServer

INCOGNITO = "does not support the Push API in incognito mode"
# the pages here subscribe to pushes, which the client's service worker receives and shows
SERVICE_WORKERS = "allow"


@pytest.fixture(scope="module")
def smtp() -> Iterator[SmtpServer]:
    with SmtpServer() as server:
        yield server


@pytest.fixture(scope="module")
def reach_site(db_factory: Any, smtp: SmtpServer) -> Iterator[tuple[Served, str]]:
    """A server that sends e-mail (an SMTP server is set) and takes pushes to loopback endpoints;
    its own senders stay off: the test reads the verification e-mail's row as a sender would."""
    url = db_factory.new()
    with served(url, workers=1, FACEDOWN_SMTP_URL=smtp.url, FACEDOWN_REACH_WORKER="0",
                FACEDOWN_PUSH_ALLOW_PRIVATE="1") as server:
        yield server, url


@pytest.fixture
def reach_table(reach_site: tuple[Served, str], browser: Any) -> Iterator[Table]:
    with players(reach_site[0].url, browser, SERVICE_WORKERS) as t:
        yield t


def _expected_error(table: Table, text: str) -> None:
    """One console error the test caused on purpose, taken off the list the fixture checks."""
    found = [e for e in table.console_errors if text in e[1]]
    assert len(found) == 1, table.console_errors
    table.console_errors.remove(found[0])


def test_subscribing_says_why_this_browser_cannot_and_subscriptions_are_listed_and_removed(reach_table: Table) -> None:
    ann = reach_table.seat("ann")
    p = ann.page
    ann.context.grant_permissions(["notifications"], origin=reach_table.url)
    p.click("nav a[href='#/account']")
    p.wait_for_selector("#push-list[aria-busy=false]")
    assert p.get_attribute("#push-state", "data-state") == "off"
    assert p.inner_text("#push-list") == ann.words["push.none"]
    p.click("#push-subscribe")
    p.wait_for_function("() => document.getElementById('push-said').textContent !== ''")
    assert p.inner_text("#push-said") == ann.words["push.failed"]  # Chromium here: no Push API in incognito
    _expected_error(reach_table, INCOGNITO)
    with PushService() as push:
        sub = push.new_subscription()
        made = requests.post(reach_table.url + "/v1/me/push-subscriptions", headers=ann.auth,
                             json={"endpoint": sub.endpoint, "keys": sub.info["keys"]}, timeout=10)
        assert made.status_code == 201, made.text
        p.reload()
        item = p.locator("#push-list li.subscription")
        item.wait_for()
        assert "127.0.0.1" in item.inner_text()  # the push service's host: not a browser we know by name
        ann.axe("the account page with a subscription")
        item.locator("button.remove").click()
        p.wait_for_selector("#push-list li:not(.subscription)")
        assert p.inner_text("#push-said") == ann.words["push.removed"]
    assert ann.api("/v1/me/push-subscriptions")["items"] == []


def test_the_notification_settings_save_and_come_back_after_a_reload(table: Table) -> None:
    ann = table.seat("ann", timezone="America/Sao_Paulo")
    p = ann.page
    p.click("nav a[href='#/account']")
    p.wait_for_selector("#settings-form[aria-busy=false]")
    p.wait_for_selector("#email-section[aria-busy=false]")
    assert p.input_value("#time-zone") == "America/Sao_Paulo"  # the browser's, until saved
    assert p.inner_text("#time-zone-hint") == ann.words["settings.time_zone_browser"]
    assert p.locator("#email-off").is_visible()  # this server sends no e-mail, and says so
    assert p.inner_text("#email-off") == ann.words["email.off"] and p.is_disabled("#email")
    form = p.locator("#settings-form")
    assert form.locator("input[name='quiet-from']").is_disabled()
    form.locator("input[name='quiet']").check()
    form.locator("input[name='quiet-from']").fill("23:00")
    form.locator("input[name='quiet-to']").fill("07:30")
    form.locator("input[name='email-turn'][value='immediate']").check()
    form.locator("input[name='email-reminders'][value='86400']").uncheck()
    form.locator("input[name='email-reminders'][value='3600']").check()
    form.locator("input[name='push-reminders'][value='14400']").check()
    form.locator("input[name='push-game-over']").uncheck()
    form.locator("input[name='email-invited']").uncheck()
    # the chat's switches, each turned from its default (e-mail off, push on), under its own words
    for name in ("email-chat", "push-chat"):
        label = form.locator(f"input[name='{name}']").evaluate("i => i.labels[0].textContent")
        assert label == ann.words["settings.chat"]
    assert not form.locator("input[name='email-chat']").is_checked() and form.locator("input[name='push-chat']").is_checked()
    form.locator("input[name='email-chat']").check()
    form.locator("input[name='push-chat']").uncheck()
    p.click("#settings-save")
    p.wait_for_function("t => document.getElementById('settings-said').textContent === t", arg=ann.words["settings.saved"])
    want = {"time_zone": "America/Sao_Paulo", "quiet_hours": {"from": "23:00", "to": "07:30"},
            "email": {"turn": "immediate", "reminders": [7200, 3600], "game_over": True, "invited": False,
                      "chat": True},
            "push": {"turn": True, "reminders": [86400, 14400, 7200], "game_over": False, "invited": True,
                     "chat": False}}
    assert ann.api("/v1/me/notification-settings") == want
    ann.axe("the account page")
    ann.shot("account")
    p.reload()
    p.wait_for_selector("#settings-form[aria-busy=false]")
    assert p.inner_text("#time-zone-hint") == ann.words["settings.time_zone_hint"]
    seen = p.evaluate("""() => { const f = document.getElementById('settings-form');
      const on = (sel) => [...f.querySelectorAll(sel)].filter(i => i.checked).map(i => i.value);
      return {zone: f.elements.namedItem('time_zone').value, quiet: on("input[name='quiet']").length === 1,
        from: f.elements.namedItem('quiet-from').value, to: f.elements.namedItem('quiet-to').value,
        turn: on("input[name='email-turn']"), email: on("input[name='email-reminders']").map(Number),
        push: on("input[name='push-reminders']").map(Number), pushOver: on("input[name='push-game-over']").length,
        invited: on("input[name='email-invited']").length, emailChat: on("input[name='email-chat']").length,
        pushChat: on("input[name='push-chat']").length}; }""")
    assert seen == {"zone": "America/Sao_Paulo", "quiet": True, "from": "23:00", "to": "07:30", "turn": ["immediate"],
                    "email": [7200, 3600], "push": [86400, 14400, 7200], "pushOver": 0, "invited": 0,
                    "emailChat": 1, "pushChat": 0}


def _verification_link(database_url: str, base: str) -> str:
    """The link of the verification e-mail waiting in the outbox, taken as the sender takes it
    (the server's own sender is off: this test is about the page, the senders' tests about the
    e-mail)."""
    from events.db import Database
    from events.reach_outbox import claim_mail
    from events.roles import service_url

    db = Database(service_url(database_url), max_size=1)
    try:
        [mail] = [m for m in claim_mail(db, 10, 60, datetime.now(timezone.utc)) if m.kind == "verify_email"]
    finally:
        db.close()
    assert mail.secret
    return f"{base}/verify-email?token={mail.secret}"


def _give(seat: Seat, address: str) -> None:
    p = seat.page
    p.fill("#email", address)
    p.click("#email-save")
    sent = seat.words["email.sent"].format(email=address)
    p.wait_for_function("t => document.getElementById('email-said').textContent === t", arg=sent)
    assert address in p.inner_text("#email-state") and p.locator("#email-resend").is_visible()


def test_an_address_is_given_verified_by_its_link_and_removed(reach_table: Table, reach_site: tuple[Served, str]) -> None:
    ann = reach_table.seat("ann")
    p = ann.page
    p.click("nav a[href='#/account']")
    p.wait_for_selector("#email-section[aria-busy=false]")
    assert p.locator("#email-off").is_hidden()
    p.fill("#email", "not an address")
    p.click("#email-save")  # the browser's own check first: nothing is sent
    assert p.inner_text("#email-said") == ""
    _give(ann, "ann@example.org")
    first = _verification_link(reach_site[1], reach_table.url)
    _give(ann, "ann@example.net")  # a newer address: the first link verifies nothing now
    link = _verification_link(reach_site[1], reach_table.url)
    p.goto(first)
    p.wait_for_selector(".verify[aria-busy=false]")
    assert p.url == reach_table.url + "/#/verify-email"  # the token is out of the address at once
    assert p.get_attribute(".verify", "data-verified") == "false"
    assert p.inner_text("#verify-result") == ann.words["verify.replaced"]
    _expected_error(reach_table, "400")
    p.goto(link)
    p.wait_for_selector(".verify[aria-busy=false]")
    assert p.url == reach_table.url + "/#/verify-email" and p.get_attribute(".verify", "data-verified") == "true"
    assert p.inner_text("#verify-result") == ann.words["verify.done"].format(email="ann@example.net")
    p.click("#to-account")
    p.wait_for_selector("#email-remove")
    p.wait_for_function("t => document.getElementById('email-state').textContent === t",
                        arg=ann.words["email.verified"].format(email="ann@example.net"))
    assert ann.api("/v1/me")["email_verified"] is True and p.locator("#email-resend").is_hidden()
    ctx = reach_table.browser.new_context()  # another browser, not signed in: the link is used
    try:
        other = ctx.new_page()
        other.goto(link)
        other.wait_for_selector(".verify[aria-busy=false]")
        assert other.inner_text("#verify-result") == catalog()["verify.used"]
    finally:
        ctx.close()
    p.click("#email-remove")
    p.wait_for_function("t => document.getElementById('email-said').textContent === t", arg=ann.words["email.removed"])
    assert ann.api("/v1/me")["email"] is None and p.inner_text("#email-state") == ann.words["email.none"]


def test_a_sign_in_link_signs_in_and_leaves_no_code_in_the_address(table: Table) -> None:
    ann = table.seat("ann")
    code = requests.post(table.url + "/v1/session/codes", headers=ann.auth, timeout=10).json()["code"]
    ctx = table.browser.new_context()
    try:
        page = ctx.new_page()
        page.goto(f"{table.url}/signin?code={code}")
        page.wait_for_selector(".inbox[aria-busy=false]")
        assert page.url == table.url + "/#/" and ann.handle in page.inner_text("#who")
        page.goto(f"{table.url}/signin?code={code}")  # a code works once: the page says so, signed in still
        page.wait_for_selector("#toast:not([hidden])")
        assert page.inner_text("#toast") == catalog()["problem.invalid-code"]
        page.click("nav a[href='#/account']")
        page.click("#sign-out")
        page.wait_for_selector("#email-signin-form")
        # asking for a link by e-mail: this server sends none, and says so whatever the address
        page.fill("#signin-email", "ann@example.org")
        page.click("#email-signin")
        page.wait_for_function("() => document.getElementById('signin-email-said').textContent !== ''")
        assert page.inner_text("#signin-email-said") == catalog()["problem.email-unavailable"]
    finally:
        ctx.close()


def test_the_account_page_and_the_pages_of_links_speak_spanish(reach_table: Table) -> None:
    phrases = english_phrases("es")
    ana = reach_table.seat("ana", locale="es-ES", words="es", timezone="Europe/Madrid")
    p = ana.page
    ana.context.grant_permissions(["notifications"], origin=reach_table.url)
    p.click("nav a[href='#/account']")
    p.wait_for_selector("#settings-form[aria-busy=false]")
    p.wait_for_selector("#push-list[aria-busy=false]")
    p.wait_for_selector("#email-section[aria-busy=false]")
    p.fill("#email", "ana@example.org")
    p.click("#email-save")
    p.wait_for_function("() => document.getElementById('email-said').textContent !== ''")
    p.click("#push-subscribe")
    p.wait_for_function("() => document.getElementById('push-said').textContent !== ''")
    _expected_error(reach_table, INCOGNITO)
    p.locator("#settings-form input[name='quiet']").check()
    p.click("#settings-save")
    p.wait_for_function("t => document.getElementById('settings-said').textContent === t", arg=ana.words["settings.saved"])
    no_english(ana, phrases, "the account page")
    assert p.inner_text("#push-said") == ana.words["push.failed"]
    ana.axe("the account page in es")
    ana.shot("account-es")
    p.goto(reach_table.url + "/verify-email?token=not-a-token")
    p.wait_for_selector(".verify[aria-busy=false]")
    assert p.inner_text("#verify-result") == ana.words["verify.invalid"]
    no_english(ana, phrases, "a verification link that is not one")
    ana.axe("the verification page in es")
    _expected_error(reach_table, "400")
    p.goto(reach_table.url + "/signin?code=AAAAA-AAAAA")
    p.wait_for_selector("#toast:not([hidden])")
    assert p.inner_text("#toast") == ana.words["problem.invalid-code"] and p.url == reach_table.url + "/#/"
    _expected_error(reach_table, "401")


def test_asking_for_a_sign_in_link_answers_the_same_whatever_the_address(reach_table: Table) -> None:
    ctx = reach_table.browser.new_context()
    try:
        page = ctx.new_page()
        page.goto(reach_table.url + "/")
        said = []
        for address in ("nobody@example.org", "someone@example.org"):
            page.fill("#signin-email", address)
            page.click("#email-signin")
            page.wait_for_function("() => document.getElementById('signin-email-said').textContent !== ''")
            said.append(page.inner_text("#signin-email-said"))
            page.evaluate("() => { document.getElementById('signin-email-said').textContent = ''; }")
        assert said == [catalog()["signin.email_sent"]] * 2
    finally:
        ctx.close()
