"""``db.seasons``: a server's season setting (columns of ``guild_settings``, migration 007) and
the end of each season (``season_ends``), claimed once across processes: :class:`SeasonRecords`.

How a claim settles an end, resets the ratings once, and is taken over when its process died:
storage/README.md, "Seasons' ends".
"""

from __future__ import annotations

from .connection import Row, execute, fetch_all, fetch_one, fetch_value
from .guild_settings import upsert
from .rows import ServerSeason
from .runner import C, Records

_SETTING = "guild_id, season, season_channel_id, season_reset, season_since_ms"


def _setting(row: Row) -> ServerSeason:
    return ServerSeason(guild_id=int(row["guild_id"]), length=row["season"],
                         channel_id=row["season_channel_id"],
                         reset=bool(row["season_reset"]), since_ms=row["season_since_ms"])


class SeasonRecords(Records[C]):
    """Servers' seasons and the claims of their ends."""

    async def of_guild(self, guild_id: int) -> ServerSeason:
        """A server's seasons (``length`` None: its managers never set them)."""
        row = await self._db.read(lambda conn: fetch_one(
            conn, f"SELECT {_SETTING} FROM guild_settings WHERE guild_id = ?", (guild_id,)))
        return ServerSeason(guild_id) if row is None else _setting(row)

    async def set(self, setting: ServerSeason, now_ms: int) -> None:
        """Set a server's seasons (its other settings stay as they are)."""
        await self._db.write(lambda conn: upsert(
            conn, setting.guild_id,
            {"season": setting.length, "season_channel_id": setting.channel_id,
             "season_reset": int(setting.reset), "season_since_ms": setting.since_ms}, now_ms))

    async def seasonal_guilds(self) -> list[ServerSeason]:
        """Every server that runs seasons (the periodic check; never an interaction)."""
        rows = await self._db.read(lambda conn: fetch_all(
            conn, f"SELECT {_SETTING} FROM guild_settings WHERE season IS NOT NULL"
                  " ORDER BY guild_id"))
        return [_setting(row) for row in rows]

    async def claim_end(self, guild_id: int, season: str, start_ms: int, end_ms: int,
                        *, now_ms: int, stale_ms: int, reset: bool) -> bool:
        """Claim the end of the server's ``season`` for the caller: True when the caller's
        insert made its row (resetting the server's ratings if ``reset``), or took over a claim
        made before ``stale_ms`` that was never settled; False when another claim holds it or
        it is settled.
        """

        async def work(conn: C) -> bool:
            made = await fetch_value(
                conn,
                "INSERT INTO season_ends (guild_id, season, start_ms, end_ms, claimed_ms)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id, season) DO NOTHING"
                " RETURNING guild_id",
                (guild_id, season, start_ms, end_ms, now_ms))
            if made is not None:
                if reset:
                    await execute(conn, "DELETE FROM ratings WHERE guild_id = ?", (guild_id,))
                return True
            taken = await fetch_value(
                conn,
                "UPDATE season_ends SET claimed_ms = ? WHERE guild_id = ? AND season = ?"
                " AND posted_ms IS NULL AND claimed_ms < ? RETURNING guild_id",
                (now_ms, guild_id, season, stale_ms))
            return taken is not None

        return await self._db.write(work)

    async def settle_end(self, guild_id: int, season: str, *, now_ms: int, outcome: str,
                         channel_id: int | None = None, message_id: int | None = None) -> None:
        """Record how the claimed end of ``season`` was settled (``outcome``: ``posted``,
        ``empty``, ``no_channel`` or ``refused``).
        """
        await self._db.write(lambda conn: execute(
            conn,
            "UPDATE season_ends SET posted_ms = ?, outcome = ?, channel_id = ?, message_id = ?"
            " WHERE guild_id = ? AND season = ?",
            (now_ms, outcome, channel_id, message_id, guild_id, season)))
