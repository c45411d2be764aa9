"""``/help``: every command, the phases of a round, scoring, Mayhem, the rulings and Posing
Pandas, one page at a time, chosen in a menu (one row on a phone).
"""

from __future__ import annotations

from typing import Any, Final

import discord
from discord import app_commands
from discord.app_commands import locale_str as loc
from discord.ext import commands

from cogs.help.pages import PAGES
from ui.cards import PLAYING, layout, row, text
from ui.i18n import Tr, for_user
from ui.items import Clicked, GameItem, Verb

PREFIX: Final = "hp"


def help_card(page: int, tr: Tr) -> discord.ui.LayoutView:
    """One page of /help and the menu of the others, in ``tr``'s language."""
    page = min(max(page, 0), len(PAGES) - 1)
    title, words = PAGES[page]
    options = [discord.SelectOption(label=tr(name), value=str(i), default=i == page)
               for i, (name, _) in enumerate(PAGES)]
    return layout(PLAYING, text("### " + tr("Panda Royale bot · {page}", page=tr(title))),
                  text(tr(words)),
                  text("-# " + tr("Page {n} of {pages}", n=page + 1, pages=len(PAGES))),
                  row(HelpPage.select(PREFIX, None, None, options=options,
                                      placeholder=tr("Another page"))))


class HelpPage(GameItem, prefixes=PREFIX, verb=Verb.PAGE, about_a_game=False):
    """The page menu of /help: the clicked message shows the chosen page."""

    async def act(self, clicked: Clicked) -> None:
        choice = clicked.arg or clicked.one()  # an older /help's page buttons name their page
        page = int(choice) if choice.isdigit() else 0
        await clicked.redraw(help_card(page, for_user(clicked.interaction)))


class HelpCommand(commands.Cog):
    """``/help``."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name=loc("help"),
                          description=loc("Commands, how a round goes, our rulings"))
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        """The first page of help, privately."""
        await interaction.response.send_message(view=help_card(0, for_user(interaction)),
                                                ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    """discord.py extension entry point."""
    bot.add_dynamic_items(HelpPage)
    await bot.add_cog(HelpCommand(bot))
