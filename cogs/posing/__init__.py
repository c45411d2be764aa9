"""Posing Pandas on Discord: the /posing commands and the turn message's components."""

from __future__ import annotations

from discord.ext import commands

from bot.rules.registry import POSING
from cogs.posing.cog import PosingCog
from cogs.posing.components import PosingComponent
from cogs.posing.handlers import POSING_MOVES, POSING_VERBS
from cogs.posing.present import PosingPresenter
from cogs.posing.review_text import POSING_REVIEW
from ui.hub import DiscordGame, hub_of


async def setup(bot: commands.Bot) -> None:
    """discord.py extension entry point: the game's entry and its components, then its slash
    commands.
    """
    hub = hub_of(bot)
    hub.add_game(DiscordGame(kind=POSING, component=PosingComponent,
                             presenter=PosingPresenter(hub),
                             verbs=POSING_VERBS, moves=POSING_MOVES,
                             review_words=POSING_REVIEW))
    bot.add_dynamic_items(PosingComponent)
    await bot.add_cog(PosingCog(bot))
