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
