"""Leaderboards and stats per server."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.stats.cog import StatsCog, on_page

if TYPE_CHECKING:
    from bot.client import PandaBot


async def setup(bot: PandaBot) -> None:
    bot.handlers["lb"] = on_page
    await bot.add_cog(StatsCog(bot))
