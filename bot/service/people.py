"""What each person sets for themselves, in any server or in a direct message with the bot:
how they are reminded of their slow games (``/reminders``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Final

from bot.service.model import Person
from bot.service.quiet_hours import check_zone, parse_quiet_hours
from storage import ReminderPrefs, Storage

OFF: Final = "off"
"""The quiet hours that remove a person's quiet hours."""
DEFAULT_ZONE: Final = "UTC"
"""The time zone of a person who set quiet hours before any zone."""


class People:
    """Reads and writes people's own settings."""

    def __init__(self, db: Storage, clock: Callable[[], int]) -> None:
        self.db = db
        self.clock = clock

    async def reminders(self, who: Person) -> ReminderPrefs | None:
        """How ``who`` is reminded (None: as everyone, never set)."""
        return await self.db.people.reminders(who.player_id)

    async def set_reminders(self, who: Person, *, zone: str | None = None,
                            quiet: str | None = None, by_dm: bool | None = None
                            ) -> ReminderPrefs:
        """Change what ``who`` gives (their time zone, their quiet hours as ``22:00-07:00`` or
        ``off``, reminders by direct message or not), keep the rest; refused with a clear
        message when the zone is unknown or the quiet hours are not a window of at most 12
        hours. Returns the preferences as stored.
        """
        prefs = await self.reminders(who) or ReminderPrefs(who.player_id, DEFAULT_ZONE)
        if zone is not None:
            prefs = replace(prefs, zone=check_zone(zone.strip()))
        if quiet is not None and quiet.strip().lower() == OFF:
            prefs = replace(prefs, quiet_start=None, quiet_end=None)
        elif quiet is not None:
            hours = parse_quiet_hours(prefs.zone, quiet)
            prefs = replace(prefs, quiet_start=hours.start.isoformat("minutes"),
                            quiet_end=hours.end.isoformat("minutes"))
        elif prefs.quiet_start is not None and prefs.quiet_end is not None:
            parse_quiet_hours(prefs.zone, f"{prefs.quiet_start}-{prefs.quiet_end}")
        if by_dm is not None:
            prefs = replace(prefs, by_dm=by_dm)
        await self.db.people.set_reminders(prefs, self.clock())
        return prefs
