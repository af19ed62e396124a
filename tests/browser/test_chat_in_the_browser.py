"""The game chat beside the table, through the page (docs/chat.md): a seated player writes, the
other sees it arrive on the game's stream; words with HTML and script in them are shown as the
player typed them, never as markup; the page keeps the server's limits; a spectator reads
without a box to write in; a muted player's words leave the page, and so does a message an
operator hides."""
from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from events.db import Database
from events.store import EventStore
from service.usecases.chat import hide
from tests.browser.driver import Seat, Table
from tests.e2e.served import Served, served

@pytest.fixture(scope="module")
def chat_database(db_factory: Any) -> str:
    """This module's own database: the operator's hide is written to it directly."""
    return str(db_factory.new())


@pytest.fixture(scope="module")
def site(chat_database: str) -> Iterator[Served]:
    with served(chat_database, workers=1) as server:
        yield server


HOSTILE = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script><b>bold</b> & "quotes"'


def _at_table(seat: Seat, gid: str) -> None:
    seat.page.goto(f"{seat.table.url}/#/game/{gid}")
    seat.page.wait_for_selector(".game[aria-busy=false] #chat")


def test_chat_text_is_shown_escaped_live_and_within_the_limits(table: Table, chat_database: str) -> None:
    ann, bob, eve = table.seat("ann"), table.seat("bob"), table.seat("eve")
    gid = ann.post("/v1/games", {"ruleset": "corte", "seats": 2})["id"]
    bob.post(f"/v1/games/{gid}/join", {})
    ann.post(f"/v1/games/{gid}/chat", {"text": "<i>before</i> you came"})
    for s in (ann, bob, eve):
        _at_table(s, gid)
    # what was said before the page opened, as text
    ann.page.wait_for_selector("#chat-list .chat-text")
    assert bob.page.inner_text("#chat-list .chat-text") == "<i>before</i> you came"
    assert bob.page.locator("#chat-list i").count() == 0
    # bob writes through the page; ann's page gets it from the game's stream
    bob.page.fill("#chat-text", "  " + HOSTILE + "  ")
    bob.page.click("#chat-send")
    for s in (ann, bob, eve):
        s.page.wait_for_function("n => document.querySelectorAll('#chat-list .chat-text').length === n", arg=2)
        shown = s.page.locator("#chat-list .chat-text").nth(1)
        assert shown.inner_text() == HOSTILE
        assert s.page.locator("#chat-list img, #chat-list script, #chat-list b").count() == 0
        assert "&lt;img" in s.page.inner_html("#chat-list")
        assert s.page.evaluate("() => window.__pwned") is None
    assert bob.page.input_value("#chat-text") == ""
    # a spectator reads, with no box to write in
    assert eve.page.locator("#chat-form").is_hidden() and eve.page.locator("#chat-watching").is_visible()
    assert ann.page.locator("#chat-form").is_visible()
    # the page's limits are the server's: at most 500 characters typed, nothing blank sent
    assert ann.page.get_attribute("#chat-text", "maxlength") == "500"
    ann.page.fill("#chat-text", "   ")
    ann.page.click("#chat-send")
    ann.page.wait_for_selector("#toast:not([hidden])")
    assert "1 to 500" in ann.page.inner_text("#toast")
    ann.page.fill("#chat-text", "é" * 600)
    assert len(ann.page.input_value("#chat-text")) == 500
    # ann mutes bob from his message: his words leave her page, and stay on eve's
    ann.page.locator("#chat-list .chat-message", has_text="bold").locator(".chat-mute").click()
    ann.page.wait_for_function("() => document.querySelectorAll('#chat-list .chat-text').length === 1")
    assert eve.page.locator("#chat-list .chat-text").count() == 2
    # an operator hides ann's first message: it leaves every page at once
    n = int(str(eve.page.get_attribute("#chat-list .chat-message >> nth=0", "data-n")))
    db = Database(chat_database, max_size=1, service_role=False)
    try:
        assert hide(EventStore(db), uuid.UUID(gid), n, "test", "2026-01-01T00:00:00Z")
    finally:
        db.close()
    for s in (ann, eve):
        s.page.wait_for_function("n => !document.querySelector(`#chat-list .chat-message[data-n='${n}']`)", arg=n)
    assert eve.page.locator("#chat-list .chat-text").count() == 1
