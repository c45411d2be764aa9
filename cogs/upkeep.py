"""The events real servers send about games: deleted messages and channels, the bot removed,
members leaving, permissions changing, the gateway dropping. Each is handed to
:class:`ui.upkeep.Upkeep`, which knows what to do.
"""

from __future__ import annotations

import logging

import discord
from discord.ext import commands, tasks

from ui.hub import hub_of
from ui.upkeep import Upkeep

log = logging.getLogger(__name__)

PURGE_EVERY_HOURS = 6
"""How often the data of servers that removed the bot is checked against its retention."""


class UpkeepCog(commands.Cog):
    """Listens to the events that change a game's world."""

    def __init__(self, bot: commands.Bot) -> None:
        """Serve ``bot``."""
        self.bot = bot

    async def cog_load(self) -> None:
        """Start the retention purge (also once now)."""
        self.purge.start()

    async def cog_unload(self) -> None:
        """Stop the retention purge."""
        self.purge.cancel()

    @tasks.loop(hours=PURGE_EVERY_HOURS)  # first once the bot is connected
    async def purge(self) -> None:
        """Delete the data of servers that removed the bot longer ago than the retention."""
        try:
            await self.upkeep.purge()
        except Exception:  # the next round tries again
            log.exception("the retention purge failed")

    @purge.before_loop
    async def _connected(self) -> None:
        await self.bot.wait_until_ready()

    @property
    def upkeep(self) -> Upkeep:
        """What answers the events."""
        return hub_of(self.bot).upkeep

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        """A message was posted: when Discord made it says how this machine's clock runs
        against Discord's (:mod:`ui.late`).
        """
        hub_of(self.bot).lateness.learn(message.id)

    @commands.Cog.listener()
    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        """A message was deleted (a moderator, a purge): a game's board comes back."""
        await self.upkeep.messages_deleted(payload.channel_id, [payload.message_id])

    @commands.Cog.listener()
    async def on_raw_bulk_message_delete(self, payload: discord.RawBulkMessageDeleteEvent
                                         ) -> None:
        """Many messages were deleted at once."""
        await self.upkeep.messages_deleted(payload.channel_id, sorted(payload.message_ids))

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A channel was deleted: its games end as abandoned."""
        await self.upkeep.channel_deleted(channel.id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A thread was deleted: its games end as abandoned."""
        await self.upkeep.channel_deleted(payload.thread_id)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot was removed from a server: its games end as abandoned."""
        await self.upkeep.guild_removed(guild.id)

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        """The bot was added to a server (maybe again): its data stays."""
        await self.upkeep.guild_joined(guild.id)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Connected with a new session (a bot without shards: its one shard is ready; with
        shards, every shard already said so by ``on_shard_ready``). A server that added the
        bot back while it was away keeps its data.
        """
        if not self.sharded:
            await self.upkeep.ready(0, [g.id for g in self.bot.guilds])
        await self.upkeep.still_in({g.id for g in self.bot.guilds})

    @commands.Cog.listener()
    async def on_guild_channel_update(self, before: discord.abc.GuildChannel,
                                      after: discord.abc.GuildChannel) -> None:
        """A channel's permissions may have changed: paused games may go on."""
        await self.upkeep.permissions_changed(after.guild.id)

    @commands.Cog.listener()
    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        """A role's permissions may have changed."""
        await self.upkeep.permissions_changed(after.guild.id)

    @commands.Cog.listener()
    async def on_member_update(self, before: discord.Member, after: discord.Member) -> None:
        """The bot's own roles may have changed."""
        if after.id == getattr(self.bot.user, "id", None):
            await self.upkeep.permissions_changed(after.guild.id)

    @commands.Cog.listener()
    async def on_raw_member_remove(self, payload: discord.RawMemberRemoveEvent) -> None:
        """A member left (with the members intent): the computer takes their seats."""
        await self.upkeep.member_left(payload.guild_id, payload.user.id)

    @property
    def sharded(self) -> bool:
        """Whether the bot runs shards (their own events then say which one dropped)."""
        return isinstance(self.bot, discord.AutoShardedClient)

    @commands.Cog.listener()
    async def on_disconnect(self) -> None:
        """The gateway dropped: no deadline runs out until it is back."""
        if not self.sharded:
            self.upkeep.disconnected(0)

    @commands.Cog.listener()
    async def on_shard_disconnect(self, shard_id: int) -> None:
        """One shard dropped (clusters): the deadlines hold until it is back."""
        self.upkeep.disconnected(shard_id)

    @commands.Cog.listener()
    async def on_resumed(self) -> None:
        """The gateway session resumed: deadlines go on."""
        if not self.sharded:
            await self.upkeep.reconnected(0)

    @commands.Cog.listener()
    async def on_shard_resumed(self, shard_id: int) -> None:
        """A shard's session resumed."""
        await self.upkeep.reconnected(shard_id)

    @commands.Cog.listener()
    async def on_shard_ready(self, shard_id: int) -> None:
        """A shard logged in with a new session (discord.py sends ``on_ready`` only when every
        shard logs in together): its servers are those of its READY.
        """
        await self.upkeep.ready(shard_id, [g.id for g in self.bot.guilds
                                           if g.shard_id == shard_id])


async def setup(bot: commands.Bot) -> None:
    """discord.py extension entry point."""
    await bot.add_cog(UpkeepCog(bot))
