"""Posing Pandas on Discord: the /posing commands and the turn message's components."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.common.lobby import LOBBY_VERBS, on_lobby_click
from cogs.posing.cog import PosingCog
from cogs.posing.handlers import TURN_VERBS, on_click
from cogs.posing.present import PosingPresenter

if TYPE_CHECKING:
    from bot.client import PandaBot


async def setup(bot: PandaBot) -> None:
    """discord.py extension entry point."""
    presenter = PosingPresenter(bot)
    bot.presenters["posing"] = presenter
    bot.service.listeners["posing"] = presenter.on_timeout
    for verb in TURN_VERBS:
        if verb in bot.handlers:
            raise RuntimeError(f"verb {verb!r} is already taken by another cog")
        bot.handlers[verb] = on_click
    for verb in LOBBY_VERBS:  # the shared lobby buttons (the Royale cog registers them too)
        bot.handlers.setdefault(verb, on_lobby_click)
    await bot.add_cog(PosingCog(bot))
