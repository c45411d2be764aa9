"""A server's own settings, set by its managers: the default language of its games, whether
new games play in a thread.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.errors import NotAllowed, UserError
from storage import Storage

NOT_A_MANAGER = "Only someone who can manage this server can change its settings."


class ServerSettings:
    """Reads and writes servers' settings."""

    def __init__(self, db: Storage, clock: Callable[[], int]) -> None:
        """Keep the settings in ``db``; ``clock`` stamps each change."""
        self.db = db
        self.clock = clock

    async def language(self, guild_id: int) -> str | None:
        """The default language a server's managers chose (``/settings language``), or None."""
        return await self.db.guild_language(guild_id)

    async def set_language(self, guild_id: int, language: str, *, manager: bool,
                           known: frozenset[str]) -> None:
        """Set a server's default language (``manager``: the user may manage the server;
        ``known``: the languages the bot speaks).
        """
        if not manager:
            raise NotAllowed(NOT_A_MANAGER)
        if language not in known:
            raise UserError("Choose one of the languages the command offers.")
        await self.db.set_guild_language(guild_id, language, self.clock())

    async def threads(self, guild_id: int) -> bool:
        """Whether a server's new games play in a thread (``/settings threads``)."""
        return bool(await self.db.guild_threads(guild_id))

    async def set_threads(self, guild_id: int, threads: bool, *, manager: bool) -> None:
        """Set whether a server's new games play in a thread."""
        if not manager:
            raise NotAllowed(NOT_A_MANAGER)
        await self.db.set_guild_threads(guild_id, threads, self.clock())
