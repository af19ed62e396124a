"""No e-mail or push names a card, and none carries another player's address: whole games of
every ruleset, each player reachable by e-mail and push in one of the four languages, turns
e-mailed at once and reminded an hour apart, until the games end; then every message that
arrived at the SMTP server and the push service is read."""
from __future__ import annotations

import random
import re
from typing import Any

import pytest

from domain import bots
from domain.cards import RANKS, SPANISH_RANKS, SPANISH_SUITS, SUITS
from service.tools.check.leaks import ONE_ROUND
from service.usecases import playing
from service.usecases.lobby import available
from events import game_index
from facedown_client.bot import pick
from tests.service.reach.conftest import Reach

LOCALES = ("en", "es", "pt-BR", "pt-PT")
# each ruleset's cards as the service writes them (7S, 10H, 12B, JK), and a deck's words
CARD = re.compile(r"(?<![\w-])(?:(?:%s)(?:%s)|(?:%s)(?:%s)|JK)(?![\w-])" % (
    "|".join(RANKS), "|".join(SUITS), "|".join(SPANISH_RANKS), "|".join(SPANISH_SUITS)))
WORDS = re.compile(r"\b(spades?|hearts?|diamonds?|clubs?|ace|king|queen|jack|joker|oros|copas|espadas|bastos|"
                   r"ouros|paus|espadas|as de|rey|reina|sota|caballo|valete|dama|coringa|comodín)\b", re.I)
SETTINGS = {"email": {"turn": "immediate", "reminders": [71 * 3600, 70 * 3600]},
            "push": {"reminders": [71 * 3600, 70 * 3600]}}


def _bot(ruleset: str, seed: int) -> Any:
    """The kit's greedy bot (the conformance kit plays whole games with it)."""
    policy, rng = bots.policy(ruleset, "greedy"), random.Random(seed)

    def choose(view: dict[str, Any]) -> Any:
        actions, must = view["legal_actions"], view["seat"] in view["awaiting"]
        action = policy(view["table"], actions, rng, must)
        if action is None and must:
            action = pick(actions[rng.randrange(len(actions))], rng)
        return action

    return choose


def _finish(world: Reach, gid: Any, ruleset: str, moves: int = 600) -> None:
    """Play to the end: the seats move as the bot would, and when none does, time passes to
    the deadline and the server makes its moves (a window's close, a timed-out turn)."""
    choose = _bot(ruleset, 7)
    for _ in range(moves):
        row = game_index.rows(world.deps.db, [gid])[gid]
        if row.status != "active":
            return
        movers = [s["player_id"] for s in row.seats if s["seat"] in row.may_act]
        if not any(world.play(gid, p, choose) for p in movers):
            assert row.deadline_due is not None
            world.clock.now = max(world.clock.now, row.deadline_due)
            playing.play(world.deps, gid)
        world.send_all()  # the turn's reminders are written from its start
        world.clock.move(minutes=61)  # and come due between moves
        world.send_all()
    raise AssertionError("the game did not end")


def test_the_patterns_find_cards_as_the_service_writes_them() -> None:
    for text in ("7S", "a 10H", "(12B)", "JK", "KD.", "the Ace of spades", "as de oros"):
        assert CARD.search(text) or WORDS.search(text), text
    for text in ("Friday table", "pedro", "in 8 hours", "0b6c3c1e-6f3d-4d7e", "Es tu turno", "É a sua vez"):
        assert not CARD.search(text) and not WORDS.search(text), text


@pytest.mark.parametrize("ruleset", available())
def test_no_message_names_a_card_or_another_players_address(world: Reach, ruleset: str) -> None:
    seats = 3
    players = [world.player(f"P{i}", address=f"p{i}.{ruleset}@example.org", locale=LOCALES[i % 4],
                            settings=SETTINGS, subscribe=True) for i in range(seats)]
    gid = world.game(players[0], *players[1:], ruleset=ruleset, name=f"{ruleset} night",
                     options=ONE_ROUND.get(ruleset))
    world.send_all()
    _finish(world, gid, ruleset)
    world.send_all()
    mails, pushes = world.smtp.messages, world.push.pushes
    assert len(mails) > seats and len(pushes) > seats
    kinds = {p.data["kind"] for p in pushes}
    assert {"your_turn", "game_over"} <= kinds, kinds
    assert any("reminder" == p.data["kind"] for p in pushes)
    addresses = {f"p{i}.{ruleset}@example.org" for i in range(seats)}
    for mail in mails:
        [to] = mail.rcpt_tos
        whole = "\n".join([mail.header("Subject") or "", mail.text() or "", mail.html() or ""])
        assert not CARD.search(whole) and not WORDS.search(whole), whole
        assert not [a for a in addresses - {to} if a in whole + mail.raw.decode("utf-8", "replace")], "another player's address"
    for push in pushes:
        payload = push.payload.decode()
        assert not CARD.search(payload) and not WORDS.search(payload), payload
        assert not [a for a in addresses if a in payload]
