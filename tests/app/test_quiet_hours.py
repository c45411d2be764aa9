"""Quiet hours and slow-game deadlines: windows, DST nights, parsing and the deadline rule."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.service.quiet_hours import (
    MAX_QUIET_HOURS,
    QuietHours,
    QuietHoursError,
    parse_quiet_hours,
    reminder_lead,
    reminder_time,
    slow_deadline,
)

MINUTE = 60_000
HOUR = 60 * MINUTE
DAY = 24 * HOUR
TURNS = (4 * HOUR, DAY, 3 * DAY)


def utc(*parts: int) -> int:
    """Epoch ms of a UTC time: year, month, day, hour, minute[, second, ms]."""
    year, month, day, hour, minute, *rest = parts
    second, milli = [*rest, 0, 0][:2]
    moment = dt.datetime(year, month, day, hour, minute, second, milli * 1000, tzinfo=dt.UTC)
    return int(moment.timestamp() * 1000)


def local(zone: str, *parts: int, fold: int = 0) -> int:
    """Epoch ms of an existing local time in ``zone`` (``fold=1``: the second occurrence)."""
    year, month, day, hour, minute = parts
    moment = dt.datetime(year, month, day, hour, minute, tzinfo=ZoneInfo(zone), fold=fold)
    return int(moment.timestamp() * 1000)


def quiet(zone: str, text: str) -> QuietHours:
    return parse_quiet_hours(zone, text)


# --- windows without DST -----------------------------------------------------------------------


def test_window_not_wrapping_midnight() -> None:
    q = quiet("UTC", "13:00-15:00")
    assert not q.contains(utc(2026, 1, 10, 12, 59, 59, 999))
    assert q.contains(utc(2026, 1, 10, 13, 0))
    assert q.contains(utc(2026, 1, 10, 14, 59, 59, 999))
    assert not q.contains(utc(2026, 1, 10, 15, 0))
    assert q.end_after(utc(2026, 1, 10, 12, 0)) == utc(2026, 1, 10, 15, 0)
    assert q.end_after(utc(2026, 1, 10, 13, 0)) == utc(2026, 1, 10, 15, 0)
    assert q.end_after(utc(2026, 1, 10, 15, 0)) == utc(2026, 1, 11, 15, 0)
    assert q.next_start_after(utc(2026, 1, 10, 12, 59, 59, 999)) == utc(2026, 1, 10, 13, 0)
    assert q.next_start_after(utc(2026, 1, 10, 13, 0)) == utc(2026, 1, 11, 13, 0)
    assert q.next_start_after(utc(2026, 1, 10, 23, 59)) == utc(2026, 1, 11, 13, 0)


def test_window_wrapping_midnight() -> None:
    zone = "Europe/Berlin"
    q = quiet(zone, "22:00-07:00")
    assert not q.contains(local(zone, 2026, 1, 10, 21, 59))
    assert q.contains(local(zone, 2026, 1, 10, 22, 0))
    assert q.contains(local(zone, 2026, 1, 11, 0, 0))
    assert q.contains(local(zone, 2026, 1, 11, 6, 59))
    assert not q.contains(local(zone, 2026, 1, 11, 7, 0))
    assert not q.contains(local(zone, 2026, 1, 11, 12, 0))
    assert q.end_after(local(zone, 2026, 1, 10, 23, 0)) == local(zone, 2026, 1, 11, 7, 0)
    assert q.end_after(local(zone, 2026, 1, 11, 3, 0)) == local(zone, 2026, 1, 11, 7, 0)
    assert q.end_after(local(zone, 2026, 1, 11, 7, 0)) == local(zone, 2026, 1, 12, 7, 0)
    assert q.end_after(local(zone, 2026, 1, 11, 12, 0)) == local(zone, 2026, 1, 12, 7, 0)
    assert q.next_start_after(local(zone, 2026, 1, 11, 3, 0)) == local(zone, 2026, 1, 11, 22, 0)
    assert q.next_start_after(local(zone, 2026, 1, 11, 22, 0)) == local(zone, 2026, 1, 12, 22, 0)


def test_overlaps_is_closed_span() -> None:
    q = quiet("UTC", "13:00-15:00")
    assert q.overlaps(utc(2026, 1, 10, 12, 0), utc(2026, 1, 10, 13, 0))
    assert not q.overlaps(utc(2026, 1, 10, 12, 0), utc(2026, 1, 10, 12, 59, 59, 999))
    assert q.overlaps(utc(2026, 1, 10, 14, 0), utc(2026, 1, 10, 14, 0))
    assert q.overlaps(utc(2026, 1, 10, 12, 0), utc(2026, 1, 10, 16, 0))
    assert not q.overlaps(utc(2026, 1, 10, 15, 0), utc(2026, 1, 11, 12, 59))
    assert not q.overlaps(utc(2026, 1, 10, 14, 0), utc(2026, 1, 10, 13, 0))


@pytest.mark.parametrize(
    ("zone", "text", "begin", "end"),
    [
        # +5:30 all year
        ("Asia/Kolkata", "23:00-06:30", utc(2026, 7, 10, 17, 30), utc(2026, 7, 11, 1, 0)),
        # +12:45 in July (standard time), +13:45 in January (daylight time)
        ("Pacific/Chatham", "22:00-06:00", utc(2026, 7, 10, 9, 15), utc(2026, 7, 10, 17, 15)),
        ("Pacific/Chatham", "22:00-06:00", utc(2026, 1, 10, 8, 15), utc(2026, 1, 10, 16, 15)),
    ],
)
def test_odd_offsets(zone: str, text: str, begin: int, end: int) -> None:
    q = quiet(zone, text)
    assert not q.contains(begin - 1)
    assert q.contains(begin)
    assert q.contains(end - 1)
    assert not q.contains(end)
    assert q.next_start_after(begin - HOUR) == begin
    assert q.end_after(begin) == end
    assert q.end_after(begin - HOUR) == end


# --- DST nights --------------------------------------------------------------------------------
# Berlin: 2026-03-29 02:00 CET -> 03:00 CEST at 01:00 UTC; 2026-10-25 03:00 CEST -> 02:00 CET
# at 01:00 UTC. New York: 2026-03-08 02:00 EST -> 03:00 EDT at 07:00 UTC; 2026-11-01 02:00 EDT
# -> 01:00 EST at 06:00 UTC.


@pytest.mark.parametrize(
    ("zone", "text", "begin", "end"),
    [
        # short nights: an hour less of real time
        ("Europe/Berlin", "22:00-07:00", utc(2026, 3, 28, 21, 0), utc(2026, 3, 29, 5, 0)),
        ("America/New_York", "22:00-07:00", utc(2026, 3, 8, 3, 0), utc(2026, 3, 8, 11, 0)),
        # long nights: an hour more
        ("Europe/Berlin", "22:00-07:00", utc(2026, 10, 24, 20, 0), utc(2026, 10, 25, 6, 0)),
        ("America/New_York", "22:00-07:00", utc(2026, 11, 1, 2, 0), utc(2026, 11, 1, 12, 0)),
        # end in the gap: the first instant after it (03:00 CEST / 03:00 EDT)
        ("Europe/Berlin", "22:00-02:30", utc(2026, 3, 28, 21, 0), utc(2026, 3, 29, 1, 0)),
        ("America/New_York", "23:00-02:30", utc(2026, 3, 8, 4, 0), utc(2026, 3, 8, 7, 0)),
        # start in the gap: quiet from the first instant after it
        ("Europe/Berlin", "02:30-09:00", utc(2026, 3, 29, 1, 0), utc(2026, 3, 29, 7, 0)),
        ("America/New_York", "02:30-06:00", utc(2026, 3, 8, 7, 0), utc(2026, 3, 8, 10, 0)),
        # end in the repeated hour: its first occurrence
        ("Europe/Berlin", "22:00-02:30", utc(2026, 10, 24, 20, 0), utc(2026, 10, 25, 0, 30)),
        ("America/New_York", "21:00-01:30", utc(2026, 11, 1, 1, 0), utc(2026, 11, 1, 5, 30)),
        # start in the repeated hour: its first occurrence
        ("Europe/Berlin", "02:30-09:00", utc(2026, 10, 25, 0, 30), utc(2026, 10, 25, 8, 0)),
        ("America/New_York", "01:30-08:00", utc(2026, 11, 1, 5, 30), utc(2026, 11, 1, 13, 0)),
    ],
)
def test_dst_nights(zone: str, text: str, begin: int, end: int) -> None:
    q = quiet(zone, text)
    assert not q.contains(begin - 1)
    assert q.contains(begin)
    assert q.contains(end - 1)
    assert not q.contains(end)
    assert q.next_start_after(begin - 1) == begin
    assert q.next_start_after(begin - 3 * HOUR) == begin
    assert q.end_after(begin) == end
    assert q.end_after(end - 1) == end
    assert q.end_after(begin - 3 * HOUR) == end
    assert q.end_after(end) > end + 12 * HOUR
    # real length: the wall-clock length, give or take the hour of the shift
    wall = q.length // dt.timedelta(milliseconds=1)
    assert abs((end - begin) - wall) <= HOUR


def test_repeated_hour_is_not_quiet_again() -> None:
    q = quiet("Europe/Berlin", "22:00-02:30")
    # 01:10 UTC reads 02:10 CET, the second time the clock shows it that night
    assert not q.contains(utc(2026, 10, 25, 1, 10))
    evening = local("Europe/Berlin", 2026, 10, 25, 22, 0)
    assert q.next_start_after(utc(2026, 10, 25, 1, 10)) == evening


def test_window_inside_the_gap_is_empty_that_night() -> None:
    q = quiet("Europe/Berlin", "02:00-02:30")
    night = range(utc(2026, 3, 28, 22, 0), utc(2026, 3, 29, 4, 0), MINUTE)
    assert not any(q.contains(at) for at in night)
    assert q.next_start_after(utc(2026, 3, 28, 12, 0)) == utc(2026, 3, 30, 0, 0)
    assert q.end_after(utc(2026, 3, 28, 12, 0)) == utc(2026, 3, 30, 0, 30)


@pytest.mark.parametrize(
    ("zone", "night"),
    [
        ("Europe/Berlin", dt.date(2026, 3, 29)),
        ("Europe/Berlin", dt.date(2026, 10, 25)),
        ("America/New_York", dt.date(2026, 3, 8)),
        ("America/New_York", dt.date(2026, 11, 1)),
        ("Asia/Kolkata", dt.date(2026, 6, 1)),
        ("Pacific/Chatham", dt.date(2026, 4, 5)),
        ("Pacific/Chatham", dt.date(2026, 9, 27)),
    ],
)
def test_contains_matches_the_wall_clock(zone: str, night: dt.date) -> None:
    """Away from the DST edges, quiet means the local clock reads a time in [start, end)."""
    tz = ZoneInfo(zone)
    for text, start, end in (("22:00-07:00", 22, 7), ("09:15-17:45", 9.25, 17.75)):
        q = quiet(zone, text)
        first = int(dt.datetime.combine(night, dt.time(), tz).timestamp() * 1000) - DAY
        for at in range(first, first + 3 * DAY, 7 * MINUTE):
            clock = dt.datetime.fromtimestamp(at / 1000, tz)
            hour = clock.hour + clock.minute / 60
            wall = start <= hour < end if start < end else hour >= start or hour < end
            assert q.contains(at) == wall, (text, clock)


# --- parsing -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("22:00-07:00", dt.time(22), dt.time(7)),
        ("22-7", dt.time(22), dt.time(7)),
        ("22:30 - 06:45", dt.time(22, 30), dt.time(6, 45)),
        (" 0:15–9:00 ", dt.time(0, 15), dt.time(9)),
        ("13-15", dt.time(13), dt.time(15)),
        ("19:00-07:00", dt.time(19), dt.time(7)),  # exactly 12 hours
    ],
)
def test_parse(text: str, start: dt.time, end: dt.time) -> None:
    assert parse_quiet_hours("Europe/Berlin", text) == QuietHours("Europe/Berlin", start, end)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("20:00-10:00", "Quiet hours are at most 12 hours a day: 20:00-10:00 is longer."),
        ("20-8:30", "Quiet hours are at most 12 hours a day: 20:00-08:30 is longer."),
        ("7-23", "Quiet hours are at most 12 hours a day: 07:00-23:00 is longer."),
        ("22-22", "Quiet hours need different start and end times, not 22:00-22:00."),
        ("22:00", "Write quiet hours as 22:00-07:00."),
        ("22:00 to 07:00", "Write quiet hours as 22:00-07:00."),
        ("25-7", "Write quiet hours as 22:00-07:00."),
        ("22:60-7", "Write quiet hours as 22:00-07:00."),
        ("22:0-7", "Write quiet hours as 22:00-07:00."),
        ("night", "Write quiet hours as 22:00-07:00."),
        ("", "Write quiet hours as 22:00-07:00."),
    ],
)
def test_parse_errors(text: str, message: str) -> None:
    with pytest.raises(QuietHoursError) as error:
        parse_quiet_hours("Europe/Berlin", text)
    assert str(error.value) == message


@pytest.mark.parametrize(
    "zone",
    ["Mars/Base", "", "local", "localtime", "Factory", "/etc/localtime", "../etc/passwd",
     "Europe", "posix/Europe/Berlin", "right/UTC", "europe/berlin"],
)
def test_unknown_zones(zone: str) -> None:
    with pytest.raises(QuietHoursError) as error:
        parse_quiet_hours(zone, "22-7")
    assert str(error.value) == (
        f"Unknown time zone {zone!r}: use a name like Europe/Berlin or America/New_York."
    )


def test_constructor_checks_too() -> None:
    assert issubclass(QuietHoursError, ValueError)
    with pytest.raises(QuietHoursError):
        QuietHours("UTC", dt.time(3), dt.time(3))
    with pytest.raises(QuietHoursError):
        QuietHours("UTC", dt.time(8), dt.time(21))
    with pytest.raises(QuietHoursError):
        QuietHours("UTC", dt.time(22, tzinfo=dt.UTC), dt.time(7))
    assert QuietHours("UTC", dt.time(8), dt.time(20)).length == dt.timedelta(hours=MAX_QUIET_HOURS)


# --- reminders and deadlines -------------------------------------------------------------------


def test_reminder_lead() -> None:
    assert reminder_lead(4 * HOUR) == HOUR
    assert reminder_lead(DAY) == 6 * HOUR
    assert reminder_lead(3 * DAY) == 6 * HOUR
    assert reminder_lead(8 * HOUR) == 2 * HOUR
    assert reminder_time(utc(2026, 1, 2, 12, 0), 4 * HOUR) == utc(2026, 1, 2, 11, 0)
    assert reminder_time(utc(2026, 1, 2, 12, 0), 3 * DAY) == utc(2026, 1, 2, 6, 0)


@pytest.mark.parametrize("turn", TURNS)
def test_no_quiet_hours_no_change(turn: int) -> None:
    start = utc(2026, 3, 28, 23, 17)
    assert slow_deadline(start, turn, None) == start + turn


def test_slow_deadline_cases() -> None:
    zone = "Europe/Berlin"
    q = quiet(zone, "22:00-07:00")

    def at(day: int, hour: int, minute: int = 0) -> int:
        return local(zone, 2026, 1, day, hour, minute)

    # a day's turn ending at 20:00: reminder at 14:00, nothing quiet
    assert slow_deadline(at(10, 20), DAY, q) == at(11, 20)
    # ending at 03:00: remind at 07:00, deadline 13:00
    assert slow_deadline(at(10, 3), DAY, q) == at(11, 13)
    assert reminder_time(slow_deadline(at(10, 3), DAY, q), DAY) == at(11, 7)
    # a 4-hour turn ending at 03:30 or 22:30: remind at 07:00, deadline 08:00
    assert slow_deadline(at(10, 23, 30), 4 * HOUR, q) == at(11, 8)
    assert slow_deadline(at(10, 18, 30), 4 * HOUR, q) == at(11, 8)
    # the deadline exactly at the start of quiet moves; a millisecond before it does not
    assert slow_deadline(at(10, 18), 4 * HOUR, q) == at(11, 8)
    assert slow_deadline(at(10, 18) - 1, 4 * HOUR, q) == at(10, 22) - 1
    # a reminder exactly as quiet ends is fine
    assert slow_deadline(at(11, 4), 4 * HOUR, q) == at(11, 8)
    # three days ending at 06:59: remind at 07:00, deadline 13:00
    assert slow_deadline(at(8, 6, 59), 3 * DAY, q) == at(11, 13)


def test_slow_deadline_short_and_long_nights() -> None:
    berlin = "Europe/Berlin"
    # short night, end in the gap: quiet ends at 03:00 CEST (01:00 UTC), deadline 6 h later
    q = quiet(berlin, "22:00-02:30")
    assert slow_deadline(utc(2026, 3, 28, 0, 0), DAY, q) == utc(2026, 3, 29, 7, 0)
    # short night, 22:00-07:00 is 8 real hours; the reminder comes at 07:00 CEST
    q = quiet(berlin, "22:00-07:00")
    deadline = slow_deadline(utc(2026, 3, 28, 1, 0), DAY, q)
    assert reminder_time(deadline, DAY) == local(berlin, 2026, 3, 29, 7, 0)
    # long night, end on the repeated hour: the first 02:30 (00:30 UTC)
    q = quiet(berlin, "22:00-02:30")
    assert slow_deadline(utc(2026, 10, 24, 0, 0), DAY, q) == utc(2026, 10, 25, 6, 30)
    assert slow_deadline(utc(2026, 10, 24, 0, 0), 4 * HOUR, q) == utc(2026, 10, 24, 4, 0)
    assert slow_deadline(utc(2026, 10, 24, 20, 0), 4 * HOUR, q) == utc(2026, 10, 25, 1, 30)
    # New York's short night, start in the gap: quiet from 03:00 EDT (07:00 UTC) to 09:00
    q = quiet("America/New_York", "02:30-09:00")
    assert slow_deadline(utc(2026, 3, 7, 8, 0), DAY, q) == utc(2026, 3, 8, 19, 0)
    assert slow_deadline(utc(2026, 3, 7, 7, 0), DAY, q) == utc(2026, 3, 8, 19, 0)
    assert slow_deadline(utc(2026, 3, 7, 7, 0) - 1, DAY, q) == utc(2026, 3, 8, 7, 0) - 1


QUIETS = [
    ("UTC", "13:00-15:00"),
    ("Europe/Berlin", "22:00-07:00"),
    ("Europe/Berlin", "19:00-07:00"),
    ("Europe/Berlin", "22:00-02:30"),
    ("Europe/Berlin", "02:30-14:30"),
    ("Europe/Berlin", "15:00-03:00"),
    ("America/New_York", "20:00-08:00"),
    ("America/New_York", "01:30-13:30"),
    ("America/New_York", "14:30-02:30"),
    ("Asia/Kolkata", "23:00-06:30"),
    ("Pacific/Chatham", "15:45-03:15"),
]
DST_NIGHTS = [utc(2026, 3, 8, 7, 0), utc(2026, 3, 29, 1, 0), utc(2026, 4, 4, 14, 0),
              utc(2026, 9, 26, 14, 0), utc(2026, 10, 25, 1, 0), utc(2026, 11, 1, 6, 0)]


def check_deadline(q: QuietHours, start: int, turn: int) -> None:
    deadline = slow_deadline(start, turn, q)
    reminder = reminder_time(deadline, turn)
    lead = reminder_lead(turn)
    shift = 2 * HOUR if q.zone == "Antarctica/Troll" else HOUR  # the largest DST shifts
    assert not q.contains(deadline)
    assert not q.contains(reminder)
    assert not q.overlaps(reminder, deadline)
    assert start + turn <= deadline <= start + turn + 12 * HOUR + lead + shift
    if not q.overlaps(start + turn - lead, start + turn):
        assert deadline == start + turn


@pytest.mark.parametrize(("zone", "text"), QUIETS)
@pytest.mark.parametrize("turn", TURNS, ids=["4h", "1d", "3d"])
def test_slow_deadline_sweep(zone: str, text: str, turn: int) -> None:
    """Every 17 minutes over three days around each DST night of 2026 (deadlines near it)."""
    q = quiet(zone, text)
    for night in DST_NIGHTS:
        for start in range(night - turn - 36 * HOUR, night - turn + 36 * HOUR, 17 * MINUTE):
            check_deadline(q, start, turn)


ZONES = ["UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata", "Pacific/Chatham",
         "Australia/Lord_Howe", "Antarctica/Troll", "America/Santiago"]


@settings(max_examples=300, deadline=None, database=None, derandomize=True)
@given(
    zone=st.sampled_from(ZONES),
    begin=st.integers(0, 24 * 60 - 1),
    length=st.integers(1, MAX_QUIET_HOURS * 60),
    at=st.integers(utc(2026, 1, 1, 0, 0), utc(2027, 1, 1, 0, 0)),
    turn=st.sampled_from(TURNS),
)
def test_windows_and_deadlines_everywhere(
    zone: str, begin: int, length: int, at: int, turn: int
) -> None:
    end = (begin + length) % (24 * 60)
    q = QuietHours(zone, dt.time(begin // 60, begin % 60), dt.time(end // 60, end % 60))
    finish, following = q.end_after(at), q.next_start_after(at)
    assert finish > at and following > at
    if q.contains(at):
        assert finish <= following
        assert not q.contains(finish)
        assert q.contains(finish - 1)
    else:
        assert following < finish
        assert q.contains(following)
        assert not q.contains(following - 1)
        assert not q.overlaps(at, following - 1)
    check_deadline(q, at, turn)
