"""A player's notification settings, pure (standard library only): their shape and defaults,
a partial update, validation, and the player's quiet hours.

The settings as ``GET /v1/me/notification-settings`` shows them::

    {"time_zone": "Europe/Lisbon", "quiet_hours": {"from": "22:00", "to": "07:30"} | null,
     "email": {"turn": "immediate" | "digest" | "off", "reminders": [86400, 7200],
               "game_over": true, "invited": true, "chat": false},
     "push": {"turn": true, "reminders": [86400, 7200], "game_over": true, "invited": true,
              "chat": true}}

What is stored is only what the player set (:func:`update` merges a PUT onto it); the defaults
(:data:`DEFAULTS`) fill in the rest whenever the settings are read (:func:`effective`), so a
later change of a default reaches everyone who never chose otherwise. ``reminders`` are the
leads, in seconds before a deadline, at which a reminder goes. Quiet hours are wall-clock
times in the player's time zone, ``from`` included and ``to`` not, across midnight when ``to``
comes first: daylight saving time moves them with the clock. What :mod:`service.model.reach_messages`
decides to send, and when, follows from these.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone
from functools import lru_cache
from typing import Any
from zoneinfo import ZoneInfo, available_timezones

#: the kinds of notification an e-mail or a push may be about (the store's ``fd_reach_kinds``)
CARRIED = ("your_turn", "game_over", "invited", "chat", "tournament_round")
TURN_MODES = ("immediate", "digest", "off")
MAX_REMINDERS = 6
MAX_LEAD = 30 * 86400  # the longest time control a game may have
DEFAULTS: dict[str, Any] = {
    "time_zone": "UTC",
    "quiet_hours": None,
    # a game chat's messages (docs/chat.md): pushed, and e-mailed only to who asks
    "email": {"turn": "digest", "reminders": [86400, 7200], "game_over": True, "invited": True, "chat": False},
    "push": {"turn": True, "reminders": [86400, 7200], "game_over": True, "invited": True, "chat": True},
}
_CHANNEL_KEYS = ("turn", "reminders", "game_over", "invited", "chat")
_HHMM = re.compile(r"([01][0-9]|2[0-3]):([0-5][0-9])")


class SettingsError(ValueError):
    """Settings that cannot be: ``field`` names the part, as a path (``email.reminders``)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


@dataclass(frozen=True, slots=True)
class QuietHours:
    start: time
    end: time

    def contain(self, wall: time) -> bool:
        """Whether a wall-clock time is inside them (``start`` included, ``end`` not)."""
        wall = wall.replace(tzinfo=None, fold=0)
        if self.start < self.end:
            return self.start <= wall < self.end
        return wall >= self.start or wall < self.end


@dataclass(frozen=True, slots=True)
class EmailSettings:
    turn: str  # one of TURN_MODES
    reminders: tuple[int, ...]
    game_over: bool
    invited: bool
    chat: bool


@dataclass(frozen=True, slots=True)
class PushSettings:
    turn: bool
    reminders: tuple[int, ...]
    game_over: bool
    invited: bool
    chat: bool


@dataclass(frozen=True, slots=True)
class Settings:
    time_zone: str
    quiet_hours: QuietHours | None
    email: EmailSettings
    push: PushSettings

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.time_zone)

    def channel(self, name: str) -> EmailSettings | PushSettings:
        if name not in ("email", "push"):
            raise ValueError(f"no channel {name!r}")
        return self.email if name == "email" else self.push

    def json(self) -> dict[str, Any]:
        quiet = None if self.quiet_hours is None else {"from": _hhmm(self.quiet_hours.start),
                                                       "to": _hhmm(self.quiet_hours.end)}
        return {"time_zone": self.time_zone, "quiet_hours": quiet,
                "email": {"turn": self.email.turn, "reminders": list(self.email.reminders),
                          "game_over": self.email.game_over, "invited": self.email.invited,
                          "chat": self.email.chat},
                "push": {"turn": self.push.turn, "reminders": list(self.push.reminders),
                         "game_over": self.push.game_over, "invited": self.push.invited, "chat": self.push.chat}}


def _hhmm(t: time) -> str:
    return f"{t.hour:02d}:{t.minute:02d}"


