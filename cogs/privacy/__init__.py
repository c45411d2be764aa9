"""``/privacy`` (what the bot keeps, why, how long, who sees it), ``/mydata export`` (a file of
everything the bot holds about the asking user) and ``/mydata forget`` (after a confirmation
button: the user is forgotten in every server). ``/settings forget-server`` confirms here too.
"""

from __future__ import annotations

import asyncio
import io
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as loc
from discord.ext import commands

from bot.errors import NotAllowed
from cogs.privacy.components import PrivacyComponent
from cogs.privacy.texts import (
    FORGET_SERVER_DONE,
    FORGET_SERVER_QUESTION,
    FORGOTTEN,
    KEPT,
    QUESTION,
    SECTIONS,
)
from ui.clicks import Click
from ui.data_export import export_files
from ui.hub import ClickContext, hub_of, place_of
from ui.i18n import Tr, for_game, for_user
from ui.lobby import cancelled, redraw_lobby
from ui.managers import can_manage_server
from ui.names import former_name


def privacy_embed(tr: Tr, retention_days: int) -> discord.Embed:
    """The privacy notice, in ``tr``'s language."""
    embed = discord.Embed(title=tr("Your data and the Panda Royale bot"), color=0x2ECC71)
    for title, text in SECTIONS:
        embed.add_field(name=tr(title), value=tr(text, days=retention_days), inline=False)
    return embed.set_footer(text=tr("The whole notice: docs/privacy.md in the bot's repository."))


def confirm_view(tr: Tr, yes: Click, yes_label: str) -> discord.ui.View:
    """A red confirmation button and a way out."""
    view = discord.ui.View(timeout=None)
    view.add_item(PrivacyComponent.button(yes, label=yes_label, style=discord.ButtonStyle.danger))
    view.add_item(PrivacyComponent.button(Click("keep"), label=tr("Keep my data")))
    return view


async def ask_forget_server(interaction: discord.Interaction[Any]) -> None:
    """``/settings forget-server``: the question, with its confirmation button."""
    tr = for_user(interaction)
    guild_id = place_of(interaction).guild_id
    if not can_manage_server(interaction):
        raise NotAllowed("Only server managers can change this server's settings.")
    counts = await hub_of(interaction.client).service.privacy.server_rows(guild_id)
    view = discord.ui.View(timeout=None)
    view.add_item(PrivacyComponent.button(Click("server", arg=str(guild_id)),
                                          label=tr("Delete this server's data"),
                                          style=discord.ButtonStyle.danger))
    view.add_item(PrivacyComponent.button(Click("keep"), label=tr("Keep it")))
    await interaction.response.send_message(
        tr(FORGET_SERVER_QUESTION, games=counts.get("games", 0)), view=view, ephemeral=True)


class PrivacyCog(commands.Cog):
    """``/privacy`` and ``/mydata``."""

    mydata = app_commands.Group(name=loc("mydata"),
                                description=loc("Your data: a copy of it, or forget it"))

    def __init__(self, bot: commands.Bot) -> None:
        """Serve ``bot``."""
        self.bot = bot

    @app_commands.command(name=loc("privacy"),
                          description=loc("What the bot keeps about you, and how to remove it"))
    async def privacy(self, interaction: discord.Interaction[Any]) -> None:
        """The privacy notice, privately."""
        days = hub_of(self.bot).service.privacy.retention_days
        await interaction.response.send_message(
            embed=privacy_embed(for_user(interaction), days), ephemeral=True)

    @mydata.command(name=loc("export"),
                    description=loc("A file of everything the bot keeps about you"))
    async def export(self, interaction: discord.Interaction[Any]) -> None:
        """Everything about the user, privately, as JSON (zipped past the attachment limit)."""
        tr = for_user(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        data = await hub_of(self.bot).service.privacy.export(interaction.user.id)
        files = await asyncio.to_thread(export_files, data,
                                        stem=f"panda-royale-my-data-{interaction.user.id}")
        text = tr("Everything the bot keeps about you, in every server: {games} games, "
                  "{results} results, {ratings} ratings.", games=len(data["games"]),
                  results=len(data["results"]), ratings=len(data["ratings"]))
        for i, (name, payload) in enumerate(files):
            await interaction.followup.send(
                text if i == 0 else tr("Part {n} of {parts}.", n=i + 1, parts=len(files)),
                file=discord.File(io.BytesIO(payload), filename=name), ephemeral=True)

    @mydata.command(name=loc("forget"),
                    description=loc("Forget you in every server (asks first)"))
    async def forget(self, interaction: discord.Interaction[Any]) -> None:
        """The question, with its confirmation button."""
        tr = for_user(interaction)
        view = confirm_view(tr, Click("forget", arg=str(interaction.user.id)),
                            tr("Forget me"))
        await interaction.response.send_message(tr(QUESTION), view=view, ephemeral=True)


async def on_forget(ctx: ClickContext) -> None:
    """"Forget me": only the user who asked; their games in play go on with the computer."""
    tr = for_user(ctx.interaction)
    if ctx.click.arg != str(ctx.who.id):
        raise NotAllowed("This button is someone else's.")
    gone = await ctx.service.privacy.forget(ctx.who.id)
    await ctx.interaction.edit_original_response(
        content=tr(FORGOTTEN, games=gone.rows.get("game_players", 0)), view=None)
    for outcome in gone.stood_in:  # announced on each game's board
        await ctx.hub.presenter(outcome.game.kind).show(outcome)
    for game in gone.lobbies:  # the lobbies they hosted closed, the others drawn without them
        if game.status == "cancelled":
            await cancelled(ctx.hub, game, former_name(for_game(game), gone.pseudonym))
        else:
            await redraw_lobby(ctx.hub, game)


async def on_forget_server(ctx: ClickContext) -> None:
    """"Delete this server's data": a server manager of that server, once more checked."""
    tr = for_user(ctx.interaction)
    guild_id = place_of(ctx.interaction).guild_id
    if ctx.click.arg != str(guild_id) or not can_manage_server(ctx.interaction):
        raise NotAllowed("Only server managers can change this server's settings.")
    done = await ctx.service.privacy.forget_server(guild_id)
    for game in done.ended:  # its open games ended: nothing of theirs stays in memory
        ctx.hub.upkeep.forget(game)
    await ctx.interaction.edit_original_response(
        content=tr(FORGET_SERVER_DONE, games=done.rows.get("games", 0)), view=None)


async def on_keep(ctx: ClickContext) -> None:
    """The way out: nothing happens."""
    await ctx.interaction.edit_original_response(content=for_user(ctx.interaction)(KEPT),
                                                 view=None)


async def setup(bot: commands.Bot) -> None:
    """discord.py extension entry point."""
    hub_of(bot).add_table(PrivacyComponent.prefix, {"forget": on_forget, "keep": on_keep,
                                                    "server": on_forget_server})
    bot.add_dynamic_items(PrivacyComponent)
    await bot.add_cog(PrivacyCog(bot))
