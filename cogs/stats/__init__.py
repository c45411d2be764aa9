"""``/leaderboard`` and ``/stats``: per-server figures from finished games only, posted in the
channel in the server's language (:func:`ui.settings.server_language`), one public answer per
channel every few seconds (the others privately, saying why).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.app_commands import locale_str as loc
from discord.ext import commands

from bot.rules.registry import KINDS, ROYALE
from cogs.stats.cards import PRIVATE_WHY, TurnPage, leaderboard_card, stats_card
from cogs.stats.chart import CHART_NAME, STEPS_OF, stats_chart
from ui.i18n import tr_for
from ui.items import bot_of, place_of
from ui.settings import server_language

GAMES: Final = [Choice(name=loc(kind.title), value=kind.name) for kind in KINDS.values()]
"""The leaderboard's games: every registered kind (the kinds' titles are translated)."""
PERIODS: Final = [Choice(name=loc("all"), value="all"), Choice(name=loc("month"), value="month"),
                  Choice(name=loc("season"), value="season"),
                  Choice(name=loc("last season"), value="last-season")]
PUBLIC_EVERY_S: Final = 10.0
"""Seconds between two public answers in one channel: a crowd sending ``/leaderboard`` twenty
times a second puts one message in the channel, and never meets Discord's limit of 5 messages
per 5 s per channel."""


class PublicCooldown:
    """When a channel may next get a public answer; entries last one window only."""

    def __init__(self, clock: Callable[[], float], every_s: float = PUBLIC_EVERY_S) -> None:
        """``clock()`` is now in seconds."""
        self._clock = clock
        self.every_s = every_s
        self._last: dict[int, float] = {}

    def public(self, channel_id: int) -> bool:
        """Whether this answer may be public (and if so, the window starts now)."""
        now = self._clock()
        for channel in [c for c, t in self._last.items() if now - t >= self.every_s]:
            del self._last[channel]
        if channel_id in self._last:
            return False
        self._last[channel_id] = now
        return True


class StatsCommands(commands.Cog):
    """Server leaderboards (installed by the server) and player stats (also where a player
    installed the app: a group DM's own games, or a server's played through the app).
    """

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.cooldown = PublicCooldown(lambda: discord.utils.utcnow().timestamp())

    def _public(self, interaction: discord.Interaction[Any]) -> bool:
        return interaction.channel_id is not None and self.cooldown.public(interaction.channel_id)

    @app_commands.command(name=loc("leaderboard"), description=loc("This server's best players"))
    @app_commands.guild_install()
    @app_commands.guild_only()
    @app_commands.describe(game=loc("Which game"),
                           period=loc("All time, this month, this season or the last one"),
                           computers=loc("Include computer players"))
    @app_commands.rename(game=loc("game"), period=loc("period"), computers=loc("computers"))
    @app_commands.choices(game=GAMES, period=PERIODS)
    async def leaderboard(self, interaction: discord.Interaction[Any], game: str = ROYALE.name,
                          period: str = "all", computers: bool = False) -> None:
        """One page of the server's leaderboard."""
        place = place_of(interaction)
        board = await bot_of(self.bot).stats.leaderboard(place.guild_id, game, period, 0,
                                                          computers)
        guild = interaction.guild
        tr = tr_for(await server_language(interaction))
        public = self._public(interaction)
        card = leaderboard_card(tr, board, guild.name if guild else tr("this server"),
                                "" if public else tr(PRIVATE_WHY))
        await interaction.response.send_message(view=card, ephemeral=not public,
                                                allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name=loc("stats"), description=loc("Games, wins, scores and rating"))
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=False, private_channels=True)
    @app_commands.describe(member=loc("Whose stats (you by default)"))
    @app_commands.rename(member=loc("member"))
    async def stats(self, interaction: discord.Interaction[Any],
                    member: discord.User | None = None) -> None:
        """A member's figures in this server, with the picture of their last games (drawn
        after the answer is deferred: Discord's three seconds hold whatever it takes).
        """
        place = place_of(interaction)
        who = member or interaction.user
        public = self._public(interaction)
        await interaction.response.defer(ephemeral=not public, thinking=True)
        stats = bot_of(self.bot).stats
        rows = await stats.player(place.guild_id, who.id)
        earned = [a.achievement for a in await stats.achievements(place.guild_id, who.id)]
        history = await stats.history(place.guild_id, who.id, steps_of=STEPS_OF)
        tr = tr_for(await server_language(interaction))
        name = getattr(who, "display_name", who.name)
        chart = await stats_chart(tr, name, str(who.id), history)
        card = stats_card(tr, name, rows, earned, CHART_NAME if chart else None,
                          "" if public else tr(PRIVATE_WHY))
        await interaction.followup.send(view=card, files=[chart] if chart else [],
                                        ephemeral=not public,
                                        allowed_mentions=discord.AllowedMentions.none())


async def setup(bot: commands.Bot) -> None:
    """discord.py extension entry point."""
    bot.add_dynamic_items(TurnPage)
    await bot.add_cog(StatsCommands(bot))
