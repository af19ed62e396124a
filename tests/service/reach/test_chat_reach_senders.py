"""A game chat's message, sent: the push (on by default) and the e-mail (for who asked) say who
wrote in which game, in the reader's language, with the words as written and nothing the
server adds; a player with the game open in a page gets no e-mail of it."""
from __future__ import annotations

import uuid

from events import players, reach
from service.usecases import chat
from tests.service.reach.conftest import Reach


def test_a_chat_is_pushed_and_mailed_saying_who_wrote_where_with_the_words(world: Reach) -> None:
    ann = world.player("Ann")
    bob = world.player("Bob", address="bob@example.org", locale="es", subscribe=True,
                       settings={"email": {"chat": True}})
    gid = world.game(ann, bob, name="Mesa <b>")
    chat.post(world.deps, gid, ann[0], "  good luck <3  ")
    world.send_all()
    found = players.by_id(world.deps.db, uuid.UUID(ann[0]))
    assert found is not None
    handle = found.handle
    [push] = [p for p in world.push.pushes if p.data["kind"] == "chat"]
    assert push.data["title"] == f"{handle} en Mesa <b>" and push.data["body"] == "good luck <3"
    [mail] = [m for m in world.mails_to("bob@example.org", "game") if "Mesa" in (m.header("Subject") or "")]
    assert mail.header("Subject") == f"{handle} escribió en Mesa <b>"
    assert "good luck <3" in (mail.text() or "")
    assert "/#/game/" + str(gid) in (mail.text() or "")


def test_no_chat_e_mail_while_the_game_is_open_in_a_page(world: Reach) -> None:
    ann = world.player("Ann")
    bob = world.player("Bob", address="bob2@example.org", settings={"email": {"chat": True}})
    gid = world.game(ann, bob)
    reach.page_opened(world.deps.db, "test-holder", uuid.UUID(bob[0]), gid, world.clock())
    chat.post(world.deps, gid, ann[0], "still there?")
    world.send_all()
    assert world.mails_to("bob2@example.org", "game") == []
