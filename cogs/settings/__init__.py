"""``/settings``: a server's own settings, for its admins: the default language of its games,
threads, the default turn time and Mayhem options of new games, seasons.
"""

from __future__ import annotations

from typing import Any, Final

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.app_commands import locale_str as loc
from discord.ext import commands

from bot.errors import UserError
from bot.service import OFF, SeasonWindow, ServerSeason
from cogs.privacy import ask_forget_server
from ui.board import missing
from ui.i18n import Tr, for_user, languages
from ui.items import bot_of, place_of
from ui.lobby import expansion_names
from ui.options import can_manage_server
from ui.seasons import LENGTH_WORDS, season_name
from ui.settings import LANGUAGE_CHOICES, language_name, server_language

LENGTHS: Final = [Choice(name=loc("monthly"), value="monthly"),
                  Choice(name=loc("quarterly"), value="quarterly"),
                  Choice(name=loc("off"), value=OFF)]
RATINGS: Final = [Choice(name=loc("carry on"), value="carry-on"),
                  Choice(name=loc("reset"), value="reset")]
PODIUM_NEEDS: Final = ("view_channel", "send_messages")
"""The permissions the podium's channel needs."""


def turn_time_answer(tr: Tr, seconds: int | None, bot_default: int) -> str:
    """The turn time of the server's new games (``seconds``: the server's default, None when it
    has none and the bot's default applies), in ``tr``'s language.
    """
    if seconds is None:
        return tr("New games here give each decision {seconds} seconds (the bot's default) "
                  "unless their host sets `turn_timeout`.", seconds=bot_default)
    return tr("New games here give each decision {seconds} seconds unless their host sets "
              "`turn_timeout`.", seconds=seconds)


def mayhem_answer(tr: Tr, options: tuple[str, ...] | None) -> str:
    """The Mayhem options of the server's new Panda Royale games (None or empty: none), and
    how a host chooses others, in ``tr``'s language.
    """
    now = tr("New Panda Royale games here play with Mayhem: {options}.",
             options=expansion_names(tr, options)) if options \
        else tr("New Panda Royale games here play without Mayhem.")
    return "\n".join([now, tr("A host who gives any Mayhem option to /royale new chooses them "
                              "all: the options they leave out are off.")])


