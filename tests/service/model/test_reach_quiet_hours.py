"""Quiet hours on the player's own clock (service/model/reach.py): inside or not, when they end,
across midnight and daylight saving time; and when a digest goes. Known moments first, then
properties over time zones with odd rules (half-hour shifts, a skipped day) with hypothesis."""
from __future__ import annotations

from datetime import datetime, time, timedelta, timezone

from zoneinfo import ZoneInfo

from hypothesis import given, settings, strategies as st

from service.model import reach
from service.model.reach_messages import DIGEST_TIMES, next_digest

UTC = timezone.utc
PROPERTY = settings(max_examples=400, deadline=None, database=None, derandomize=True)
ZONES = ("UTC", "Europe/London", "America/New_York", "Australia/Lord_Howe", "Pacific/Apia", "Asia/Kathmandu",
         "America/Santiago", "Africa/Casablanca", "Europe/Lisbon", "Pacific/Chatham")


def quiet(zone: str, start: str, end: str) -> reach.Settings:
    return reach.effective({"time_zone": zone, "quiet_hours": {"from": start, "to": end}})


def test_quiet_hours_across_midnight_end_the_next_morning_on_the_players_clock() -> None:
    s = quiet("Europe/Lisbon", "22:00", "07:30")
    evening = datetime(2026, 1, 10, 23, 15, tzinfo=UTC)  # Lisbon is on UTC in winter
    assert reach.quiet_at(s, evening) and not reach.quiet_at(s, datetime(2026, 1, 10, 21, 59, tzinfo=UTC))
    assert reach.quiet_end(s, evening) == datetime(2026, 1, 11, 7, 30, tzinfo=UTC)
    assert reach.quiet_end(s, datetime(2026, 1, 11, 3, 0, tzinfo=UTC)) == datetime(2026, 1, 11, 7, 30, tzinfo=UTC)
    summer = datetime(2026, 7, 10, 22, 15, tzinfo=UTC)  # 23:15 in Lisbon (UTC+1)
    assert reach.quiet_end(s, summer) == datetime(2026, 7, 11, 6, 30, tzinfo=UTC)
    assert reach.quiet_end(s, datetime(2026, 7, 11, 6, 30, tzinfo=UTC)) is None  # `to` is not inside


def test_quiet_hours_within_a_day_and_none_at_all() -> None:
    s = quiet("Asia/Kathmandu", "13:00", "14:45")  # UTC+5:45
    assert reach.quiet_end(s, datetime(2026, 5, 1, 7, 30, tzinfo=UTC)) == datetime(2026, 5, 1, 9, 0, tzinfo=UTC)
    assert reach.quiet_end(s, datetime(2026, 5, 1, 9, 0, tzinfo=UTC)) is None
    never = reach.effective(None)
    assert not reach.quiet_at(never, datetime(2026, 5, 1, 3, 0, tzinfo=UTC))
    assert reach.quiet_end(never, datetime(2026, 5, 1, 3, 0, tzinfo=UTC)) is None


def test_when_the_clock_springs_over_the_end_the_quiet_hours_end_with_the_jump() -> None:
    # New York, 8 March 2026: at 02:00 EST the clocks go to 03:00 EDT (07:00 UTC); 02:30 never shows
    s = quiet("America/New_York", "01:00", "02:30")
    assert reach.quiet_end(s, datetime(2026, 3, 8, 6, 30, tzinfo=UTC)) == datetime(2026, 3, 8, 7, 0, tzinfo=UTC)


def test_when_the_clock_falls_back_into_the_quiet_hours_they_are_quiet_again() -> None:
    # New York, 1 November 2026: at 02:00 EDT the clocks go back to 01:00 EST; 01:20 shows twice
    s = quiet("America/New_York", "22:00", "01:30")
    first = datetime(2026, 11, 1, 5, 20, tzinfo=UTC)  # 01:20 EDT
    assert reach.quiet_end(s, first) == datetime(2026, 11, 1, 5, 30, tzinfo=UTC)
    assert not reach.quiet_at(s, datetime(2026, 11, 1, 5, 45, tzinfo=UTC))
    second = datetime(2026, 11, 1, 6, 20, tzinfo=UTC)  # 01:20 EST
    assert reach.quiet_end(s, second) == datetime(2026, 11, 1, 6, 30, tzinfo=UTC)


