"""A server's own settings, set by its managers: the default language of its games, whether
new games play in a thread, their default turn timeout and Mayhem options, its seasons; and the
claim of the greeting posted when the bot joins it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Final

from bot.errors import NotAllowed, UserError
from bot.rules.registry import ROYALE
from bot.service.lobby import MAX_TURN_TIMEOUT, MIN_TURN_TIMEOUT
from bot.service.season_calendar import LENGTHS
from storage import ServerDefaults, ServerSeason, Storage

OFF: Final = "off"
"""The season length that stops a server's seasons."""

MAYHEM: Final = ROYALE.rule_options["expansions"]
"""The Mayhem options a server's default may hold: Panda Royale's ``expansions`` rule option,
in the rules' order, as its registry entry gives them."""

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
        if not manager:
            raise NotAllowed(NOT_A_MANAGER)
        await self.db.settings.set_threads(guild_id, threads, self.clock())

    async def defaults(self, guild_id: int) -> ServerDefaults:
        """What a server's managers chose for its new games (None where they never said)."""
        return await self.db.settings.defaults(guild_id)

    async def set_turn_timeout(self, guild_id: int, seconds: int | None, *,
                               manager: bool) -> None:
        """Set the seconds a player has for a decision in the server's new games whose host
        gives none, within the bounds of ``/royale new``'s ``turn_timeout`` (None: clear it,
        the bot's default applies).
        """
        if not manager:
            raise NotAllowed(NOT_A_MANAGER)
        if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, int)
                                    or not MIN_TURN_TIMEOUT <= seconds <= MAX_TURN_TIMEOUT):
            raise UserError("The turn timeout must be {low} to {high} seconds.",
                            low=MIN_TURN_TIMEOUT, high=MAX_TURN_TIMEOUT)
        await self.db.settings.set_turn_timeout(guild_id, seconds, self.clock())

    async def set_mayhem(self, guild_id: int, chosen: Mapping[str, bool] | None, *,
                         manager: bool) -> tuple[str, ...] | None:
        """Change the Mayhem options of the server's new Panda Royale games whose host
        chooses none: ``chosen`` turns the options it names on or off, the others stay as
        they were (None: clear the setting; new games then play without Mayhem unless their
        host chooses some). Returns the new options (in the rules' order; None: not set).
        """
        if not manager:
            raise NotAllowed(NOT_A_MANAGER)
        if chosen is None:
            await self.db.settings.set_mayhem(guild_id, None, self.clock())
            return None
        unknown = [name for name in chosen if name not in MAYHEM]
        if unknown:
            raise UserError("Unknown Mayhem option {option}: choose {choices}.",
                            option=repr(unknown[0][:20]), choices=", ".join(MAYHEM))
        old = (await self.db.settings.defaults(guild_id)).mayhem or ()
        new = tuple(name for name in MAYHEM if chosen.get(name, name in old))
        await self.db.settings.set_mayhem(guild_id, new, self.clock())
        return new

    async def claim_greeting(self, guild_id: int, joined_ms: int) -> bool:
        """Whether the caller greets the server for the bot's join at ``joined_ms`` (when the
        bot's membership began, epoch ms; 0 when unknown): True once per join, whichever
        processes and restarts see it, and again for a later join.
        """
        return await self.db.settings.claim_greeting(guild_id, joined_ms, self.clock())

    async def season(self, guild_id: int) -> ServerSeason:
        """A server's seasons (``/settings season``; ``length`` None: it runs none)."""
        return await self.db.seasons.of_guild(guild_id)

    async def set_season(self, guild_id: int, *, manager: bool, length: str | None = None,
                         channel_id: int | None = None, reset: bool | None = None,
                         here: int | None = None) -> ServerSeason:
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
