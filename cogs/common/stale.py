"""A click on an out-of-date game message: refused, and the message redrawn if needed."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.errors import StaleClick
from cogs.common.components import Click

if TYPE_CHECKING:
    from bot.client import PandaBot


async def refresh_stale(interaction: discord.Interaction[Any], click: Click,
                        stale: StaleClick) -> None:
    """A click on an out-of-date message: nothing is applied; if it is the game's current
    message (an edit that never arrived), redraw it; tell the user privately either way."""
    bot: PandaBot = interaction.client
    game = await bot.service.db.get_game(click.game_id)
    if game is not None and game.status == "active" and interaction.message is not None \
            and interaction.message.id == game.message_id:
        shown = await bot.presenter(game.kind).current(game)
        await interaction.response.edit_message(content=shown.content, embed=shown.embed,
                                                view=shown.view)
        await interaction.followup.send("That was already decided: here is the game as it is "
                                        "now.", ephemeral=True)
        return
    raise stale
