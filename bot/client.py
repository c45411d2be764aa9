"""The discord.py client: intents, the services, the Discord layer's parts, the extensions,
start-up and shutdown.

Each extension of :data:`FEATURES` then adds its commands and items.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, Final

import discord
from discord.backoff import ExponentialBackoff
from discord.ext import commands

from bot.health import start_heartbeat
from bot.metrics import BotMetrics
from bot.request_budget import RequestBudget, Urgency
from bot.rules.registry import GAME_KINDS
from bot.service import (
    GameService,
    Limits,
    People,
    PersonalData,
    Reviews,
    Seasons,
    ServerSettings,
    StatsService,
)
from bot.settings import Settings
from bot.shards import ShardPlan
from storage import Database, Storage, open_database
from storage.preflight import check_database
from ui.board import Boards
from ui.cards import Emojis
from ui.i18n import CatalogueTranslator, languages, tr_for
from ui.items import answer_unmatched
from ui.late import Lateness
from ui.tree import PandaTree, command_done

log = logging.getLogger("bot.client")

FEATURES: Final[tuple[str, ...]] = (*(f"cogs.{kind}" for kind in GAME_KINDS), "cogs.stats",
                                    "cogs.seasons", "cogs.help", "cogs.upkeep", "cogs.privacy",
                                    "cogs.settings", "cogs.greeting", "cogs.personal")
"""Extensions loaded at start-up: each adds its commands, its items and its listeners (each
game kind's is ``cogs/<kind>``)."""
UNKNOWN_MEMBER: Final = 10007
UNKNOWN_USER: Final = 10013


def discord_clock() -> int:
    """Now, in epoch milliseconds, from discord.py's clock (virtual under test)."""
    return int(discord.utils.utcnow().timestamp() * 1000)


def intents(members: bool = False) -> discord.Intents:
    """What the bot needs: guilds (channels, roles, the bot's permissions) and guild messages
    (to hear that a game's message was deleted); never message content. ``members``: the
    privileged members intent, to hear at once that a player left the server.
    """
    return discord.Intents(guilds=True, guild_messages=True, members=members)


class PandaBot(commands.Bot):
    """The bot. Everything stateful hangs off it: settings, the database, the services."""

    service: GameService
    stats: StatsService
    servers: ServerSettings
    seasons: Seasons
    reviews: Reviews
    privacy: PersonalData
    people: People
    boards: Boards
    metrics: BotMetrics | None = None

    def __init__(self, settings: Settings, *, sync_only: bool = False,
                 seed_source: Callable[[], int] | None = None, **options: Any) -> None:
        """A bot for ``settings``; ``sync_only`` opens no database (commands only)."""
        # No message cache: the bot reads no message content, and deletions arrive as raw
        # events; a cache would only hold other people's chat.
        super().__init__(command_prefix=commands.when_mentioned,
                         intents=intents(settings.members_intent), help_command=None,
                         max_messages=None, tree_cls=PandaTree, **options)
        self.settings = settings
        self.plan: ShardPlan = settings.shard_plan
        self.budget = RequestBudget.for_share(settings.global_rate_share)
        self.sync_only = sync_only
        self.seed_source = seed_source  # tests fix the games' seeds; None: random seeds
        self.lateness = Lateness()  # how late each interaction came, by Discord's clock
        self.dice_emojis = Emojis()  # synced once connected
        self.add_listener(answer_unmatched, "on_interaction")
        self.add_listener(command_done, "on_app_command_completion")
        self._emoji_sync: asyncio.Task[None] | None = None

    async def load_features(self) -> None:
        """Add every extension (their slash commands and components)."""
        for name in FEATURES:
            await self.load_extension(name)

    async def setup_hook(self) -> None:
        """Open the database, start the services, load the extensions, restore timers."""
        for lang in languages():  # read every catalogue now, not on a player's first click
            tr_for(lang)
        await self.tree.set_translator(CatalogueTranslator())
        if self.sync_only:
            self._start_services(await Database.open(":memory:"))
            return  # the caller loads the extensions it needs
        if self.settings.database_url is None:  # SQLite: a clear refusal of a bad file
            await check_database(self.settings.database_path)
        self._start_services(await open_database(self.settings.database_target))
        if self.settings.metrics_port is not None:
            self.start_metrics(self.settings.metrics_port)
        await self.load_features()
        restored = await self.service.restore()
        start_heartbeat(self.settings.health_file, self, beat=self.service.heard)
        log.info("Cluster %s: %d open game(s) restored; their %d deadline(s) wait for the "
                 "gateway", self.plan.label, len(restored), self.service.pending_timers)
        # Commands are synced once by `./dev sync`; the dev guild's quick sync at start-up is
        # done by one cluster only (the one holding shard 0), never once per cluster.
        if self.settings.dev_guild_id and self.plan.holds_shard_zero:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
            log.info("Synced commands to the dev guild %s", self.settings.dev_guild_id)

    def _start_services(self, db: Storage) -> None:
        """The services over ``db``, and the boards that show their games."""
        self.seasons = Seasons(db, discord_clock, owns=self.plan.owns)
        self.service = GameService(db, clock=discord_clock,
                                   default_timeout=self.settings.default_turn_timeout,
                                   limits=Limits(per_server=self.settings.guild_open_games,
                                                 lobby_ttl_s=self.settings.lobby_ttl),
                                   plan=self.plan, is_member=self.is_member,
                                   season_of=self.seasons.at,
                                   **({} if self.seed_source is None
                                      else {"seed_source": self.seed_source}))
        self.stats = StatsService(db, clock=discord_clock)
        self.servers = ServerSettings(db, discord_clock)
        self.reviews = Reviews(db)
        self.people = People(db, discord_clock)
        self.privacy = PersonalData(db, self.service,
                                    retention_days=self.settings.guild_retention_days)
        self.boards = Boards(self, self.service, self.budget)

    async def login(self, token: str) -> None:
        """discord.py's login, tried again with backoff while Discord answers with a server
        error (5xx: an outage on its side); any other refusal is raised at once.
        """
        backoff: ExponentialBackoff[bool] = ExponentialBackoff()
        while True:
            try:
                await super().login(token)
                return
            except discord.DiscordServerError as exc:
                delay = backoff.delay()
                log.warning("Discord answered %s at login: trying again in %.1f s",
                            exc.status, delay)
                await asyncio.sleep(delay)

    async def connect(self, *, reconnect: bool = True) -> None:
        """discord.py's gateway loop, started again with backoff when the very first connection
        fails before a gateway socket exists: discord.py 2.7's plain client then reads the
        missing socket's sequence and would end the process with an AttributeError.
        """
        backoff: ExponentialBackoff[bool] = ExponentialBackoff()
        while True:
            try:
                await super().connect(reconnect=reconnect)
                return
            except AttributeError:
                if self.ws is not None or self.is_closed() or not reconnect \
                        or isinstance(self, discord.AutoShardedClient):
                    raise
            delay = backoff.delay()
            log.warning("The gateway refused the first connection: trying again in %.1f s",
                        delay)
            await asyncio.sleep(delay)

    async def on_ready(self) -> None:
        """Connected: the dice emojis are made those of the drawings (in the background,
        created only where missing or changed).
        """
        if not len(self.dice_emojis) and self._emoji_sync is None:
            self._emoji_sync = asyncio.create_task(self.dice_emojis.sync(self, self.budget),
                                                   name="emojis")

    async def is_member(self, guild_id: int, user_id: int) -> bool:
        """Whether the user is still in the server (one request at most; a deleted account is
        not). Any other failure counts as present.
        """
        guild = self.get_guild(guild_id)
        if guild is None:
            return True
        if guild.get_member(user_id) is not None and self.intents.members:
            return True  # the cache is kept current by the members intent: no request
        try:
            async with self.budget.spend(Urgency.EDIT):
                await guild.fetch_member(user_id)
        except discord.NotFound as exc:
            return exc.code not in (UNKNOWN_MEMBER, UNKNOWN_USER)
        except discord.HTTPException:
            return True
        return True

    def start_metrics(self, port: int) -> BotMetrics:
        """Serve this cluster's Prometheus metrics on ``port`` (0: any free port)."""
        self.metrics = BotMetrics(self.plan)
        self.metrics.serve(port)
        self.metrics.start_refreshing(self.service.db)
        return self.metrics

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        """discord.py's dispatch; an interaction is counted (and timed) as it arrives."""
        if event_name == "interaction" and self.metrics is not None:
            self.metrics.received(args[0])
        super().dispatch(event_name, *args, **kwargs)

    async def close(self) -> None:
        """Stop the turn timers and metrics, close the database, then disconnect."""
        if self.metrics is not None:
            await self.metrics.close()
        if self._emoji_sync is not None:
            self._emoji_sync.cancel()
        if getattr(self, "boards", None) is not None:
            await self.boards.settle()
        service = getattr(self, "service", None)
        if service is not None:
            await service.close()
            await service.db.close()
        await super().close()


class ShardedPandaBot(PandaBot, commands.AutoShardedBot):
    """The bot on the shards of ``SHARD_COUNT`` / ``SHARD_IDS`` (discord.py's AutoShardedBot)."""


def create_bot(settings: Settings, **kwargs: Any) -> PandaBot:
    """The bot ``settings`` ask for: :class:`ShardedPandaBot` on this cluster's shards when
    ``SHARD_COUNT`` is set, else the plain :class:`PandaBot` (one connection, every guild).
    """
    plan = settings.shard_plan
    if not plan.sharded:
        return PandaBot(settings, **kwargs)
    return ShardedPandaBot(settings, shard_count=plan.count, shard_ids=plan.shard_ids, **kwargs)
