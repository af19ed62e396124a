"""Notification settings as use cases, on a real PostgreSQL: the defaults until a player chooses,
a change in part keeps the rest, refusals name the field, the kinds each channel follows are
stored with them (and the outboxes written by them); and an e-mail's unsubscribe token turns its
kind of e-mail off, without signing in."""
from __future__ import annotations

import uuid

import pytest

from events import reach, reach_outbox
from events.reach_outbox import MailItem
from service.model import reach as model
from service.model.problems import Problem
from service.usecases import notification_settings as ns
from service.usecases.dependencies import Dependencies
from tests.service.usecases.conftest import player


def test_the_defaults_until_the_player_chooses_and_a_change_in_part_keeps_the_rest(deps: Dependencies) -> None:
    pid, _ = player(deps, "ann")
    assert ns.current(deps, pid) == model.effective(None).json()
    after = ns.change(deps, pid, {"time_zone": "Europe/Lisbon", "quiet_hours": {"from": "22:00", "to": "07:30"}})
    assert after["time_zone"] == "Europe/Lisbon" and after["quiet_hours"] == {"from": "22:00", "to": "07:30"}
    after = ns.change(deps, pid, {"email": {"turn": "immediate"}, "push": {"reminders": [3600]}})
    assert after["time_zone"] == "Europe/Lisbon" and after["email"]["turn"] == "immediate"
    assert after["email"]["reminders"] == model.DEFAULTS["email"]["reminders"]
    assert after["push"]["reminders"] == [3600] and ns.current(deps, pid) == after
    stored = reach.settings_of(deps.db, uuid.UUID(pid))
    assert stored is not None and "game_over" not in stored.settings["email"]  # only what was chosen


def test_saving_stores_what_each_channel_follows(deps: Dependencies) -> None:
    pid, _ = player(deps, "ann")
    ns.change(deps, pid, {"email": {"turn": "off", "reminders": [], "invited": False},
                          "push": {"game_over": False, "chat": False}})
    stored = reach.settings_of(deps.db, uuid.UUID(pid))
    assert stored is not None
    assert stored.email_kinds == ("game_over",)
    assert stored.push_kinds == ("your_turn", "invited", "tournament_round")


@pytest.mark.parametrize(("patch", "field"), [
    ({"time_zone": "Mars/Olympus"}, "time_zone"),
    ({"quiet_hours": {"from": "25:00", "to": "07:00"}}, "quiet_hours.from"),
    ({"quiet_hours": {"from": "22:00"}}, "quiet_hours.to"),
    ({"email": {"turn": "hourly"}}, "email.turn"),
    ({"email": {"reminders": [0]}}, "email.reminders[0]"),
    ({"push": {"turn": "yes"}}, "push.turn"),
    ({"push": {"sound": True}}, "push.sound"),
    ({"colour": "red"}, "colour"),
])
def test_a_setting_that_cannot_be_is_422_naming_it_and_nothing_is_saved(deps: Dependencies, patch: dict,
                                                                        field: str) -> None:
    pid, _ = player(deps, "ann")
    with pytest.raises(Problem) as refused:
        ns.change(deps, pid, patch)
    assert refused.value.slug == "validation" and list(refused.value.extra["errors"]) == [field]
    assert reach.settings_of(deps.db, uuid.UUID(pid)) is None


def _mail(deps: Dependencies, pid: str, kind: str) -> uuid.UUID:
    """The unsubscribe token of a new e-mail row of this kind."""
    mail_id = uuid.uuid4()
    reach_outbox.enqueue_mail(deps.db, [MailItem(uuid.UUID(pid), kind, mail_id=mail_id)])
    with deps.db.connection() as conn:
        row = conn.execute("SELECT unsubscribe FROM mail_outbox WHERE mail_id = %s", (mail_id,)).fetchone()
    return row[0]


@pytest.mark.parametrize(("kind", "path", "off"), [
    ("your_turn", ("email", "turn"), "off"), ("digest", ("email", "turn"), "off"),
    ("reminder", ("email", "reminders"), []), ("game_over", ("email", "game_over"), False),
    ("invited", ("email", "invited"), False)])
def test_an_unsubscribe_token_turns_off_its_kind_of_e_mail_and_nothing_else(deps: Dependencies, kind: str,
                                                                           path: tuple[str, str],
                                                                           off: object) -> None:
    pid, _ = player(deps, "ann")
    ns.change(deps, pid, {"time_zone": "Asia/Tokyo"})
    token = _mail(deps, pid, kind)
    page = ns.unsubscribing(deps, str(token))
    assert (page.kind, page.player_id, page.locale) == (kind, uuid.UUID(pid), None)
    assert ns.current(deps, pid)[path[0]][path[1]] != off  # a look changes nothing
    done = ns.unsubscribe(deps, str(token))
    assert done.change == model.unsubscribe(kind)
    after = ns.current(deps, pid)
    assert after[path[0]][path[1]] == off and after["time_zone"] == "Asia/Tokyo" and after["push"]["turn"] is True
    ns.unsubscribe(deps, str(token))  # again: the same end
    assert ns.current(deps, pid) == after


# a fixed uuid: parallel processes must collect the same test names
@pytest.mark.parametrize("token", ["verify_email", "signin_code", "5d146018-c3a5-49f9-81c1-e51ddd469358", "not-a-uuid", ""])
def test_a_token_of_no_e_mail_of_news_is_404(deps: Dependencies, token: str) -> None:
    pid, _ = player(deps, "ann")
    if token in ("verify_email", "signin_code"):
        token = str(_mail(deps, pid, token))
    with pytest.raises(Problem) as missing:
        ns.unsubscribe(deps, token)
    assert missing.value.slug == "not-found"
    assert reach.settings_of(deps.db, uuid.UUID(pid)) is None
