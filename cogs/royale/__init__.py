"""Panda Royale on Discord: the /royale commands and the round message's components."""

from __future__ import annotations

from discord.ext import commands

from bot.rules.registry import ROYALE
from cogs.royale.cog import RoyaleCog
from cogs.royale.components import RoyaleComponent
from cogs.royale.handlers import ROYALE_MOVES, ROYALE_VERBS
from cogs.royale.present import RoyalePresenter
from cogs.royale.review_text import ROYALE_REVIEW
from ui.hub import DiscordGame, hub_of


async def setup(bot: commands.Bot) -> None:
    """discord.py extension entry point: the game's entry and its components, then its slash
    commands.
    """
    hub = hub_of(bot)
    hub.add_game(DiscordGame(kind=ROYALE, component=RoyaleComponent,
                             presenter=RoyalePresenter(hub),
                             verbs=ROYALE_VERBS, moves=ROYALE_MOVES,
                             review_words=ROYALE_REVIEW))
    bot.add_dynamic_items(RoyaleComponent)
    await bot.add_cog(RoyaleCog(bot))
