"""The periodic check of seasons' ends, and the podium posted for each."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import aiohttp
import discord
from discord.ext import commands

from bot.request_budget import Urgency
from bot.service import SeasonEnd
from bot.service.seasons import EMPTY, NO_CHANNEL, POSTED, REFUSED
from cogs.seasons.render import podium_content, podium_embed
from ui.channel_access import Refusal, refusal
from ui.hub import hub_of
from ui.i18n import resolve, tr_for
from ui.shown import NO_PINGS

log = logging.getLogger("cogs.seasons")


class SeasonCog(commands.Cog):
    """Runs the check of seasons' ends for as long as the bot runs."""

    def __init__(self, bot: commands.Bot) -> None:
        """Serve ``bot``."""
        self.bot = bot
        self.task: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        """Start the check (not in a bot that only syncs commands)."""
        if not getattr(self.bot, "sync_only", False):
            self.task = asyncio.create_task(self._run(), name="season-ends")

    async def cog_unload(self) -> None:
        """Stop the check."""
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
            self.task = None

    async def _run(self) -> None:
        await self.bot.wait_until_ready()
        seasons = hub_of(self.bot).service.seasons
        while not self.bot.is_closed():
            try:
                await self.check()
            except asyncio.CancelledError:
                raise
            except Exception:
                if seasons.db.closed:  # shutting down
                    return
                log.exception("the check of seasons' ends failed")
            await asyncio.sleep(seasons.next_check_s())

    async def check(self) -> int:
        """Post the podium of every season that ended and this process claimed; returns how
        many were posted.
        """
        posted = 0
        for end in await hub_of(self.bot).service.seasons.due():
            posted += await self.settle(end)
        return posted

    async def settle(self, end: SeasonEnd) -> int:
        """Post ``end``'s podium (1) or record why not (0)."""
        seasons = hub_of(self.bot).service.seasons
        if end.empty:
            await seasons.settled(end, EMPTY)
            return 0
        if end.channel_id is None:
            await seasons.settled(end, NO_CHANNEL)
            return 0
        tr = tr_for(await self._language(end.guild_id))
        channel = self.bot.get_partial_messageable(end.channel_id, guild_id=end.guild_id)
        try:
            async with hub_of(self.bot).bot.budget.spend(Urgency.NOTIFY):
                message = await channel.send(content=podium_content(tr, end),
                                             embed=podium_embed(tr, end),
                                             allowed_mentions=NO_PINGS)
        except (aiohttp.ClientError, OSError, TimeoutError) as exc:
            return self._later(end, type(exc).__name__)
        except discord.HTTPException as exc:
            if refusal(exc) is Refusal.OTHER and exc.status >= 500:
                return self._later(end, str(exc.status))
            await seasons.settled(end, REFUSED)
            log.info("server %s: the podium of season %s was refused (%s)", end.guild_id,
                     end.season.key, exc.status)
            return 0
        await seasons.settled(end, POSTED, message.id)
        return 1

    @staticmethod
    def _later(end: SeasonEnd, why: str) -> int:
        """Discord could not be reached: the claim goes stale and a later check takes it."""
        log.warning("server %s: the podium of season %s was not posted (%s): a later check "
                    "tries again", end.guild_id, end.season.key, why)
        return 0

    async def _language(self, guild_id: int) -> str:
        stored = await hub_of(self.bot).service.servers.language(guild_id)
        guild: Any = self.bot.get_guild(guild_id)
        return resolve(stored or getattr(guild, "preferred_locale", None))
