"""A server's own settings, set by its managers: the default language of its games, whether
new games play in a thread, its seasons.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Final

from bot.errors import NotAllowed, UserError
from bot.service.season_calendar import LENGTHS
from storage import SeasonSetting, Storage

OFF: Final = "off"
"""The season length that stops a server's seasons."""

NOT_A_MANAGER = "Only someone who can manage this server can change its settings."


class ServerSettings:
    """Reads and writes servers' settings."""

    def __init__(self, db: Storage, clock: Callable[[], int]) -> None:
        """Keep the settings in ``db``; ``clock`` stamps each change."""
        self.db = db
        self.clock = clock

    async def language(self, guild_id: int) -> str | None:
        """The default language a server's managers chose (``/settings language``), or None."""
        return await self.db.settings.language(guild_id)

    async def set_language(self, guild_id: int, language: str, *, manager: bool,
                           known: frozenset[str]) -> None:
        """Set a server's default language (``manager``: the user may manage the server;
        ``known``: the languages the bot speaks).
        """
        if not manager:
            raise NotAllowed(NOT_A_MANAGER)
        if language not in known:
            raise UserError("Choose one of the languages the command offers.")
        await self.db.settings.set_language(guild_id, language, self.clock())

    async def threads(self, guild_id: int) -> bool:
        """Whether a server's new games play in a thread (``/settings threads``)."""
        return bool(await self.db.settings.threads(guild_id))

    async def set_threads(self, guild_id: int, threads: bool, *, manager: bool) -> None:
        """Set whether a server's new games play in a thread."""
        if not manager:
            raise NotAllowed(NOT_A_MANAGER)
        await self.db.settings.set_threads(guild_id, threads, self.clock())

    async def season(self, guild_id: int) -> SeasonSetting:
        """A server's seasons (``/settings season``; ``length`` None: it runs none)."""
        return await self.db.seasons.of_guild(guild_id)

    async def set_season(self, guild_id: int, *, manager: bool, length: str | None = None,
                         channel_id: int | None = None, reset: bool | None = None,
                         here: int | None = None) -> SeasonSetting:
        """Change a server's seasons; what is not given stays as it was. ``length``:
        ``monthly``, ``quarterly`` or ``off``; ``channel_id``: where the podium goes; ``reset``:
        ratings start again at each season's end (else they carry on). Seasons started without
        a channel ever chosen post their podium in ``here`` (the channel of the command).
        Returns the new setting.
        """
        if not manager:
            raise NotAllowed(NOT_A_MANAGER)
        if length is not None and length not in (*LENGTHS, OFF):
            raise UserError("Choose one of the season lengths the command offers.")
        now = self.clock()
        old = await self.db.seasons.of_guild(guild_id)
        new = old
        if length is not None:
            chosen = None if length == OFF else length
            if chosen != old.length:
                new = replace(new, length=chosen, since_ms=None if chosen is None else now)
        if channel_id is not None:
            new = replace(new, channel_id=channel_id)
        elif new.length is not None and new.channel_id is None:
            new = replace(new, channel_id=here)
        if reset is not None:
            new = replace(new, reset=reset)
        if new != old:
            await self.db.seasons.set(new, now)
        return new
