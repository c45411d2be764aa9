"""Quiet hours and slow-game deadlines: pure time arithmetic in epoch milliseconds (UTC).

A player's quiet hours are a daily local wall-clock window [start, end) in their IANA time zone,
wrapping midnight when end <= start, at most 12 hours long. Nobody is reminded or timed out
while quiet. No clock is read here; only zoneinfo's own tz data is loaded.

Daylight saving: a local time is turned into an instant by :func:`_instant`.
- A time that does not exist (in a spring-forward gap) means the first instant after the gap:
  the first at which the wall clock reads that time or later.
- A time that exists twice (in a fall-back repeat) means its first occurrence; once the window
  has ended, the repeated hour is not quiet again.
The window thus lasts its wall-clock length minus or plus the DST shift, and a window whose
start and end both fall into the same gap is empty that night.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from dataclasses import dataclass
from typing import Final
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.errors import UserError
from storage import ReminderPrefs

MAX_QUIET_HOURS: Final = 12
"""The longest quiet window a player may set, in hours a day."""
MAX_LEAD_MS: Final = 6 * 3_600_000
"""The earliest a reminder comes before its deadline."""
_DAY: Final = dt.timedelta(days=1)
_NOT_ZONES: Final = frozenset({"localtime", "posixrules", "Factory"})
_FORMAT: Final = re.compile(r"\s*(\d{1,2})(?::(\d{2}))?\s*[-–]\s*(\d{1,2})(?::(\d{2}))?\s*")


class QuietHoursError(UserError, ValueError):
    """Quiet hours the player wrote cannot be used; the message says why (translated by the
    Discord layer from its template).
    """


def _zone(name: str) -> ZoneInfo:
    """The IANA time zone ``name``; the system's own, paths and aliases like 'posix/' refused."""
    if name in _NOT_ZONES or name.startswith(("posix/", "right/")):
        raise _unknown_zone(name)
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise _unknown_zone(name) from None


def _unknown_zone(name: str) -> QuietHoursError:
    return QuietHoursError(
        "Unknown time zone {zone}: use a name like Europe/Berlin or America/New_York.",
        zone=repr(name))


def _ms(moment: dt.datetime) -> int:
    """Epoch milliseconds of an aware datetime."""
    return (moment - dt.datetime(1970, 1, 1, tzinfo=dt.UTC)) // dt.timedelta(milliseconds=1)


def _instant(tz: ZoneInfo, wall: dt.datetime) -> int:
    """The instant (epoch ms) the naive local time ``wall`` means in ``tz``: its first
    occurrence if it exists twice, the end of the gap if it does not exist.
    """
    early = _ms(wall.replace(tzinfo=tz, fold=0))  # first occurrence; in a gap: after the gap
    if dt.datetime.fromtimestamp(early / 1000, tz).replace(tzinfo=None) == wall:
        return early
    # In a gap, fold=0 reads wall with the offset before it, fold=1 with the one after: the
    # transition lies in (late, early]. Find it to the second (tz data has whole seconds).
    lo, hi = _ms(wall.replace(tzinfo=tz, fold=1)) // 1000, early // 1000
    after = dt.datetime.fromtimestamp(hi, tz).utcoffset()
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if dt.datetime.fromtimestamp(mid, tz).utcoffset() == after:
            hi = mid
        else:
            lo = mid
    return hi * 1000


def _label(moment: dt.time) -> str:
    return moment.strftime("%H:%M")


