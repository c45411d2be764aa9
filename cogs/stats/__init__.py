"""Leaderboards and stats per server."""

from __future__ import annotations

from discord.ext import commands

from cogs.stats.cog import BOARD_VERBS, StatsCog
from ui.components import BoardComponent
from ui.hub import hub_of


async def setup(bot: commands.Bot) -> None:
    """discord.py extension entry point."""
    hub_of(bot).add_table(BoardComponent.prefix, BOARD_VERBS)
    await bot.add_cog(StatsCog(bot))
