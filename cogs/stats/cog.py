"""``/leaderboard`` and ``/stats``: per-server figures from finished games only."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserError
from cogs.common.components import Click
from cogs.stats.render import (
    PAGE_SIZE,
    leaderboard_embed,
    leaderboard_view,
    month_start_ms,
    stats_embed,
)

if TYPE_CHECKING:
    from bot.client import PandaBot


async def leaderboard_page(bot: PandaBot, guild: discord.Guild | None, guild_id: int,
                           kind: str, period: str, page: int, bots: bool
                           ) -> tuple[discord.Embed, discord.ui.View | None]:
    since = month_start_ms(dt.datetime.now(dt.UTC)) if period == "month" else None
    db = bot.service.db
    count = await db.leaderboard_count(guild_id, kind, since_ms=since, include_bots=bots)
    pages = max(1, -(-count // PAGE_SIZE))
    page = min(max(page, 0), pages - 1)
    rows = await db.leaderboard(guild_id, kind, since_ms=since, limit=PAGE_SIZE,
                                offset=page * PAGE_SIZE, include_bots=bots)
    name = guild.name if guild else "this server"
    return (leaderboard_embed(kind, period, rows, page, pages, name),
            leaderboard_view(kind, period, page, pages, bots))


async def on_page(interaction: discord.Interaction[Any], click: Click, values: list[str]
                  ) -> None:
    """Previous / Next on a leaderboard message."""
    try:
        kind, period, bots = click.arg.split(".")
    except ValueError:
        raise UserError("This leaderboard button is not valid any more.") from None
    if interaction.guild_id is None or kind not in ("royale", "posing") \
            or period not in ("all", "month"):
        raise UserError("This leaderboard button is not valid any more.")
    embed, view = await leaderboard_page(interaction.client, interaction.guild,
                                         interaction.guild_id, kind, period, click.version,
                                         bots == "1")
    await interaction.response.edit_message(embed=embed, view=view)


@app_commands.guild_only()
class StatsCog(commands.Cog):
    """Server leaderboards and player stats."""

    def __init__(self, bot: PandaBot) -> None:
        self.bot = bot

    @app_commands.command(name="leaderboard", description="This server's best players")
    @app_commands.describe(game="Which game", period="All time or this month",
                           computers="Include computer players")
    async def leaderboard(
        self, interaction: discord.Interaction[Any],
        game: Literal["royale", "posing"] = "royale",
        period: Literal["all", "month"] = "all",
        computers: bool = False,
    ) -> None:
        await self.bot.guarded(interaction, self._leaderboard(interaction, game, period,
                                                              computers))

    async def _leaderboard(self, interaction: discord.Interaction[Any], game: str,
                           period: str, computers: bool) -> None:
        if interaction.guild_id is None:
            raise UserError("Leaderboards belong to servers: use this in a server.")
        embed, view = await leaderboard_page(self.bot, interaction.guild, interaction.guild_id,
                                             game, period, 0, computers)
        if view is None:
            await interaction.response.send_message(embed=embed)
        else:
            await interaction.response.send_message(embed=embed, view=view)

    @app_commands.command(name="stats", description="Games, wins, scores and rating")
    @app_commands.describe(member="Whose stats (you by default)")
    async def stats(self, interaction: discord.Interaction[Any],
                    member: discord.Member | None = None) -> None:
        await self.bot.guarded(interaction, self._stats(interaction, member))

    async def _stats(self, interaction: discord.Interaction[Any],
                     member: discord.Member | None) -> None:
        if interaction.guild_id is None:
            raise UserError("Stats belong to servers: use this in a server.")
        who = member or interaction.user
        rows = await self.bot.service.db.player_stats(interaction.guild_id, str(who.id))
        await interaction.response.send_message(
            embed=stats_embed(getattr(who, "display_name", who.name), rows))
