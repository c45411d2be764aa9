"""``/leaderboard`` and ``/stats``: per-server figures from finished games only."""

from __future__ import annotations

from typing import Any, Final, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserError
from cogs.stats.render import leaderboard_embed, leaderboard_view, parse_page_arg, stats_embed
from ui.hub import ClickContext, VerbTable, hub_of, place_of

STALE_BOARD: Final = "This leaderboard button is not valid any more."


async def _page(ctx: ClickContext) -> None:
    """Previous / Next on a leaderboard message."""
    board = parse_page_arg(ctx.click.arg)
    if board is None:
        raise UserError(STALE_BOARD)
    kind, period, computers, page = board
    guild_id = place_of(ctx.interaction).guild_id
    try:
        shown = await ctx.hub.stats.leaderboard(guild_id, kind, period, page, computers)
    except UserError:
        raise UserError(STALE_BOARD) from None
    guild = ctx.interaction.guild
    await ctx.interaction.edit_original_response(
        embed=leaderboard_embed(shown, guild.name if guild else "this server"),
        view=leaderboard_view(shown))


BOARD_VERBS: Final[VerbTable] = {"page": _page}


@app_commands.guild_only()
class StatsCog(commands.Cog):
    """Server leaderboards and player stats."""

    def __init__(self, bot: commands.Bot) -> None:
        """Serve ``bot``."""
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
        """One page of the server's leaderboard."""
        place = place_of(interaction)
        board = await hub_of(self.bot).stats.leaderboard(place.guild_id, game, period, 0,
                                                          computers)
        guild = interaction.guild
        embed = leaderboard_embed(board, guild.name if guild else "this server")
        view = leaderboard_view(board)
        if view is None:
            await interaction.response.send_message(embed=embed)
        else:
            await interaction.response.send_message(embed=embed, view=view)

    @app_commands.command(name="stats", description="Games, wins, scores and rating")
    @app_commands.describe(member="Whose stats (you by default)")
    async def stats(self, interaction: discord.Interaction[Any],
                    member: discord.Member | None = None) -> None:
        """A member's figures in this server."""
        place = place_of(interaction)
        who = member or interaction.user
        rows = await hub_of(self.bot).stats.player(place.guild_id, who.id)
        await interaction.response.send_message(
            embed=stats_embed(getattr(who, "display_name", who.name), rows))
