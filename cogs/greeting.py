"""The greeting: when the bot joins a server it says hello once, in a channel where it may post,
in the server's language (docs/architecture.md, *What real servers do*). A join may reach the
bot more than once (two processes on one shard during a deploy, an event sent again): the one
process whose claim in storage records it greets, keyed by when the bot's membership began.
"""

from __future__ import annotations

import logging
from typing import Final

import discord
from discord.ext import commands

from bot.request_budget import Urgency
from ui.board import NO_PINGS, SEND_FAILURES, failure, missing
from ui.cards import PLAYING, layout, text
from ui.i18n import Tr, resolve, tr_for
from ui.items import bot_of

log = logging.getLogger(__name__)

GREETING_NEEDS: Final = ("view_channel", "send_messages")
"""The permissions a channel must give the bot for the greeting."""


def greeting_channel(guild: discord.Guild) -> discord.TextChannel | None:
    """Where the greeting goes: the server's system channel if the bot may post there, else
    the first text channel (in the server's order) where it may; None when there is none.
    """
    me = guild.me
    if me is None:
        return None

    def may_post(channel: discord.TextChannel) -> bool:
        return not missing(channel.permissions_for(me), GREETING_NEEDS)

    system = guild.system_channel
    if system is not None and may_post(system):
        return system
    return next((channel for channel in guild.text_channels if may_post(channel)), None)


def joined_ms(guild: discord.Guild) -> int:
    """When the bot's membership of ``guild`` began (epoch ms; 0 when Discord did not say):
    the same for every process that sees this join, later for a later one.
    """
    joined = guild.me.joined_at if guild.me is not None else None
    return 0 if joined is None else int(joined.timestamp() * 1000)


def greeting_card(tr: Tr) -> discord.ui.LayoutView:
    """The greeting, in ``tr``'s language."""
    return layout(PLAYING, text("\n\n".join([
        "### " + tr("Hello! I'm the Panda Royale bot 🐼"),
        tr("I run games of Panda Royale, the dice-drafting game (with its Mayhem "
           "expansion), and of Posing Pandas, its pose-dice side game, in this server's "
           "channels."),
        tr("**To play:** `/royale new` or `/posing new` opens a game in a channel; the "
           "others join with the lobby's buttons, and computer players can fill seats."),
        tr("**Help:** `/help` explains the games and every command."),
        tr("**Settings:** server managers choose the games' language, turn time, Mayhem "
           "options, threads and seasons with `/settings`."),
    ])))


class Greeting(commands.Cog):
    """Says hello once per join."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        """The bot was added to a server (maybe again)."""
        await self.greet(guild)

    async def greet(self, guild: discord.Guild) -> discord.Message | None:
        """Post the greeting of the bot's join of ``guild`` unless it was posted already or
        the bot may post nowhere there; the message posted, or None.
        """
        channel = greeting_channel(guild)
        if channel is None:
            log.info("server %s: no channel to greet in", guild.id)
            return None
        servers = bot_of(self.bot).servers
        if not await servers.claim_greeting(guild.id, joined_ms(guild)):
            return None
        stored = (await servers.defaults(guild.id)).language
        tr = tr_for(resolve(stored or guild.preferred_locale))
        try:
            async with bot_of(self.bot).budget.spend(Urgency.NOTIFY):
                return await channel.send(view=greeting_card(tr), allowed_mentions=NO_PINGS)
        except SEND_FAILURES as error:
            log.info("server %s: the greeting was not posted (%s)", guild.id, failure(error))
            return None


async def setup(bot: commands.Bot) -> None:
    """discord.py extension entry point."""
    await bot.add_cog(Greeting(bot))
