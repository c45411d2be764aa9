"""Seasons' ends: the periodic check that posts each ended season's podium once in the server's
season channel (docs/architecture.md, *Seasons*).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Final

import aiohttp
import discord
from babel.numbers import format_decimal
from discord.ext import commands

from bot.request_budget import Urgency
from bot.rules.registry import kind_of
from bot.service import SeasonEnd
from bot.service.seasons import EMPTY, NO_CHANNEL, POSTED, REFUSED
from ui.board import NO_PINGS, Refusal, refusal
from ui.cards import OVER, layout, separator, text
from ui.i18n import Tr, resolve, tr_for
from ui.items import bot_of
from ui.names import MEDALS, safe
from ui.seasons import season_name

log = logging.getLogger("cogs.seasons")
PODIUM_LIMIT: Final = 1000
"""Characters of one game's podium lines."""


def podium_card(tr: Tr, end: SeasonEnd) -> discord.ui.LayoutView:
    """The podium of ``end``'s season (at least one game finished in it): for each game played
    in it, its best three people (by wins, then average score).
    """
    name = season_name(tr, end.season)
    title = tr("🏆 Season {season}: the podium", season=name)  # not in an f-string: extracted
    parts: list[discord.ui.Item[Any]] = [
        text(f"### {title}\n" + tr(
            "Season {season} is over! Congratulations to the best players.", season=name))]
    for kind, entries in end.podium.items():
        lines = [f"**{tr(kind_of(kind).title)}**"]
        for medal, entry in zip(MEDALS, entries, strict=False):
            avg = format_decimal(round(entry.average_score, 1), format="#,##0.0",
                                 locale=tr.lang)
            lines.append(f"{medal} **{safe(entry.display_name)}** · "
                         + tr.ngettext("{wins} win", "{wins} wins", entry.wins, wins=entry.wins)
                         + " " + tr.ngettext("in {games} game", "in {games} games",
                                             entry.games, games=tr.num(entry.games))
                         + " · " + tr("average {value}", value=avg))
        parts.append(text("\n".join(lines)[:PODIUM_LIMIT]))
    footer = tr("Ratings start again from today.") if end.reset \
        else tr("Ratings carry on into the new season.")
    parts += [separator(), text("-# " + footer + " " + tr(
        "/leaderboard period: last season shows the whole table."))]
    return layout(OVER, *parts)


class SeasonEnds(commands.Cog):
    """Runs the check of seasons' ends for as long as the bot runs."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.task: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        """Start the check (not in a bot that only syncs commands)."""
        if not getattr(self.bot, "sync_only", False):
            self.task = asyncio.create_task(self._run(), name="season-ends")

    async def cog_unload(self) -> None:
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
            self.task = None

    async def _run(self) -> None:
        await self.bot.wait_until_ready()
        seasons = bot_of(self.bot).seasons
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
        for end in await bot_of(self.bot).seasons.due():
            posted += await self.settle(end)
        return posted

    async def settle(self, end: SeasonEnd) -> int:
        """Post ``end``'s podium (1) or record why not (0)."""
        game_bot = bot_of(self.bot)
        seasons = game_bot.seasons
        if end.empty:
            await seasons.settled(end, EMPTY)
            return 0
        if end.channel_id is None:
            await seasons.settled(end, NO_CHANNEL)
            return 0
        tr = tr_for(await self._language(end.guild_id))
        channel = self.bot.get_partial_messageable(end.channel_id, guild_id=end.guild_id)
        try:
            async with game_bot.budget.spend(Urgency.NOTIFY):
                message = await channel.send(view=podium_card(tr, end),
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
        stored = await bot_of(self.bot).servers.language(guild_id)
        guild: Any = self.bot.get_guild(guild_id)
        return resolve(stored or getattr(guild, "preferred_locale", None))


async def setup(bot: commands.Bot) -> None:
    """discord.py extension entry point."""
    await bot.add_cog(SeasonEnds(bot))
