"""Season windows in UTC: a month or a quarter (January, April, July and October start one),
from a time given in epoch milliseconds (no clock is read here).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Final

from bot.rules.achievements import Season

MONTHLY: Final = "monthly"
QUARTERLY: Final = "quarterly"
LENGTHS: Final = (MONTHLY, QUARTERLY)
"""The season lengths a server may choose."""
_MONTHS: Final = {MONTHLY: 1, QUARTERLY: 3}


def _ms(year: int, month: int) -> int:
    """Epoch milliseconds at the start of ``month`` of ``year`` (UTC; month 13 is January of
    the next year).
    """
    year, month = year + (month - 1) // 12, (month - 1) % 12 + 1
    return int(dt.datetime(year, month, 1, tzinfo=dt.UTC).timestamp() * 1000)


@dataclass(frozen=True, slots=True)
class SeasonWindow:
    """One season of a server: ``start_ms`` <= a finish < ``end_ms`` (UTC month starts)."""

    length: str
    year: int
    month: int
    """The season's first month (1 to 12)."""

    @property
    def start_ms(self) -> int:
        """When the season starts (included)."""
        return _ms(self.year, self.month)

    @property
    def end_ms(self) -> int:
        """When the season ends (excluded): the next one's start."""
        return _ms(self.year, self.month + _MONTHS[self.length])

    @property
    def key(self) -> str:
        """Its stable name: ``2026-01`` (a month) or ``2026-Q1`` (a quarter)."""
        if self.length == QUARTERLY:
            return f"{self.year}-Q{(self.month - 1) // 3 + 1}"
        return f"{self.year}-{self.month:02d}"

    @property
    def first_day(self) -> dt.date:
        """The season's first day (for its name in a language)."""
        return dt.date(self.year, self.month, 1)

    @property
    def window(self) -> Season:
        """The achievements' view of it."""
        return Season(self.start_ms, self.end_ms)

    def previous(self) -> SeasonWindow:
        month = self.month - _MONTHS[self.length]
        return SeasonWindow(self.length, self.year + (month - 1) // 12, (month - 1) % 12 + 1)

    def holds(self, when_ms: int) -> bool:
        return self.start_ms <= when_ms < self.end_ms


def season_at(length: str, now_ms: int) -> SeasonWindow:
    """The season of ``length`` (``monthly`` or ``quarterly``) that ``now_ms`` falls in."""
    if length not in _MONTHS:
        raise ValueError(f"a season is {' or '.join(LENGTHS)}, not {length!r}")
    now = dt.datetime.fromtimestamp(now_ms / 1000, dt.UTC)
    step = _MONTHS[length]
    return SeasonWindow(length, now.year, (now.month - 1) // step * step + 1)


def next_boundary_ms(now_ms: int) -> int:
    """The next month start after ``now_ms``: every season of every length ends on one."""
    return season_at(MONTHLY, now_ms).end_ms
