"""The e-mail sender end to end: rows written by a game's appends, decided, rendered, sent
over SMTP to the test server, settled."""
from __future__ import annotations

import uuid

from events import reach_outbox
from tests.service.reach.conftest import PUBLIC, Reach

IMMEDIATE = {"email": {"turn": "immediate"}}


def test_a_turn_is_emailed_at_once_with_text_html_and_a_link_to_the_game(world: Reach) -> None:
    ann = world.player("Ann", address="ann@example.org", settings=IMMEDIATE)
    bob = world.player("Bob", address="bob@example.org", settings=IMMEDIATE)
    gid = world.game(ann, bob)
    [first] = world.awaited(gid)
    to, other = ("ann@example.org", "bob@example.org") if first == ann[0] else ("bob@example.org", "ann@example.org")
    world.send_all()
    [mail] = world.mails_to(to, "news")
    assert world.mails_to(other, "news") == []
    assert mail.rcpt_tos == (to,)
    assert f"{PUBLIC}/#/game/{gid}" in (mail.text() or "") and f"{PUBLIC}/#/game/{gid}" in (mail.html() or "")
    assert "Friday table" in (mail.header("Subject") or "") and "pedro" in (mail.text() or "")
    assert mail.header("Content-Language") == "en"
    row = next(r for r in reach_outbox.mail_rows(world.deps.db, uuid.UUID(first)) if r.kind == "your_turn")
    assert row.status == "sent"
    assert mail.header("Message-ID") == f"<{row.id.hex}@facedown.test>"
    assert mail.header("List-Unsubscribe") == f"<{PUBLIC}/v1/unsubscribe/{_token(world, row.id)}>"
    assert mail.header("List-Unsubscribe-Post") == "List-Unsubscribe=One-Click"


def _token(world: Reach, mail_id: uuid.UUID) -> str:
    with world.deps.db.connection() as conn:
        return str(conn.execute("SELECT unsubscribe FROM mail_outbox WHERE mail_id = %s", (mail_id,)).fetchone()[0])


def test_an_invitation_is_emailed_in_the_invitees_language_unless_they_took_the_seat_first(world: Reach) -> None:
    from service.usecases import game_life, lobby

    ann = world.player("Ann")
    bea = world.player("Bea", address="bea@example.org", locale="es", settings=IMMEDIATE)
    cid = world.player("Cid", address="cid@example.org", locale="pt-PT", settings=IMMEDIATE)
    world.mail.run_once()  # the verifications
    first = uuid.UUID(lobby.create_game(world.deps, ann, "pedro", 3, {}, "Mesa del viernes", True, None)[0].game.id)
    second = lobby.create_game(world.deps, ann, "pedro", 3, {}, "Outra mesa", True, None)[0].game.id
    game_life.invite(world.deps, first, ann[0], bea[0], None)
    game_life.invite(world.deps, uuid.UUID(second), ann[0], cid[0], None)
    lobby.join_game(world.deps, uuid.UUID(second), cid, None)  # Cid takes it before the e-mail goes
    world.send_all()
    [invitation] = world.mails_to("bea@example.org", "news")
    assert invitation.header("Subject") == "Un asiento para ti en Mesa del viernes"
    assert "Ann te ha reservado un asiento en Mesa del viernes." in (invitation.text() or "")
    assert invitation.header("Content-Language") == "es"
    cid_rows = [r for r in reach_outbox.mail_rows(world.deps.db, uuid.UUID(cid[0])) if r.kind == "invited"]
    assert [(r.status, r.last_error) for r in cid_rows] == [("skipped", "no longer invited")]


def test_an_email_the_server_could_not_take_is_retried_after_the_back_off_with_the_same_message_id(
        world: Reach) -> None:
    ann = world.player("Ann", address="ann@example.org", settings=IMMEDIATE)
    bob = world.player("Bob", address="bob@example.org", settings=IMMEDIATE)
    world.mail.run_once()  # the verifications
    gid = world.game(ann, bob)
    [first] = world.awaited(gid)
    to = "ann@example.org" if first == ann[0] else "bob@example.org"
    world.smtp.refuse_next(1, 451)
    world.send_all()
    assert world.mails_to(to, "news") == [] and [code for code, _ in world.smtp.refused] == [451]
    [row] = [r for r in reach_outbox.mail_rows(world.deps.db, uuid.UUID(first)) if r.kind == "your_turn"]
    assert row.status == "pending" and row.failures == 1 and "451" in (row.last_error or "")
    assert row.due_at is not None and (row.due_at - world.clock()).total_seconds() == 60
    world.clock.move(seconds=59)
    world.send_all()
    assert world.mails_to(to, "news") == []
    world.clock.move(seconds=1)
    world.send_all()
    [mail] = world.mails_to(to, "news")
    assert mail.header("Message-ID") == f"<{row.id.hex}@facedown.test>"
    assert world.smtp.refused[0][1].message["Message-ID"] == mail.header("Message-ID")
