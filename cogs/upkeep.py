"""What real servers do to games, and how the bot answers it: one listener per Discord event
(deleted boards, channels, servers and members, lost permissions, outages, a shard's READY).
docs/architecture.md, *What real servers do* and *Deploys and restarts*, tells what each does.
"""

from __future__ import annotations

import logging
from collections.abc import Collection

import discord
from discord.ext import commands, tasks

from bot.service import Game, GameStatus
from ui.items import GameBot, bot_of, person

log = logging.getLogger("cogs.upkeep")

PURGE_EVERY_HOURS = 6
"""How often the data of servers that removed the bot is checked against its retention."""


class Upkeep(commands.Cog):
    """Listens to the events that change a game's world, and answers them."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self._restored: set[int] = set()  # shards whose games were shown again once ready

    @property
    def game_bot(self) -> GameBot:
        return bot_of(self.bot)

    async def cog_load(self) -> None:
        """Start the retention purge (also once now) and the rest of idle slow boards."""
        self.purge.start()
        self.rest_boards.start()

    async def cog_unload(self) -> None:
        self.purge.cancel()
        self.rest_boards.cancel()

    @tasks.loop(minutes=30)
    async def rest_boards(self) -> None:
        """Forget the boards of slow games nobody touched lately (:meth:`Boards.rest_idle`)."""
        self.game_bot.boards.rest_idle()

    @tasks.loop(hours=PURGE_EVERY_HOURS)  # first once the bot is connected
    async def purge(self) -> None:
        """Delete the data of servers that removed the bot longer ago than the retention."""
        try:
            for guild_id, rows in (await self.game_bot.privacy.purge()).items():
                log.info("server %s's data deleted after the retention period: %s", guild_id,
                         rows)
        except Exception:  # the next round tries again
            log.exception("the retention purge failed")

    @purge.before_loop
    async def _connected(self) -> None:
        await self.bot.wait_until_ready()

    # -- messages ----------------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        """A message was posted: when Discord made it says how this machine's clock runs
        against Discord's (:mod:`ui.late`).
        """
        self.game_bot.lateness.learn(message.id)

    @commands.Cog.listener()
    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        """A message was deleted (a moderator, a purge): a game's board comes back."""
        await self.game_bot.boards.deleted(payload.channel_id, [payload.message_id])

    @commands.Cog.listener()
    async def on_raw_bulk_message_delete(self, payload: discord.RawBulkMessageDeleteEvent
                                         ) -> None:
        await self.game_bot.boards.deleted(payload.channel_id, sorted(payload.message_ids))

    # -- channels and servers ----------------------------------------------------------------

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.channel_deleted(channel.id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.channel_deleted(payload.thread_id)

    async def channel_deleted(self, channel_id: int) -> list[Game]:
        """The channel was deleted: its open games end as abandoned, silently."""
        games = await self.game_bot.service.abandon_channel(channel_id, "channel deleted")
        for game in games:
            self.game_bot.boards.forget(game.id)
        return games

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot was removed from a server: its games end as abandoned."""
        for game in await self.game_bot.privacy.departed(guild.id):
            self.game_bot.boards.forget(game.id)

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        await self.guild_joined(guild.id)

    async def guild_joined(self, guild_id: int) -> None:
        """If the bot had been removed from the server, its data stays."""
        if await self.game_bot.privacy.returned(guild_id):
            log.info("back in server %s: its data is kept", guild_id)

    @commands.Cog.listener()
    async def on_guild_channel_update(self, before: discord.abc.GuildChannel,
                                      after: discord.abc.GuildChannel) -> None:
        """A channel's permissions may have changed: paused games may go on."""
        await self.game_bot.boards.permissions_changed(after.guild.id)

    @commands.Cog.listener()
    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        await self.game_bot.boards.permissions_changed(after.guild.id)

    @commands.Cog.listener()
    async def on_member_update(self, before: discord.Member, after: discord.Member) -> None:
        """The bot's own roles may have changed."""
        if after.id == getattr(self.bot.user, "id", None):
            await self.game_bot.boards.permissions_changed(after.guild.id)

    @commands.Cog.listener()
    async def on_raw_member_remove(self, payload: discord.RawMemberRemoveEvent) -> None:
        """A member left (members intent): the computer takes their seats in open games."""
        service = self.game_bot.service
        for game in await service.open_games_of_guild(payload.guild_id):
            who = person(payload.user)
            if game.status != GameStatus.ACTIVE or who.player_id not in game.player_ids:
                continue
            outcome = await service.player_left(game.id, who)
            if outcome is not None:
                await self.game_bot.boards.presenter(game.kind).show(outcome)

    # -- the gateway -------------------------------------------------------------------------

    @property
    def sharded(self) -> bool:
        """Whether the bot runs shards (their own events then say which one dropped)."""
        return isinstance(self.bot, discord.AutoShardedClient)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Connected with a new session (a bot without shards: its one shard is ready; with
        shards, every shard already said so by ``on_shard_ready``). A server that added the
        bot back while it was away keeps its data.
        """
        if not self.sharded:
            await self.ready(0, [g.id for g in self.bot.guilds])
        here = {g.id for g in self.bot.guilds}
        for departure in await self.game_bot.privacy.departures():
            if departure.guild_id in here:
                await self.guild_joined(departure.guild_id)

    @commands.Cog.listener()
    async def on_shard_ready(self, shard_id: int) -> None:
        """A shard logged in with a new session (discord.py sends ``on_ready`` only when every
        shard logs in together): its servers are those of its READY.
        """
        await self.ready(shard_id, [g.id for g in self.bot.guilds if g.shard_id == shard_id])

    @commands.Cog.listener()
    async def on_disconnect(self) -> None:
        if not self.sharded:
            self.disconnected(0)

    @commands.Cog.listener()
    async def on_shard_disconnect(self, shard_id: int) -> None:
        self.disconnected(shard_id)

    @commands.Cog.listener()
    async def on_resumed(self) -> None:
        if not self.sharded:
            await self.reconnected(0)

    @commands.Cog.listener()
    async def on_shard_resumed(self, shard_id: int) -> None:
        await self.reconnected(shard_id)

    def disconnected(self, shard: int) -> None:
        """A shard's gateway dropped (without shards: shard 0): no click of its servers can
        reach the bot, so their deadlines are held until it is back.
        """
        self.game_bot.lateness.dropped(shard)
        self.game_bot.service.hold_deadlines(shard)

    async def reconnected(self, shard: int) -> None:
        """A shard's session resumed: its deadlines go on, moved by the time lost."""
        self.game_bot.lateness.resumed(shard)
        await self.game_bot.service.release_deadlines(shard)

    async def ready(self, shard: int, guild_ids: Collection[int]) -> None:
        """A shard is connected (Discord's READY, listing ``guild_ids``, available or not): the
        steps of docs/architecture.md, *Deploys and restarts*, in order.
        """
        service, boards = self.game_bot.service, self.game_bot.boards
        self.game_bot.lateness.resumed(shard)
        gone: list[Game] = []
        for guild_id in await service.servers_gone(shard, guild_ids):
            log.info("server %s removed the bot while it was away", guild_id)
            gone.extend(await self.game_bot.privacy.departed(
                guild_id, "bot removed from the server while it was away"))
        for game in gone:
            boards.forget(game.id)
        first = shard not in self._restored
        self._restored.add(shard)
        standing: dict[int, int] = {}
        if first:
            standing = await boards.restore(await service.pings_of_shard(shard),
                                            {g.guild_id for g in gone})
        await service.release_deadlines(shard)
        if not first:
            return
        await service.resume_shard(shard)
        for game in await service.open_games_of_shard(shard):
            if game.id in standing and game.status == GameStatus.ACTIVE and game.paused is None \
                    and standing[game.id] != game.version \
                    and await boards.standing_version(game.id) != game.version:
                await self._show_again(game)

    async def _show_again(self, game: Game) -> None:
        """Redraw the board of a game that moved on after its last ping, and ping again."""
        boards = self.game_bot.boards
        presenter = boards.presenter(game.kind)
        try:
            await boards.edit(game, await presenter.board(game))
            await presenter.prompt_current(game)
        except Exception:
            log.exception("game %s: could not be shown again after the restart", game.id)


async def setup(bot: commands.Bot) -> None:
    """discord.py extension entry point."""
    await bot.add_cog(Upkeep(bot))