@lru_cache(maxsize=1)
def _zones() -> frozenset[str]:
    return frozenset(available_timezones())


# --- reading and checking ------------------------------------------------------------------

def _object(value: Any, field: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise SettingsError(field, "must be an object")
    return value


def _only(value: Mapping[str, Any], keys: tuple[str, ...], field: str) -> None:
    for key in value:
        if key not in keys:
            raise SettingsError(f"{field}.{key}" if field else str(key), "is not a setting")


def _bool(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise SettingsError(field, "must be true or false")
    return value


def _time_zone(value: Any, field: str = "time_zone") -> str:
    if not isinstance(value, str) or value not in _zones():
        raise SettingsError(field, f"{value!r} is not an IANA time zone (such as Europe/Lisbon)")
    return value


def _wall(value: Any, field: str) -> time:
    match = _HHMM.fullmatch(value) if isinstance(value, str) else None
    if match is None:
        raise SettingsError(field, 'must be a time of day as "HH:MM", 00:00 to 23:59')
    return time(int(match.group(1)), int(match.group(2)))


def _quiet(value: Any, field: str = "quiet_hours") -> QuietHours | None:
    if value is None:
        return None
    value = _object(value, field)
    _only(value, ("from", "to"), field)
    for key in ("from", "to"):
        if key not in value:
            raise SettingsError(f"{field}.{key}", "is missing")
    quiet = QuietHours(_wall(value["from"], f"{field}.from"), _wall(value["to"], f"{field}.to"))
    if quiet.start == quiet.end:
        raise SettingsError(field, "from and to must differ (null turns quiet hours off)")
    return quiet


def _leads(value: Any, field: str) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise SettingsError(field, "must be a list of seconds before a deadline")
    if len(value) > MAX_REMINDERS:
        raise SettingsError(field, f"at most {MAX_REMINDERS} reminders")
    for i, lead in enumerate(value):
        if isinstance(lead, bool) or not isinstance(lead, int) or not 0 < lead <= MAX_LEAD:
            raise SettingsError(f"{field}[{i}]", f"must be a whole number of seconds, 1 to {MAX_LEAD}")
    return tuple(sorted(set(value), reverse=True))  # the earliest reminder first


def _email(value: Mapping[str, Any]) -> EmailSettings:
    turn = value["turn"]
    if turn not in TURN_MODES:
        raise SettingsError("email.turn", f"must be one of {', '.join(TURN_MODES)}")
    return EmailSettings(turn, _leads(value["reminders"], "email.reminders"),
                         _bool(value["game_over"], "email.game_over"), _bool(value["invited"], "email.invited"),
                         _bool(value["chat"], "email.chat"))


def _push(value: Mapping[str, Any]) -> PushSettings:
    return PushSettings(_bool(value["turn"], "push.turn"), _leads(value["reminders"], "push.reminders"),
                        _bool(value["game_over"], "push.game_over"), _bool(value["invited"], "push.invited"),
                        _bool(value["chat"], "push.chat"))


def _merge(base: Mapping[str, Any], patch: Mapping[str, Any]) -> dict[str, Any]:
    """``patch`` over ``base``: a channel's object merged key by key, anything else replaced."""
    out = dict(base)
    for key, value in patch.items():
        if key in ("email", "push") and isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = {**out[key], **value}
        else:
            out[key] = value
    return out


def _check_patch(patch: Any) -> Mapping[str, Any]:
    """A PUT's body: any part of the settings, each part well formed (errors name the field)."""
    patch = _object(patch, "settings")
    _only(patch, tuple(DEFAULTS), "")
    if "time_zone" in patch:
        _time_zone(patch["time_zone"])
    if "quiet_hours" in patch:
        _quiet(patch["quiet_hours"])
    for name in ("email", "push"):
        if name in patch:
            _only(_object(patch[name], name), _CHANNEL_KEYS, name)
    return patch


def effective(stored: Mapping[str, Any] | None) -> Settings:
    """The settings in force: the defaults, under what the player chose."""
    doc = _merge(DEFAULTS, stored or {})
    return Settings(_time_zone(doc["time_zone"]), _quiet(doc["quiet_hours"]), _email(doc["email"]),
                    _push(doc["push"]))


def update(stored: Mapping[str, Any] | None, patch: Any) -> dict[str, Any]:
    """What to store after a PUT of ``patch``: merged onto what the player had chosen (what it
    leaves out stays), checked whole. Raises :class:`SettingsError`."""
    merged = _merge(stored or {}, _check_patch(patch))
    effective(merged)
    return merged


def follows(settings: Settings) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(e-mail kinds, push kinds): the notifications each channel needs to hear of under these
    settings (a turn is heard of for its reminders too, even when it is not sent itself)."""
    def kinds(turn_on: bool, channel: EmailSettings | PushSettings) -> tuple[str, ...]:
        wanted = {"your_turn": turn_on or bool(channel.reminders), "game_over": channel.game_over,
                  "invited": channel.invited, "chat": channel.chat,
                  # a tournament's table ready for the player: a seat kept for them, as an invitation
                  "tournament_round": channel.invited}
        return tuple(k for k in CARRIED if wanted[k])

    return kinds(settings.email.turn != "off", settings.email), kinds(settings.push.turn, settings.push)


def unsubscribe(kind: str) -> dict[str, Any] | None:
    """The change that a List-Unsubscribe of an e-mail of this kind makes (RFC 8058: that kind
    of e-mail off), or None for e-mails a player asked for (a verification, a sign-in code)."""
    return {"your_turn": {"email": {"turn": "off"}}, "digest": {"email": {"turn": "off"}},
            "reminder": {"email": {"reminders": []}}, "game_over": {"email": {"game_over": False}},
            "invited": {"email": {"invited": False}}, "chat": {"email": {"chat": False}},
            "tournament_round": {"email": {"invited": False}}}.get(kind)


# --- quiet hours ---------------------------------------------------------------------------

def _utc(moment: datetime) -> datetime:
    if moment.tzinfo is None:
        raise ValueError("a moment must carry its time zone")
    return moment.astimezone(timezone.utc)


def quiet_at(settings: Settings, moment: datetime) -> bool:
    """Whether ``moment`` is inside the player's quiet hours, by their own clock."""
    quiet = settings.quiet_hours
    return quiet is not None and quiet.contain(_utc(moment).astimezone(settings.zone).time())


def wall_moments(settings: Settings, day: date, wall: time) -> list[datetime]:
    """The moments (UTC) at which the player's clock shows ``wall`` on ``day``: one, two when the
    clock falls back over it, and in a gap the moment each reading of it would name."""
    zone = settings.zone
    return sorted({datetime.combine(day, wall, zone).replace(fold=f).astimezone(timezone.utc) for f in (0, 1)})


def clock_changes(settings: Settings, start: datetime, hours: int) -> list[datetime]:
    """The moments (UTC, to the second: clocks change on a whole second) at which the player's
    clock changes its offset in the ``hours`` after ``start``."""
    zone, out = settings.zone, []
    t = _utc(start).replace(microsecond=0)
    offset = t.astimezone(zone).utcoffset()
    for _ in range(hours):  # no zone changes its clock twice within an hour
        step = t + timedelta(hours=1)
        after = step.astimezone(zone).utcoffset()
        if after != offset:
            low, high = t, step
            while high - low > timedelta(seconds=1):
                middle = low + (high - low) / 2
                low, high = (middle, high) if middle.astimezone(zone).utcoffset() == offset else (low, middle)
            out.append(low.replace(microsecond=0) + timedelta(seconds=1))  # the whole second in (low, high]
        t, offset = step, after
    return out


def quiet_end(settings: Settings, moment: datetime) -> datetime | None:
    """When the quiet hours that ``moment`` is inside end (UTC), or None if it is not inside them.

    Quiet hours end where the player's clock shows ``to``, or where it jumps out of them (a
    change of offset: the spring gap may skip ``to``, or the whole of the hours between ``to``
    and ``from``): the first such moment after ``moment`` that is not quiet.
    """
    if not quiet_at(settings, moment):
        return None
    assert settings.quiet_hours is not None
    at = _utc(moment)
    today = at.astimezone(settings.zone).date()
    walls = [t for k in range(-1, 5) for t in wall_moments(settings, today + timedelta(days=k), settings.quiet_hours.end)]
    return min(t for t in walls + clock_changes(settings, at, 96) if t > at and not quiet_at(settings, t))
