"""A tournament's table ready (``tournament_round``), sent: pushed and e-mailed in the
reader's language, naming the round and the table's game, following the player's setting for
invitations (a seat kept for them): a player who turned invitation e-mails off gets none."""
from __future__ import annotations

import uuid

from service.usecases import tournaments
from tests.service.reach.conftest import Reach


def test_a_tables_round_is_pushed_and_mailed_in_the_readers_language(world: Reach) -> None:
    ann = world.player("Ann", address="ann-t@example.org", settings={"email": {"invited": False}})
    bob = world.player("Bob", address="bob-t@example.org", locale="es", subscribe=True)
    t = tournaments.create(world.deps, ann, {"name": "Copa", "ruleset": "pedro", "format": "swiss",
                                                "seats_per_table": 2, "rounds": 1, "max_players": 2})
    started = tournaments.join(world.deps, uuid.UUID(t.id), bob)
    assert started.status == "running"
    gid = started.rounds[0].tables[0].game_id
    world.send_all()
    [push] = [p for p in world.push.pushes if p.data["kind"] == "tournament_round"]
    assert push.data["title"] == "Ronda 1: tu mesa está lista"
    assert push.data["body"] == "Tu mesa de la ronda 1 del torneo está lista: Copa · round 1 · table 1."
    [mail] = [m for m in world.mails_to("bob-t@example.org", "game")
              if (m.header("Subject") or "").startswith("Ronda 1")]
    assert "/#/game/" + gid in (mail.text() or "")
    assert [m for m in world.mails_to("ann-t@example.org", "game")
            if "Round 1" in (m.header("Subject") or "")] == []
