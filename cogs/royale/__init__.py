"""Panda Royale on Discord: the /royale commands and the round message's components."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.common.lobby import LOBBY_VERBS, on_lobby_click
from cogs.royale.cog import RoyaleCog
from cogs.royale.handlers import ROUND_VERBS, on_click
from cogs.royale.present import RoyalePresenter

if TYPE_CHECKING:
    from bot.client import PandaBot


async def setup(bot: PandaBot) -> None:
    """discord.py extension entry point."""
    presenter = RoyalePresenter(bot)
    bot.presenters["royale"] = presenter
    bot.service.listeners["royale"] = presenter.on_timeout
    for verb in ROUND_VERBS:
        bot.handlers[verb] = on_click
    for verb in LOBBY_VERBS:
        bot.handlers[verb] = on_lobby_click
    await bot.add_cog(RoyaleCog(bot))
