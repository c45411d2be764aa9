"""Starting the bot for real: logging, the Discord endpoints, ``run`` and ``sync``."""

from __future__ import annotations

import asyncio
import logging
import sys

import discord
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.settings import Settings

log = logging.getLogger("bot")


def configure_logging(level: str) -> None:
    """Log lines to stderr; discord.py's own loggers at WARNING unless DEBUG is asked."""
    logging.basicConfig(
        level=level, stream=sys.stderr,
        format="%(asctime)s %(levelname)-7s %(name)s: %(message)s",
    )
    if level != "DEBUG":
        logging.getLogger("discord").setLevel(logging.WARNING)


def point_at_endpoints(settings: Settings) -> None:
    """Send discord.py's REST routes and its default gateway where the settings say."""
    if settings.discord_api_base_url:
        Route.BASE = settings.discord_api_base_url.rstrip("/")
    if settings.discord_gateway_url:
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.discord_gateway_url)


def run_bot(settings: Settings) -> int:
    """Run the bot until it is stopped (Ctrl+C or SIGTERM)."""
    from bot.client import PandaBot

    configure_logging(settings.log_level)
    point_at_endpoints(settings)
    assert settings.discord_token is not None
    bot = PandaBot(settings)
    try:
        bot.run(settings.discord_token.get_secret_value(), log_handler=None)
    except discord.LoginFailure:
        log.error("Discord refused the token: check DISCORD_TOKEN (it is not printed here).")
        return 1
    return 0


def sync_commands(settings: Settings, *, guild_id: int | None) -> int:
    """Sync the slash commands once: to one guild (instant) or globally."""
    from bot.client import PandaBot

    configure_logging(settings.log_level)
    if not settings.has_token:
        print("DISCORD_TOKEN is not set: nothing to sync with.", file=sys.stderr)
        return 2
    point_at_endpoints(settings)
    assert settings.discord_token is not None
    token = settings.discord_token.get_secret_value()

    async def go() -> int:
        bot = PandaBot(settings, sync_only=True)
        async with bot:
            await bot.login(token)
            await bot.load_features()
            if guild_id is not None:
                guild = discord.Object(id=guild_id)
                bot.tree.copy_global_to(guild=guild)
                synced = await bot.tree.sync(guild=guild)
                where = f"guild {guild_id}"
            else:
                synced = await bot.tree.sync()
                where = "every guild (global; may take up to an hour to appear)"
            print(f"Synced {len(synced)} commands to {where}.")
        return 0

    return asyncio.run(go())
