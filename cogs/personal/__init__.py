"""Commands for oneself, in any server or in a direct message with the bot: ``/reminders``
(how slow games remind you: your time zone, quiet hours, direct messages) and ``/mygames``
(every game in every server that waits for you, and the others you are in).
"""

from __future__ import annotations

import functools
import zoneinfo
from typing import Any, Final

import discord
from discord import app_commands
from discord.app_commands import locale_str as loc
from discord.ext import commands

from bot.rules.registry import kind_of
from bot.service import Game, ReminderPrefs
from ui.board import jump_link
from ui.i18n import Tr, for_user
from ui.items import bot_of, person

MOST_LISTED: Final = 15
"""Games listed per part of ``/mygames`` (the rest are counted)."""


@functools.cache
def time_zones() -> tuple[str, ...]:
    """Every IANA time zone name this machine knows, sorted."""
    return tuple(sorted(zoneinfo.available_timezones()))


def reminders_text(tr: Tr, prefs: ReminderPrefs | None) -> str:
    """What ``/reminders`` says: how the person is reminded now, and what a reminder is."""
    if prefs is None:
        now = tr("You set nothing yet: reminders mention you in the game's channel, at any hour.")
    else:
        window = f"{prefs.quiet_start}-{prefs.quiet_end}"
        quiet = (tr("no quiet hours") if prefs.quiet_start is None
                 else tr("quiet hours {hours}", hours=window))
        by = tr("by direct message") if prefs.by_dm else tr("in the game's channel")
        now = tr("Time zone {zone} · {quiet} · reminders {by}.", zone=prefs.zone, quiet=quiet,
                 by=by)
    return "\n".join([
        "## " + tr("Your reminders"), now, "",
        tr("A slow game reminds you once before each deadline. Nobody is reminded or timed out "
           "in their quiet hours: a deadline that would fall in them moves past them."),
        tr("Change them with /reminders zone: quiet: dm: (quiet: off removes your quiet "
           "hours)."),
    ])


class Personal(commands.Cog):
    """``/reminders`` and ``/mygames``: usable in servers and in direct messages."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name=loc("reminders"),
                          description=loc("How slow games remind you: your time zone, quiet "
                                          "hours, direct messages"))
    @app_commands.describe(
        zone=loc("Your time zone, like Europe/Berlin or America/New_York"),
        quiet=loc("Your quiet hours, like 22:00-07:00 (at most 12 hours), or off"),
        dm=loc("Remind me by direct message instead of in the game's channel"))
    @app_commands.rename(zone=loc("zone"), quiet=loc("quiet"), dm=loc("dm"))
    @app_commands.guild_install()
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
    async def reminders(self, interaction: discord.Interaction[Any], zone: str | None = None,
                        quiet: str | None = None, dm: bool | None = None) -> None:
        people = bot_of(self.bot).people
        who = person(interaction.user)
        if zone is None and quiet is None and dm is None:
            prefs = await people.reminders(who)
        else:
            prefs = await people.set_reminders(who, zone=zone, quiet=quiet, by_dm=dm)
        await interaction.response.send_message(
            reminders_text(for_user(interaction), prefs), ephemeral=True)

    @reminders.autocomplete("zone")
    async def zone_names(self, interaction: discord.Interaction[Any], current: str
                         ) -> list[app_commands.Choice[str]]:
        wanted = current.strip().lower().replace(" ", "_")
        return [app_commands.Choice(name=name, value=name) for name in time_zones()
                if wanted in name.lower()][:25]

    @app_commands.command(name=loc("mygames"),
                          description=loc("Every game waiting for you, in every server"))
    @app_commands.guild_install()
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
    async def mygames(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        bot = bot_of(self.bot)
        tr = for_user(interaction)
        mine = await bot.service.games_of(person(interaction.user))
        waiting = [game for game, waits in mine if waits]
        others = [game for game, waits in mine if not waits]
        if not mine:
            words = tr("No game waits for you, and you're in no open game: start one with "
                       "/royale new or /posing new.")
        else:
            lines = ["## " + tr("Your games")]
            lines.append("**" + tr("Waiting for you") + "**" if waiting
                         else tr("No game waits for you."))
            lines += [self._line(tr, game, waits=True) for game in waiting[:MOST_LISTED]]
            if others:
                lines += ["", "**" + tr("Your other games") + "**"]
                lines += [self._line(tr, game, waits=False) for game in others[:MOST_LISTED]]
            hidden = max(0, len(waiting) - MOST_LISTED) + max(0, len(others) - MOST_LISTED)
            if hidden:
                lines.append(tr.ngettext("…and {n} more game.", "…and {n} more games.", hidden))
            words = "\n".join(lines)
        await interaction.followup.send(words[:2000], ephemeral=True,
                                        allowed_mentions=discord.AllowedMentions.none())

    def _line(self, tr: Tr, game: Game, *, waits: bool) -> str:
        """One game of ``/mygames``: its title and place, linked to its board, and what it
        asks of the person (or where it stands).
        """
        bot = bot_of(self.bot)
        guild = self.bot.get_guild(game.guild_id)
        where = f"{tr(kind_of(game.kind).title)}" + (f" · {guild.name}" if guild else "")
        link = jump_link(game, game.message_id)
        head = f"- [{where}]({link})" if link else f"- {where}"
        since = f"<t:{game.updated_ms // 1000}:R>"
        if waits:
            ask = bot.boards.presenter(game.kind).your_turn(tr, bot.service.state_of(game))
            return f"{head} · {ask} · " + tr("waiting since {when}", when=since)
        if game.paused is not None:
            return f"{head} · " + tr("paused")
        if game.state is None:
            return f"{head} · " + tr("in the lobby")
        return f"{head} · " + tr("not your turn · last move {when}", when=since)


async def setup(bot: commands.Bot) -> None:
    """discord.py extension entry point."""
    await bot.add_cog(Personal(bot))