@dataclass(frozen=True, slots=True)
class QuietHours:
    """A daily quiet window [start, end) in local wall-clock time of ``zone`` (IANA name)."""

    zone: str
    start: dt.time
    end: dt.time

    def __post_init__(self) -> None:
        _zone(self.zone)
        if self.start.tzinfo is not None or self.end.tzinfo is not None:
            raise QuietHoursError("Quiet hours are local times, without a time zone of their own.")
        span = self.length
        if not span:
            raise QuietHoursError(
                "Quiet hours need different start and end times, not {hours}.",
                hours=f"{_label(self.start)}-{_label(self.end)}")
        if span > dt.timedelta(hours=MAX_QUIET_HOURS):
            raise QuietHoursError(
                "Quiet hours are at most {most} hours a day: {hours} is longer.",
                most=MAX_QUIET_HOURS, hours=f"{_label(self.start)}-{_label(self.end)}")

    @property
    def length(self) -> dt.timedelta:
        """The window's wall-clock length (zero if start == end); real time may differ by DST."""
        day = dt.date(2000, 1, 1)
        span = dt.datetime.combine(day, self.end) - dt.datetime.combine(day, self.start)
        return span % _DAY

    def _windows(self, at_ms: int) -> list[tuple[int, int]]:
        """The non-empty windows (start_ms, end_ms) of the local days around ``at_ms``, in order:
        from two days before to three after, enough to hold the one containing or following it.
        """
        today = dt.datetime.fromtimestamp(at_ms // 1000, ZoneInfo(self.zone)).date()
        windows = (_window(self, today + dt.timedelta(days=n)) for n in range(-2, 4))
        return [(begin, finish) for begin, finish in windows if begin < finish]

    def contains(self, at_ms: int) -> bool:
        """Whether ``at_ms`` is quiet (the start is quiet, the end no longer)."""
        return any(begin <= at_ms < finish for begin, finish in self._windows(at_ms))

    def end_after(self, at_ms: int) -> int:
        """The end of the quiet window containing ``at_ms``, or of the next one (always later)."""
        return min(finish for _, finish in self._windows(at_ms) if finish > at_ms)

    def next_start_after(self, at_ms: int) -> int:
        """The start of the next quiet window strictly after ``at_ms``."""
        return min(begin for begin, _ in self._windows(at_ms) if begin > at_ms)

    def overlaps(self, a_ms: int, b_ms: int) -> bool:
        """Whether any instant of the closed span [a, b] is quiet (False if b < a)."""
        return a_ms <= b_ms and (self.contains(a_ms) or self.next_start_after(a_ms) <= b_ms)


@functools.lru_cache(maxsize=4096)
def _window(quiet: QuietHours, day: dt.date) -> tuple[int, int]:
    """The instants (ms) the quiet window starting on local ``day`` begins and ends (cached)."""
    tz = ZoneInfo(quiet.zone)
    start, end = quiet.start.replace(fold=0), quiet.end.replace(fold=0)
    end_day = day + _DAY if end <= start else day
    return (
        _instant(tz, dt.datetime.combine(day, start)),
        _instant(tz, dt.datetime.combine(end_day, end)),
    )


def parse_quiet_hours(zone: str, text: str) -> QuietHours:
    """Quiet hours from text like '22:00-07:00', '22-7' or '22:30 - 06:45' in ``zone``.

    Raises:
        QuietHoursError: the zone is unknown, the text malformed, or the window empty or longer
            than MAX_QUIET_HOURS.
    """
    match = _FORMAT.fullmatch(text)
    if match is None:
        raise QuietHoursError("Write quiet hours as 22:00-07:00.")
    hour1, minute1, hour2, minute2 = (int(part or 0) for part in match.groups())
    if max(hour1, hour2) > 23 or max(minute1, minute2) > 59:
        raise QuietHoursError("Write quiet hours as 22:00-07:00.")
    return QuietHours(zone, dt.time(hour1, minute1), dt.time(hour2, minute2))


def reminder_lead(turn_ms: int) -> int:
    """How long before the deadline the reminder comes: a quarter of the turn, at most 6 h."""
    return min(turn_ms // 4, MAX_LEAD_MS)


def reminder_time(deadline_ms: int, turn_ms: int) -> int:
    """When to remind the player whose turn of ``turn_ms`` ends at ``deadline_ms``."""
    return deadline_ms - reminder_lead(turn_ms)


def slow_deadline(start_ms: int, turn_ms: int, quiet: QuietHours | None) -> int:
    """The deadline of a turn starting at ``start_ms``: ``start + turn``, moved later when the
    reminder span [deadline - lead, deadline] touches the player's quiet hours.

    The moved deadline is (end of that quiet window) + lead, so the reminder comes as the quiet
    hours end. Why [end, end + lead] holds no quiet instant: the end itself is excluded, and the
    next window starts a wall-clock day after this one did, so at least 24 h - 12 h = 12 h of
    wall-clock awake time lie between. Real time is shorter only by a forward offset change in
    that stretch or swallowing its end or start (a nonexistent time maps to the gap's end): the
    DST gap of a short night, 1 h, in tz data at most 2 h (Antarctica/Troll). A long night only
    adds time (an ambiguous time is its first occurrence). So at least 10 h > 6 h >= lead remain;
    date-line jumps of a whole day, like Samoa's in 2011, are beyond this bound. The moved
    deadline is after start + turn (the window ends after deadline - lead) and at most
    12 h + DST shift + lead after it (the window starts no later than start + turn).
    """
    deadline = start_ms + turn_ms
    lead = reminder_lead(turn_ms)
    if quiet is None or not quiet.overlaps(deadline - lead, deadline):
        return deadline
    return quiet.end_after(deadline - lead) + lead


def check_zone(name: str) -> str:
    """The time zone ``name`` if it is a real IANA zone, else a :class:`QuietHoursError`."""
    _zone(name)
    return name


def quiet_hours(prefs: ReminderPrefs) -> QuietHours | None:
    """A person's stored quiet hours (None: they set none)."""
    if prefs.quiet_start is None or prefs.quiet_end is None:
        return None
    return QuietHours(prefs.zone, dt.time.fromisoformat(prefs.quiet_start),
                      dt.time.fromisoformat(prefs.quiet_end))
