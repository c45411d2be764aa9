"""``/help``: a paged embed of every command, the phases of a round and the rulings."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common.components import Click, GameButton
from cogs.help.pages import PAGES

if TYPE_CHECKING:
    from bot.client import PandaBot


def help_page(page: int) -> tuple[discord.Embed, discord.ui.View]:
    page = min(max(page, 0), len(PAGES) - 1)
    title, text = PAGES[page]
    embed = discord.Embed(title=f"Panda Royale bot · {title}", description=text,
                          color=0x2ECC71).set_footer(text=f"Page {page + 1}/{len(PAGES)}")
    view = discord.ui.View(timeout=None)
    for i, (name, _) in enumerate(PAGES):
        view.add_item(GameButton(Click(0, i, "help"), label=name, disabled=i == page,
                                 style=discord.ButtonStyle.primary if i == page
                                 else discord.ButtonStyle.secondary))
    return embed, view


async def on_help_page(interaction: discord.Interaction[Any], click: Click, values: list[str]
                       ) -> None:
    embed, view = help_page(click.version)
    await interaction.response.edit_message(embed=embed, view=view)


class HelpCog(commands.Cog):
    def __init__(self, bot: PandaBot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="Commands, how a round goes, our rulings")
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        embed, view = help_page(0)
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)


async def setup(bot: PandaBot) -> None:
    bot.handlers["help"] = on_help_page
    await bot.add_cog(HelpCog(bot))
