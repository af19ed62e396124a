"""Notification settings (service/model/reach.py): the defaults, a partial update that keeps what
it leaves out, validation that names the field, what each channel follows, unsubscribing."""
from __future__ import annotations

from typing import Any

import pytest

from events.reach import REACH_KINDS
from service.model import reach
from service.model.reach import SettingsError


def test_the_defaults_are_a_digest_and_two_reminders_by_email_and_pushes_at_once() -> None:
    assert reach.effective(None).json() == {
        "time_zone": "UTC", "quiet_hours": None,
        "email": {"turn": "digest", "reminders": [86400, 7200], "game_over": True, "invited": True, "chat": False},
        "push": {"turn": True, "reminders": [86400, 7200], "game_over": True, "invited": True, "chat": True}}
    assert reach.effective({}) == reach.effective(None)


def test_a_put_may_send_any_part_and_what_it_leaves_out_stays() -> None:
    stored = reach.update(None, {"time_zone": "Europe/Lisbon", "email": {"turn": "off"}})
    stored = reach.update(stored, {"email": {"reminders": [3600]}, "quiet_hours": {"from": "22:00", "to": "07:30"}})
    stored = reach.update(stored, {"push": {"invited": False}})
    got = reach.effective(stored).json()
    assert got["time_zone"] == "Europe/Lisbon" and got["quiet_hours"] == {"from": "22:00", "to": "07:30"}
    assert got["email"] == {"turn": "off", "reminders": [3600], "game_over": True, "invited": True, "chat": False}
    assert got["push"] == {"turn": True, "reminders": [86400, 7200], "game_over": True, "invited": False,
                           "chat": True}
    # only what the player chose is stored: a default changed later still reaches the rest
    assert stored == {"time_zone": "Europe/Lisbon", "email": {"turn": "off", "reminders": [3600]},
                      "quiet_hours": {"from": "22:00", "to": "07:30"}, "push": {"invited": False}}
    assert reach.effective(reach.update(stored, {"quiet_hours": None})).quiet_hours is None


def test_reminders_are_kept_earliest_first_without_repeats() -> None:
    stored = reach.update(None, {"push": {"reminders": [60, 28800, 3600, 60]}})
    assert reach.effective(stored).push.reminders == (28800, 3600, 60)
    assert reach.effective(reach.update(stored, {"push": {"reminders": []}})).push.reminders == ()


@pytest.mark.parametrize(("patch", "field"), [
    ({"time_zone": "Mars/Olympus_Mons"}, "time_zone"),
    ({"time_zone": "../../etc/passwd"}, "time_zone"),
    ({"time_zone": 1}, "time_zone"),
    ({"quiet_hours": {"from": "24:00", "to": "07:00"}}, "quiet_hours.from"),
    ({"quiet_hours": {"from": "22:00", "to": "7:00"}}, "quiet_hours.to"),
    ({"quiet_hours": {"from": "22:00"}}, "quiet_hours.to"),
    ({"quiet_hours": {"from": "22:00", "to": "22:00"}}, "quiet_hours"),
    ({"quiet_hours": {"from": "22:00", "to": "07:00", "days": 5}}, "quiet_hours.days"),
    ({"quiet_hours": "22-07"}, "quiet_hours"),
    ({"email": {"turn": "weekly"}}, "email.turn"),
    ({"email": {"reminders": [3600, 0]}}, "email.reminders[1]"),
    ({"email": {"reminders": [-60]}}, "email.reminders[0]"),
    ({"email": {"reminders": [True]}}, "email.reminders[0]"),
    ({"email": {"reminders": [1.5]}}, "email.reminders[0]"),
    ({"email": {"reminders": [reach.MAX_LEAD + 1]}}, "email.reminders[0]"),
    ({"email": {"reminders": list(range(1, reach.MAX_REMINDERS + 2))}}, "email.reminders"),
    ({"email": {"reminders": 3600}}, "email.reminders"),
    ({"email": {"sms": True}}, "email.sms"),
    ({"push": {"turn": "immediate"}}, "push.turn"),
    ({"push": {"game_over": 1}}, "push.game_over"),
    ({"push": {"chat": "yes"}}, "push.chat"),
    ({"email": {"chat": None}}, "email.chat"),
    ({"push": []}, "push"),
    ({"pager": {}}, "pager"),
])
def test_a_setting_that_cannot_be_is_refused_naming_its_field(patch: dict[str, Any], field: str) -> None:
    stored = {"email": {"turn": "immediate"}}
    with pytest.raises(SettingsError) as refused:
        reach.update(stored, patch)
    assert refused.value.field == field


def test_a_body_that_is_not_an_object_is_refused() -> None:
    with pytest.raises(SettingsError, match="object"):
        reach.update(None, ["time_zone", "UTC"])


def test_what_each_channel_follows_comes_from_the_settings_in_force() -> None:
    # a chat is pushed by default, and e-mailed only to who asks for it; a tournament's table
    # ready follows the invitations' setting
    assert reach.follows(reach.effective(None)) == (("your_turn", "game_over", "invited", "tournament_round"),
                                                    REACH_KINDS)
    chatty = reach.update(None, {"email": {"chat": True}, "push": {"chat": False}})
    assert reach.follows(reach.effective(chatty)) == (REACH_KINDS, ("your_turn", "game_over", "invited",
                                                                    "tournament_round"))
    quiet_mail = reach.update(None, {"email": {"turn": "off", "reminders": [], "invited": False},
                                     "push": {"turn": False, "game_over": False}})
    # no e-mail about turns at all; pushes still hear of turns, for their reminders
    assert reach.follows(reach.effective(quiet_mail)) == (("game_over",), ("your_turn", "invited", "chat",
                                                                                 "tournament_round"))


def test_the_kinds_the_model_routes_are_those_the_store_carries() -> None:
    assert reach.CARRIED == REACH_KINDS


@pytest.mark.parametrize(("kind", "off"), [
    ("your_turn", {"turn": "off"}), ("digest", {"turn": "off"}), ("reminder", {"reminders": []}),
    ("game_over", {"game_over": False}), ("invited", {"invited": False}), ("chat", {"chat": False}),
    ("tournament_round", {"invited": False})])
def test_unsubscribing_from_an_email_turns_that_kind_of_email_off_and_nothing_else(kind: str, off: dict[str, Any]
                                                                                    ) -> None:
    before = reach.effective(None).json()
    patch = reach.unsubscribe(kind)
    assert patch is not None
    after = reach.effective(reach.update(None, patch)).json()
    assert after["email"] == {**before["email"], **off} and after["push"] == before["push"]


def test_an_email_the_player_asked_for_has_nothing_to_unsubscribe_from() -> None:
    assert reach.unsubscribe("signin_code") is None and reach.unsubscribe("verify_email") is None