def transitions(zone: str) -> list[datetime]:
    """The hours (UTC) in which the zone's clocks changed in 2011 and 2024 to 2027."""
    tz = ZoneInfo(zone)
    out = []
    for year in (2011, 2024, 2025, 2026, 2027):
        day = datetime(year, 1, 1, tzinfo=UTC)
        while day.year == year:
            if (day + timedelta(days=1)).astimezone(tz).utcoffset() != day.astimezone(tz).utcoffset():
                hours = [day + timedelta(hours=h) for h in range(25)]
                out += [b for a, b in zip(hours, hours[1:]) if a.astimezone(tz).utcoffset() != b.astimezone(tz).utcoffset()]
            day += timedelta(days=1)
    return out


CHANGES = {zone: transitions(zone) for zone in ZONES}
walls = st.builds(lambda h, m: f"{h:02d}:{m:02d}", st.integers(0, 23), st.sampled_from([0, 15, 30, 45, 59]))
anywhen = st.datetimes(min_value=datetime(2011, 1, 1), max_value=datetime(2032, 12, 31), timezones=st.just(UTC))


@st.composite
def zone_and_moment(draw: st.DrawFn) -> tuple[str, datetime]:
    """A zone, and a moment anywhen or within a day and a half of one of its clock changes."""
    zone = draw(st.sampled_from(ZONES))
    if CHANGES[zone] and draw(st.booleans()):
        return zone, draw(st.sampled_from(CHANGES[zone])) + timedelta(minutes=draw(st.integers(-2160, 2160)))
    return zone, draw(anywhen)


@PROPERTY
@given(where=zone_and_moment(), start=walls, end=walls)
def test_inside_the_quiet_hours_they_end_later_at_the_first_moment_that_is_not_quiet(
        where: tuple[str, datetime], start: str, end: str) -> None:
    zone, at = where
    if start == end:
        return
    s = quiet(zone, start, end)
    over = reach.quiet_end(s, at)
    if not reach.quiet_at(s, at):
        assert over is None
        return
    # a day at most, or two when a clock change skips the hours between `to` and `from`
    assert over is not None and at < over <= at + timedelta(hours=49)
    assert not reach.quiet_at(s, over) and reach.quiet_at(s, over - timedelta(microseconds=1))
    for k in range(1, 16):  # quiet all the way there
        assert reach.quiet_at(s, at + (over - at) * k / 16), (at, over, k)


@PROPERTY
@given(where=zone_and_moment(), start=walls, end=walls)
def test_a_digest_goes_at_a_digest_time_or_when_quiet_hours_end_and_never_inside_them(
        where: tuple[str, datetime], start: str, end: str) -> None:
    zone, at = where
    s = quiet(zone, start, end) if start != end else reach.effective({"time_zone": zone})
    due = next_digest(s, at)
    assert at < due <= at + timedelta(hours=48) and not reach.quiet_at(s, due)
    wall = due.astimezone(s.zone).time().replace(second=0, microsecond=0)
    ends = s.quiet_hours.end if s.quiet_hours else None
    assert wall in DIGEST_TIMES or wall == ends or reach.quiet_at(s, due - timedelta(seconds=1)), (due, wall)


def test_a_digest_goes_at_eight_or_six_on_the_players_clock() -> None:
    s = reach.effective({"time_zone": "America/New_York"})
    assert next_digest(s, datetime(2026, 6, 1, 13, 0, tzinfo=UTC)) == datetime(2026, 6, 1, 22, 0, tzinfo=UTC)
    assert next_digest(s, datetime(2026, 6, 1, 22, 0, tzinfo=UTC)) == datetime(2026, 6, 2, 12, 0, tzinfo=UTC)
    late = quiet("America/New_York", "22:00", "09:15")  # 08:00 falls inside: the digest goes at 09:15
    assert next_digest(late, datetime(2026, 6, 1, 23, 0, tzinfo=UTC)) == datetime(2026, 6, 2, 13, 15, tzinfo=UTC)
    assert time(8, 0) in DIGEST_TIMES
