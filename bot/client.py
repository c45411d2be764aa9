"""The discord.py client: intents, cogs, dynamic components, start-up and shutdown."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserError
from bot.rules.errors import RulesError
from bot.service import GameService, Outcome
from bot.settings import Settings
from cogs.common.components import DYNAMIC_ITEMS, Handler
from cogs.common.messages import Shown
from cogs.common.replies import MISSING_PERMISSIONS, answer_error
from storage import Database, GameRow, open_database

log = logging.getLogger("bot.client")

# Extensions loaded at start-up (each one a cog package under cogs/).
FEATURES: tuple[str, ...] = ("cogs.royale", "cogs.posing", "cogs.stats", "cogs.help")
SORRY = "Something went wrong on my side. Nothing was lost: try again in a moment."
DISCORD_HICCUP = ("Discord didn't accept my reply. Nothing is lost: /royale status (or "
                  "/posing status) shows the game as it is now.")


class Presenter(Protocol):
    """How a game kind shows itself in a channel (see cogs/<game>/present.py)."""

    async def show(self, outcome: Outcome, interaction: discord.Interaction[Any] | None = None,
                   note: str = "") -> None: ...

    async def current(self, game: GameRow) -> Shown: ...


def discord_clock() -> int:
    """Now, in epoch milliseconds, from discord.py's clock (virtual under test)."""
    return int(discord.utils.utcnow().timestamp() * 1000)


def intents() -> discord.Intents:
    """Only what slash commands and components need: guilds. No message content."""
    return discord.Intents(guilds=True)


class PandaBot(commands.Bot):
    """The bot. Everything stateful hangs off it: settings, the database, the game service."""

    service: GameService

    def __init__(self, settings: Settings, *, sync_only: bool = False,
                 seed_source: Callable[[], int] | None = None) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=intents(),
                         help_command=None)
        self.settings = settings
        self.sync_only = sync_only
        self.seed_source = seed_source  # tests fix the games' seeds; None: random seeds
        self.handlers: dict[str, Handler] = {}
        self.presenters: dict[str, Presenter] = {}
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]

    def presenter(self, kind: str) -> Presenter:
        return self.presenters[kind]

    async def load_features(self) -> None:
        """Add every cog (their slash commands and dynamic components)."""
        for name in FEATURES:
            await self.load_extension(name)

    async def setup_hook(self) -> None:
        if self.sync_only:
            self.service = GameService(await Database.open(":memory:"))
            return
        db = await open_database(self.settings.database_target)
        self.service = GameService(db, clock=discord_clock,
                                   default_timeout=self.settings.default_turn_timeout)
        if self.seed_source is not None:
            self.service.seed_source = self.seed_source
        await self.load_features()
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        restored = await self.service.restore()
        log.info("Ready to serve %d open game(s); %d turn timer(s) running", len(restored),
                 self.service.pending_timers)
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
            log.info("Synced commands to the dev guild %s", self.settings.dev_guild_id)

    async def close(self) -> None:
        service = getattr(self, "service", None)
        if service is not None:
            await service.close()
            await service.db.close()
        await super().close()

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Answer clicks on our components that the message no longer shows (a client with an
        out-of-date copy): discord.py would leave them unanswered."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        if not custom_id.startswith(("pr:", "ps:")) or interaction.message is None:
            return
        shown = {getattr(c, "custom_id", None) for row in interaction.message.components
                 for c in getattr(row, "children", [row])}
        if custom_id in shown:
            return  # the dynamic item answers it
        await self.guarded(interaction, self._gone(custom_id))

    async def _gone(self, custom_id: str) -> None:
        parts = custom_id.split(":")
        game = await self.service.db.get_game(int(parts[1])) if parts[1].isdigit() else None
        if game is not None and game.status == "finished":
            raise UserError("This game is over.")
        if game is not None and game.status == "cancelled":
            raise UserError("This game was cancelled.")
        raise UserError("That button is no longer on the game's message: use the latest one.")

    async def guarded(self, interaction: discord.Interaction[Any], work: Awaitable[None]
                      ) -> None:
        """Run a component handler: user errors become a short private message, anything
        else is logged with its traceback and the user gets an apology."""
        try:
            await work
        except (UserError, RulesError) as exc:
            await answer_error(interaction, exc.message)
        except discord.Forbidden as exc:
            log.warning("missing permission in channel %s: %s", interaction.channel_id, exc)
            await answer_error(interaction, MISSING_PERMISSIONS)
        except discord.HTTPException as exc:
            log.warning("Discord answered %s to a request of channel %s", exc.status,
                        interaction.channel_id, exc_info=True)
            await answer_error(interaction, DISCORD_HICCUP)
        except Exception:
            data: dict[str, Any] = dict(interaction.data or {})
            log.exception("component %s failed", data.get("custom_id"))
            await answer_error(interaction, SORRY)

    async def on_app_command_error(self, interaction: discord.Interaction[Any],
                                   error: app_commands.AppCommandError) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, UserError | RulesError):
            await answer_error(interaction, original.message)
        elif isinstance(error, app_commands.NoPrivateMessage):
            await answer_error(interaction, "Games are played in server channels, not in "
                                            "direct messages.")
        elif isinstance(original, discord.Forbidden):
            log.warning("missing permission in channel %s: %s", interaction.channel_id,
                        original)
            await answer_error(interaction, MISSING_PERMISSIONS)
        else:
            log.error("command %s failed", interaction.command and interaction.command.name,
                      exc_info=original)
            await answer_error(interaction, SORRY)
