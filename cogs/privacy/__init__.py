"""``/privacy`` (what the bot keeps, why, how long, who sees it), ``/mydata export`` (a file of
everything the bot holds about the asking user) and ``/mydata forget`` (after a confirmation
button: the user is forgotten in every server). ``/settings forget-server`` confirms here too.
"""

from __future__ import annotations

import asyncio
import io
from typing import Any, Final

import discord
from discord import app_commands
from discord.app_commands import locale_str as loc
from discord.ext import commands

from bot.errors import NotAllowed
from bot.service import GameStatus
from cogs.privacy.export import export_files
from cogs.privacy.texts import (
    FORGET_SERVER_DONE,
    FORGET_SERVER_QUESTION,
    FORGOTTEN,
    KEPT,
    QUESTION,
    SECTIONS,
)
from ui.cards import PLAYING, layout, note_view, row, separator, text
from ui.i18n import Tr, for_game, for_user
from ui.items import Clicked, GameItem, Verb, bot_of, place_of
from ui.lobby import cancelled, redraw_lobby
from ui.names import former_name
from ui.options import can_manage_server

PREFIX: Final = "pv"
DANGER: Final = 0xE74C3C


def privacy_card(tr: Tr, retention_days: int) -> discord.ui.LayoutView:
    """The privacy notice, in ``tr``'s language."""
    parts: list[discord.ui.Item[Any]] = [text("### " + tr("Your data and the Panda Royale bot"))]
    for title, words in SECTIONS:
        parts.append(text(f"**{tr(title)}**\n{tr(words, days=retention_days)}"))
    parts += [separator(),
              text("-# " + tr("The whole notice: docs/privacy.md in the bot's repository."))]
    return layout(PLAYING, *parts)


def question_card(question: str, yes: discord.ui.Item[Any], keep: discord.ui.Item[Any]
                  ) -> discord.ui.LayoutView:
    """A question, a red confirmation button and a way out."""
    return layout(DANGER, text(question), row(yes, keep))


async def ask_forget_server(interaction: discord.Interaction[Any]) -> None:
    """``/settings forget-server``: the question, with its confirmation button."""
    tr = for_user(interaction)
    guild_id = place_of(interaction).guild_id
    if not can_manage_server(interaction):
        raise NotAllowed("Only server managers can change this server's settings.")
    counts = await bot_of(interaction.client).privacy.server_rows(guild_id)
    card = question_card(
        tr(FORGET_SERVER_QUESTION, games=counts.get("games", 0)),
        ForgetServer.button(PREFIX, arg=str(guild_id), label=tr("Delete this server's data"),
                            style=discord.ButtonStyle.danger),
        Keep.button(PREFIX, label=tr("Keep it")))
    await interaction.response.send_message(view=card, ephemeral=True)


EVERYWHERE: Final = app_commands.AppCommandContext(guild=True, dm_channel=True,
                                                  private_channel=True)
"""Where the personal commands work: servers, DMs with the bot, DMs and group DMs."""
BOTH_INSTALLS: Final = app_commands.AppInstallationType(guild=True, user=True)
"""Installed by a server or by the person themselves."""


class PrivacyCommands(commands.Cog):
    """``/privacy`` and ``/mydata``."""

    mydata = app_commands.Group(name=loc("mydata"),
                                description=loc("Your data: a copy of it, or forget it"),
                                allowed_contexts=EVERYWHERE, allowed_installs=BOTH_INSTALLS)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name=loc("privacy"),
                          description=loc("What the bot keeps about you, and how to remove it"))
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def privacy(self, interaction: discord.Interaction[Any]) -> None:
        """The privacy notice, privately."""
        days = bot_of(self.bot).privacy.retention_days
        await interaction.response.send_message(view=privacy_card(for_user(interaction), days),
                                                ephemeral=True)

    @mydata.command(name=loc("export"),
                    description=loc("A file of everything the bot keeps about you"))
    async def export(self, interaction: discord.Interaction[Any]) -> None:
        """Everything about the user, privately, as JSON (zipped past the attachment limit)."""
        tr = for_user(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        data = await bot_of(self.bot).privacy.export(interaction.user.id)
        files = await asyncio.to_thread(export_files, data,
                                        stem=f"panda-royale-my-data-{interaction.user.id}")
        said = tr("Everything the bot keeps about you, in every server: {games} games, "
                  "{results} results, {ratings} ratings.", games=len(data["games"]),
                  results=len(data["results"]), ratings=len(data["ratings"]))
        for i, (name, payload) in enumerate(files):
            await interaction.followup.send(
                said if i == 0 else tr("Part {n} of {parts}.", n=i + 1, parts=len(files)),
                file=discord.File(io.BytesIO(payload), filename=name), ephemeral=True)

    @mydata.command(name=loc("forget"),
                    description=loc("Forget you in every server (asks first)"))
    async def forget(self, interaction: discord.Interaction[Any]) -> None:
        """The question, with its confirmation button."""
        tr = for_user(interaction)
        card = question_card(
            tr(QUESTION),
            ForgetMe.button(PREFIX, arg=str(interaction.user.id), label=tr("Forget me"),
                            style=discord.ButtonStyle.danger),
            Keep.button(PREFIX, label=tr("Keep my data")))
        await interaction.response.send_message(view=card, ephemeral=True)


class PrivacyItem(GameItem, prefixes=PREFIX, about_a_game=False):
    """The buttons of the privacy questions."""


class ForgetMe(PrivacyItem, verb=Verb.FORGET):
    """"Forget me": only the user who asked; their games in play go on with the computer."""

    async def act(self, clicked: Clicked) -> None:
        tr = for_user(clicked.interaction)
        if clicked.arg != str(clicked.who.id):
            raise NotAllowed("This button is someone else's.")
        gone = await clicked.bot.privacy.forget(clicked.who.id)
        await clicked.redraw(note_view(tr(FORGOTTEN, games=gone.rows.get("game_players", 0))))
        boards = clicked.boards
        for outcome in gone.stood_in:  # announced on each game's board
            await boards.presenter(outcome.game.kind).show(outcome)
        for game in gone.lobbies:  # the lobbies they hosted closed, the others without them
            if game.status == GameStatus.CANCELLED:
                await cancelled(boards, game, former_name(for_game(game), gone.pseudonym))
            else:
                await redraw_lobby(boards, game)


class ForgetServer(PrivacyItem, verb=Verb.FORGET_SERVER):
    """"Delete this server's data": a server manager of that server, checked once more."""

    async def act(self, clicked: Clicked) -> None:
        tr = for_user(clicked.interaction)
        guild_id = place_of(clicked.interaction).guild_id
        if clicked.arg != str(guild_id) or not can_manage_server(clicked.interaction):
            raise NotAllowed("Only server managers can change this server's settings.")
        done = await clicked.bot.privacy.forget_server(guild_id)
        for game in done.ended:  # its open games ended: nothing of theirs stays in memory
            clicked.boards.forget(game.id)
        await clicked.redraw(note_view(tr(FORGET_SERVER_DONE, games=done.rows.get("games", 0))))


class Keep(PrivacyItem, verb=Verb.KEEP):
    """The way out: nothing happens."""

    async def act(self, clicked: Clicked) -> None:
        await clicked.redraw(note_view(for_user(clicked.interaction)(KEPT)))


async def setup(bot: commands.Bot) -> None:
    """discord.py extension entry point."""
    bot.add_dynamic_items(ForgetMe, ForgetServer, Keep)
    await bot.add_cog(PrivacyCommands(bot))
