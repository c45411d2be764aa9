"""How each person wants to be reminded of their slow games (table ``people``, migration 010):
:class:`PeopleRecords`.
"""

from __future__ import annotations

from .connection import execute, fetch_one
from .rows import ReminderPrefs
from .runner import C, Records


class PeopleRecords(Records[C]):
    """A person's reminder preferences: time zone, quiet hours, direct messages."""

    async def reminders(self, player_id: str) -> ReminderPrefs | None:
        """The person's preferences (None: never set)."""
        row = await self._db.read(lambda conn: fetch_one(
            conn, "SELECT player_id, zone, quiet_start, quiet_end, by_dm FROM people"
                  " WHERE player_id = ?", (player_id,)))
        if row is None:
            return None
        return ReminderPrefs(player_id=str(row["player_id"]), zone=str(row["zone"]),
                             quiet_start=row["quiet_start"], quiet_end=row["quiet_end"],
                             by_dm=bool(row["by_dm"]))

    async def set_reminders(self, prefs: ReminderPrefs, now_ms: int) -> None:
        """Store the person's preferences (replacing any)."""
        await self._db.statement(lambda conn: execute(
            conn, "INSERT INTO people (player_id, zone, quiet_start, quiet_end, by_dm,"
                  " updated_ms) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (player_id) DO UPDATE SET"
                  " zone = excluded.zone, quiet_start = excluded.quiet_start,"
                  " quiet_end = excluded.quiet_end, by_dm = excluded.by_dm,"
                  " updated_ms = excluded.updated_ms",
            (prefs.player_id, prefs.zone, prefs.quiet_start, prefs.quiet_end,
             int(prefs.by_dm), now_ms)))
