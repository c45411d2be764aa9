"""``/help``: a paged embed of every command, the phases of a round and the rulings."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as loc
from discord.ext import commands

from cogs.help.pages import PAGES
from ui.clicks import Click
from ui.components import HelpComponent
from ui.hub import ClickContext, hub_of
from ui.i18n import Tr, for_user


def help_page(page: int, tr: Tr) -> tuple[discord.Embed, discord.ui.View]:
    """One page of /help and the buttons to the others, in ``tr``'s language."""
    page = min(max(page, 0), len(PAGES) - 1)
    title, text = PAGES[page]
    embed = discord.Embed(title=tr("Panda Royale bot · {page}", page=tr(title)),
                          description=tr(text), color=0x2ECC71).set_footer(
        text=tr("Page {n}/{pages}", n=page + 1, pages=len(PAGES)))
    view = discord.ui.View(timeout=None)
    for i, (name, _) in enumerate(PAGES):
        style = discord.ButtonStyle.primary if i == page else discord.ButtonStyle.secondary
        view.add_item(HelpComponent.button(Click("page", arg=str(i)), label=tr(name),
                                           disabled=i == page, style=style))
    return embed, view


async def on_help_page(ctx: ClickContext) -> None:
    """A page button of /help."""
    arg = ctx.click.arg
    embed, view = help_page(int(arg) if arg.isdigit() else 0, for_user(ctx.interaction))
    await ctx.interaction.edit_original_response(embed=embed, view=view)


class HelpCog(commands.Cog):
    """``/help``."""

    def __init__(self, bot: commands.Bot) -> None:
        """Serve ``bot``."""
        self.bot = bot

    @app_commands.command(name=loc("help"),
                          description=loc("Commands, how a round goes, our rulings"))
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        """The first page of help, privately."""
        embed, view = help_page(0, for_user(interaction))
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    """discord.py extension entry point."""
    hub_of(bot).add_table(HelpComponent.prefix, {"page": on_help_page})
    await bot.add_cog(HelpCog(bot))
