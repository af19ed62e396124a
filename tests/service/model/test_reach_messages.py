"""What may go now (service/model/reach_messages.py): quiet hours hold everything but a reminder
whose deadline falls inside them, a digest collects turns, an open page silences e-mail, what
the player turned off is skipped; reminders' times and keys; digests most urgent first; messages
as keys and arguments that name games, players and deadlines, never a card."""
from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest

from service.model import reach, reach_messages as rm
from service.model.reach_messages import Decision, Game, Waiting

UTC = timezone.utc
QUIET = reach.effective({"time_zone": "Europe/Lisbon", "quiet_hours": {"from": "22:00", "to": "07:00"},
                         "email": {"turn": "immediate"}})
NIGHT = datetime(2026, 1, 10, 23, 0, tzinfo=UTC)  # 23:00 in Lisbon: quiet until 07:00
MORNING = datetime(2026, 1, 11, 7, 0, tzinfo=UTC)
DAY = datetime(2026, 1, 11, 12, 0, tzinfo=UTC)
GAME = Game("6f1c0c7e-0000-4000-8000-000000000001", "Friday night", "pedro")


def test_in_the_day_a_turn_is_emailed_and_pushed_at_once() -> None:
    assert rm.decide(QUIET, "email", "your_turn", DAY) == Decision("send")
    assert rm.decide(QUIET, "push", "your_turn", DAY) == Decision("send")


@pytest.mark.parametrize("kind", ["your_turn", "game_over", "invited"])
@pytest.mark.parametrize("channel", ["email", "push"])
def test_during_quiet_hours_news_waits_for_their_end(channel: str, kind: str) -> None:
    assert rm.decide(QUIET, channel, kind, NIGHT) == Decision("wait", at=MORNING)


def test_a_reminder_whose_deadline_falls_inside_the_quiet_hours_goes_at_once_and_others_wait() -> None:
    soon = NIGHT + timedelta(hours=2)
    assert rm.decide(QUIET, "email", "reminder", NIGHT, deadline=soon, lead=7200) == Decision("send")
    assert rm.decide(QUIET, "push", "reminder", NIGHT, deadline=MORNING, lead=7200) == Decision("send")
    later = MORNING + timedelta(hours=3)
    assert rm.decide(QUIET, "push", "reminder", NIGHT, deadline=later, lead=7200) == Decision("wait", at=MORNING)


def test_a_reminder_is_skipped_when_its_lead_was_turned_off_or_its_deadline_has_passed() -> None:
    assert rm.decide(QUIET, "email", "reminder", DAY, deadline=DAY + timedelta(hours=1), lead=3600).action == "skip"
    assert rm.decide(QUIET, "email", "reminder", DAY, deadline=DAY, lead=7200) == Decision(
        "skip", reason="the deadline has passed")
    assert rm.decide(QUIET, "email", "reminder", DAY, deadline=None, lead=7200).reason == "no longer awaited"


def test_by_default_turns_are_emailed_in_a_digest_and_pushed_at_once() -> None:
    defaults = reach.effective(None)
    got = rm.decide(defaults, "email", "your_turn", DAY)
    assert got == Decision("digest", at=datetime(2026, 1, 11, 18, 0, tzinfo=UTC))
    assert rm.decide(defaults, "push", "your_turn", DAY) == Decision("send")
    assert rm.decide(defaults, "email", "digest", DAY) == Decision("send")


def test_nothing_is_emailed_about_a_game_open_in_a_page_but_pushes_still_go() -> None:
    for kind in ("your_turn", "game_over", "invited"):
        assert rm.decide(QUIET, "email", kind, DAY, page_open=True).reason == "the game is open in a page"
        assert rm.decide(QUIET, "push", kind, DAY, page_open=True) == Decision("send")
    # what asks something of the player is held, to go if they close the page without doing it
    assert rm.decide(QUIET, "email", "your_turn", DAY, page_open=True).at == DAY + rm.PAGE_HOLD
    assert rm.decide(QUIET, "email", "game_over", DAY, page_open=True).action == "skip"