def season_answer(tr: Tr, setting: ServerSeason, season: SeasonWindow | None) -> str:
    """What the server's seasons are now, in ``tr``'s language."""
    if setting.length is None or season is None:
        return tr("This server runs no seasons. A server manager can start them with "
                  "/settings season (monthly or quarterly): at each season's end the bot "
                  "posts its podium.")
    lines = [tr("Seasons here are {length}: this one is {season} and ends <t:{end}:R>.",
                length=tr(LENGTH_WORDS[setting.length]), season=season_name(tr, season),
                end=season.end_ms // 1000)]
    if setting.channel_id is not None:
        lines.append(tr("At its end the podium is posted in <#{channel}>.",
                        channel=setting.channel_id))
    else:
        lines.append(tr("No channel is set for the podium: choose one with /settings season."))
    lines.append(tr("Ratings start again at each season's end.") if setting.reset
                 else tr("Ratings carry on from one season to the next."))
    return "\n".join(lines)


def channel_warning(tr: Tr, interaction: discord.Interaction[Any],
                    setting: ServerSeason) -> str:
    """A line saying what the bot lacks in the podium's channel (empty when nothing)."""
    guild = interaction.guild
    if setting.length is None or setting.channel_id is None or guild is None \
            or guild.me is None:
        return ""
    channel = guild.get_channel(setting.channel_id)
    if channel is None:
        return ""
    lacking = missing(channel.permissions_for(guild.me), PODIUM_NEEDS)
    if not lacking:
        return ""
    return tr("⚠️ I can't post the podium in <#{channel}> yet: grant me {permissions} there.",
              channel=setting.channel_id, permissions=", ".join(lacking))


@app_commands.guild_install()
@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class SettingsCommands(commands.GroupCog, group_name=loc("settings"),
                  group_description=loc("This server's settings (server managers)")):
    """``/settings``: the server's own settings, for its managers."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name=loc("language"),
                          description=loc("The language of this server's games (its default)"))
    @app_commands.describe(language=loc("The language new games speak here"))
    @app_commands.rename(language=loc("language"))
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def language(self, interaction: discord.Interaction[Any],
                       language: str | None = None) -> None:
        """Set the server's default language, or say which it is."""
        tr = for_user(interaction)
        game_bot = bot_of(self.bot)
        if language is None:
            now = await server_language(interaction)
            await interaction.response.send_message(
                tr("This server's games speak {language}.", language=language_name(now)),
                ephemeral=True)
            return
        await game_bot.servers.set_language(place_of(interaction).guild_id, language,
                                          manager=can_manage_server(interaction),
                                          known=frozenset(languages()))
        await interaction.response.send_message(
            tr("New games in this server will speak {language}.",
               language=language_name(language)), ephemeral=True)

    @app_commands.command(name=loc("threads"),
                          description=loc("Whether new games here play in a thread (on or off)"))
    @app_commands.describe(on=loc("On: each game opens a thread of its lobby's channel"))
    @app_commands.rename(on=loc("on"))
    async def threads(self, interaction: discord.Interaction[Any],
                      on: bool | None = None) -> None:
        """Set whether the server's new games play in a thread, or say which it is."""
        tr = for_user(interaction)
        game_bot = bot_of(self.bot)
        guild_id = place_of(interaction).guild_id
        if on is None:
            now = await game_bot.servers.threads(guild_id)
            await interaction.response.send_message(
                tr("New games here play in a thread.") if now
                else tr("New games here play in their channel."), ephemeral=True)
            return
        await game_bot.servers.set_threads(guild_id, on, manager=can_manage_server(interaction))
        await interaction.response.send_message(
            tr("From now on, new games here play in a thread of their channel.") if on
            else tr("From now on, new games here play in their channel."), ephemeral=True)

    @app_commands.command(name=loc("turn-time"),
                          description=loc("The turn time of new games here when their host "
                                          "gives none"))
    @app_commands.describe(seconds=loc("Seconds a player has for a decision"),
                           clear=loc("Back to the bot's default"))
    @app_commands.rename(seconds=loc("seconds"), clear=loc("clear"))
    async def turn_time(self, interaction: discord.Interaction[Any],
                        seconds: app_commands.Range[int, 15, 3600] | None = None,
                        clear: bool = False) -> None:
        """Set or clear the server's default turn time, or say which it is."""
        tr = for_user(interaction)
        game_bot = bot_of(self.bot)
        guild_id = place_of(interaction).guild_id
        if clear and seconds is not None:
            raise UserError("Give seconds or clear, not both.")
        if clear or seconds is not None:
            await game_bot.servers.set_turn_timeout(guild_id, seconds,
                                                       manager=can_manage_server(interaction))
            now = seconds
        else:
            now = (await game_bot.servers.defaults(guild_id)).turn_timeout
        await interaction.response.send_message(
            turn_time_answer(tr, now, game_bot.settings.default_turn_timeout), ephemeral=True)

    @app_commands.command(name=loc("mayhem"),
                          description=loc("The Mayhem options of new Panda Royale games here "
                                          "when their host chooses none"))
    @app_commands.describe(
        mischief=loc("Mayhem: Mischief pandas (clear d12s that force re-rolls)"),
        cannon=loc("Mayhem: Cannon pandas (pink d8s worth x10, once)"),
        mercenary=loc("Mayhem: Mercenary pandas (green d6s worth x round, may desert)"),
        clear=loc("No default: games without Mayhem unless their host chooses some"),
    )
    @app_commands.rename(mischief=loc("mischief"), cannon=loc("cannon"),
                         mercenary=loc("mercenary"), clear=loc("clear"))
    async def mayhem(self, interaction: discord.Interaction[Any], mischief: bool | None = None,
                     cannon: bool | None = None, mercenary: bool | None = None,
                     clear: bool = False) -> None:
        """Change or clear the server's default Mayhem options (the options not given stay
        as they were), or say which they are.
        """
        tr = for_user(interaction)
        servers = bot_of(self.bot).servers
        guild_id = place_of(interaction).guild_id
        chosen = {name: on for name, on in (("mischief", mischief), ("cannon", cannon),
                                            ("mercenary", mercenary)) if on is not None}
        if clear and chosen:
            raise UserError("Choose Mayhem options or clear, not both.")
        if clear or chosen:
            now = await servers.set_mayhem(guild_id, None if clear else chosen,
                                           manager=can_manage_server(interaction))
        else:
            now = (await servers.defaults(guild_id)).mayhem
        await interaction.response.send_message(mayhem_answer(tr, now), ephemeral=True)

    @app_commands.command(name=loc("season"),
                          description=loc("Seasons: a podium at each season's end (monthly, "
                                          "quarterly or off)"))
    @app_commands.describe(length=loc("How long a season lasts (off: no seasons)"),
                           channel=loc("Where the podium is posted when a season ends"),
                           ratings=loc("At a season's end, ratings carry on or start again"))
    @app_commands.rename(length=loc("length"), channel=loc("channel"), ratings=loc("ratings"))
    @app_commands.choices(length=LENGTHS, ratings=RATINGS)
    async def season(self, interaction: discord.Interaction[Any], length: str | None = None,
                     channel: discord.TextChannel | None = None,
                     ratings: str | None = None) -> None:
        """Set the server's seasons, or say what they are."""
        tr = for_user(interaction)
        game_bot = bot_of(self.bot)
        place = place_of(interaction)
        if length is None and channel is None and ratings is None:
            now = await game_bot.servers.season(place.guild_id)
        else:
            now = await game_bot.servers.set_season(
                place.guild_id, manager=can_manage_server(interaction), length=length,
                channel_id=None if channel is None else channel.id,
                reset=None if ratings is None else ratings == "reset",
                here=place.channel_id)
        answer = season_answer(tr, now, await game_bot.seasons.at(place.guild_id,
                                                                 game_bot.service.clock()))
        warning = channel_warning(tr, interaction, now)
        await interaction.response.send_message(
            f"{answer}\n{warning}" if warning else answer, ephemeral=True)

    @app_commands.command(name=loc("forget-server"),
                          description=loc("Delete all of this server's data now (asks first)"))
    async def forget_server(self, interaction: discord.Interaction[Any]) -> None:
        """The question, with its confirmation button (server managers)."""
        await ask_forget_server(interaction)


async def setup(bot: commands.Bot) -> None:
    """discord.py extension entry point."""
    await bot.add_cog(SettingsCommands(bot))
