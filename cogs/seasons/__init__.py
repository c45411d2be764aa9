"""Seasons' ends: a periodic check (at start-up, then at every month's start and at least
hourly) finds the seasons that ended in the servers this cluster serves, and posts each one's
podium once in the server's season channel (the claim is the service's: one process, once,
whatever restarts or clusters run).
"""

from __future__ import annotations

from discord.ext import commands

from cogs.seasons.cog import SeasonCog


async def setup(bot: commands.Bot) -> None:
    """discord.py extension entry point."""
    await bot.add_cog(SeasonCog(bot))