def test_what_the_player_turned_off_is_skipped_and_what_they_asked_for_always_goes() -> None:
    off = reach.effective({"email": {"turn": "off", "game_over": False}, "push": {"turn": False, "invited": False},
                           "quiet_hours": {"from": "00:00", "to": "23:59"}})
    assert rm.decide(off, "email", "your_turn", DAY) == Decision("skip", reason="turned off")
    assert rm.decide(off, "email", "digest", DAY).action == "skip"
    assert rm.decide(off, "email", "game_over", DAY).action == "skip"
    assert rm.decide(off, "push", "your_turn", DAY).action == "skip"
    assert rm.decide(off, "push", "invited", DAY).action == "skip"
    assert rm.decide(off, "push", "digest", DAY).action == "skip"  # no digest by push
    for asked in rm.ASKED:  # even inside quiet hours
        assert rm.decide(off, "email", asked, DAY) == Decision("send")


def test_a_turn_schedules_one_reminder_per_lead_still_to_come_each_with_its_own_key() -> None:
    deadline = DAY + timedelta(hours=30)
    got = rm.reminders((86400, 7200, 172800), GAME.id, 2, deadline, DAY)
    assert [(r.lead, r.at) for r in got] == [(86400, DAY + timedelta(hours=6)), (7200, DAY + timedelta(hours=28))]
    assert len({r.key for r in got}) == 2 and all(GAME.id in r.key and ":2:" in r.key for r in got)
    moved = rm.reminders((7200,), GAME.id, 2, deadline + timedelta(hours=5), DAY)
    assert moved[0].key != got[1].key  # a new deadline, new reminders
    assert rm.reminders((7200,), GAME.id, 2, deadline, deadline - timedelta(hours=1)) == ()
    assert rm.still_due(deadline, deadline) and not rm.still_due(deadline, deadline + timedelta(hours=1))
    assert not rm.still_due(deadline, None)  # the player has moved


def test_a_seats_own_deadline_is_read_from_the_games_public_deadline() -> None:
    deadline = {"kind": "turn", "at": "2026-01-12T09:00:00Z", "per_seat": [
        {"seat": 0, "at": "2026-01-12T09:00:00Z"}, {"seat": 1, "at": "2026-01-13T09:00:00+00:00"}]}
    assert rm.seat_deadline(deadline, 1) == datetime(2026, 1, 13, 9, 0, tzinfo=UTC)
    assert rm.seat_deadline(deadline, 3) is None and rm.seat_deadline(None, 0) is None


def test_a_digest_lists_every_waiting_game_the_most_urgent_first() -> None:
    later = Waiting(Game("b", "Bravo", "corte"), 1, ("ann",), DAY + timedelta(hours=40))
    sooner = Waiting(Game("c", "Charlie", "pedro"), 0, ("ann", "bob"), DAY + timedelta(hours=3))
    no_clock = Waiting(Game("a", "Alpha", "least-score"), 2, ("ann",), None)
    message = rm.digest([later, no_clock, sooner])
    assert message is not None and message.key == "digest"
    assert [g["game"]["name"] for g in message.args["games"]] == ["Charlie", "Bravo", "Alpha"]
    assert message.args["games"][0] == {"game": {"id": "c", "name": "Charlie", "ruleset": "pedro",
                                                 "path": "/#/game/c"},
                                        "seat": 0, "awaiting": ["ann", "bob"], "deadline": "2026-01-11T15:00:00Z"}
    assert rm.digest([]) is None


def _keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in _keys(v)}
    return set()


def test_messages_are_keys_and_arguments_naming_the_game_the_awaited_and_the_deadline_never_a_card() -> None:
    deadline = DAY + timedelta(hours=2)
    messages = [rm.your_turn(GAME, ["ann", "bob"], deadline), rm.reminder(GAME, ["ann"], deadline, 7200),
                rm.game_over(GAME, "finished", ["bob"]), rm.invited(GAME, "cat"),
                rm.verify_email("ann@example.org", deadline), rm.signin_code(deadline),
                rm.digest([Waiting(GAME, 0, ("ann",), deadline)])]
    for message in messages:
        assert message is not None
        doc = json.loads(json.dumps(message.json()))  # plain JSON, for the renderer
        assert set(doc) == {"key", "args"} and not any("card" in k for k in _keys(doc))
    turn = messages[0].json()
    assert turn == {"key": "your_turn", "args": {"game": {**GAME.json()}, "awaiting": ["ann", "bob"],
                                                 "deadline": "2026-01-11T14:00:00Z"}}
    assert turn["args"]["game"]["path"] == f"/#/game/{GAME.id}"
