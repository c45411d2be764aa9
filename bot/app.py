"""Starting the bot for real: logging, the Discord endpoints, ``run`` and ``sync``.

Every failure someone running the bot can cause (a rejected token, no network, a database that
cannot be used) is raised as a :class:`~bot.problems.Problem` whose message says what to do.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import socket
import sys
from collections.abc import Callable, Coroutine
from typing import Any

import aiohttp
import discord
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.problems import Problem
from bot.settings import Settings

log = logging.getLogger("bot")

TOKEN_REJECTED = (
    "Discord rejected the token (401 Unauthorized): check DISCORD_TOKEN in .env or the "
    "environment (copy it again from https://discord.com/developers/applications, Bot > "
    "Reset Token)"
)


class _BriefDiscordErrors(logging.Formatter):
    """discord.py's own logged exceptions (reconnects, a gateway hiccup) as one line; the
    traceback only at DEBUG.
    """

    def __init__(self, fmt: str, brief: bool) -> None:
        super().__init__(fmt)
        self.brief = brief

    def format(self, record: logging.LogRecord) -> str:
        if self.brief and record.exc_info and record.name.startswith("discord"):
            exc = record.exc_info[1]
            record = logging.makeLogRecord(record.__dict__)
            record.msg = f"{record.getMessage()} ({type(exc).__name__}: {exc})"
            record.args = None
            record.exc_info = None
            record.exc_text = None
        return super().format(record)


def configure_logging(level: str) -> None:
    """Log lines to stderr; discord.py's own loggers at WARNING unless DEBUG is asked."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_BriefDiscordErrors(
        "%(asctime)s %(levelname)-7s %(name)s: %(message)s", brief=level != "DEBUG"))
    logging.basicConfig(level=level, handlers=[handler])
    if level != "DEBUG":
        logging.getLogger("discord").setLevel(logging.WARNING)
    # The bot has no voice: discord.py's "PyNaCl/davey is not installed" warnings are noise.
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False


def point_at_endpoints(settings: Settings) -> None:
    """Send discord.py's REST routes and its default gateway where the settings say."""
    if settings.discord_api_base_url:
        Route.BASE = settings.discord_api_base_url.rstrip("/")
    if settings.discord_gateway_url:
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.discord_gateway_url)


def discord_problem(exc: BaseException, doing: str = "") -> Problem | None:
    """The sentence for a failure talking to Discord, or ``None`` if ``exc`` is not one."""
    if isinstance(exc, discord.LoginFailure):
        return Problem(TOKEN_REJECTED)
    if isinstance(exc, discord.PrivilegedIntentsRequired):
        return Problem("Discord refused the gateway intents the bot asked for: check the bot's "
                       "Privileged Gateway Intents in the developer portal")
    if isinstance(exc, discord.HTTPException):
        what = f" to {doing}" if doing else ""
        hint = ("invite the bot to that server first (./dev invite), then try again"
                if exc.status == 403 else "try again in a moment")
        return Problem(f"Discord refused{what} ({exc.status} {exc.text or exc.response.reason}, "
                       f"code {exc.code}): {hint}")
    if isinstance(exc, aiohttp.ClientError | ConnectionError | socket.gaierror | TimeoutError
                  | discord.GatewayNotFound | discord.ConnectionClosed):
        reason = _reason(exc)
        return Problem(f"Could not reach Discord at {Route.BASE} ({reason}): check the network "
                       "(and DISCORD_API_BASE_URL / DISCORD_GATEWAY_URL if set), then try again")
    return None


def _reason(exc: BaseException) -> str:
    if isinstance(exc, aiohttp.ClientConnectorError):
        return exc.os_error.strerror or str(exc.os_error) or type(exc).__name__
    if isinstance(exc, TimeoutError):
        return "timed out"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) or type(exc).__name__


def run_bot(settings: Settings) -> int:
    """Check the database, then run the bot until it is stopped (Ctrl+C or SIGTERM)."""
    from bot.client import create_bot
    from storage.preflight import DatabaseUnusable, check_database

    configure_logging(settings.log_level)
    if settings.database_url is None:
        try:
            asyncio.run(check_database(settings.database_path))
        except DatabaseUnusable as exc:
            raise Problem(str(exc)) from None
    point_at_endpoints(settings)
    assert settings.discord_token is not None
    bot = create_bot(settings)
    bot.add_listener(_first_ready(bot, settings), "on_ready")
    try:
        bot.run(settings.discord_token.get_secret_value(), log_handler=None)
    except Problem:
        raise
    except Exception as exc:
        problem = discord_problem(exc) or _database_problem(exc, settings)
        if problem is None:
            raise
        raise problem from exc
    return 0


def _database_problem(exc: BaseException, settings: Settings) -> Problem | None:
    """The database failing while the bot opens it (after the start-up check passed)."""
    import sqlite3

    from storage import StorageError
    from storage.preflight import DatabaseUnusable

    if isinstance(exc, DatabaseUnusable):
        return Problem(str(exc))
    if isinstance(exc, StorageError | sqlite3.Error):
        return Problem(f"DATABASE_PATH={settings.database_path} cannot be used ({exc}): check "
                       "the file or use another DATABASE_PATH")
    return None


def _first_ready(bot: discord.Client, settings: Settings
                 ) -> Callable[[], Coroutine[Any, Any, None]]:
    """An ``on_ready`` listener that acts the first time only (discord.py fires ``on_ready``
    again after a reconnect). It freezes what start-up made (``gc.freeze``: the modules, fonts,
    catalogues, the games restored, the servers' cache) so the garbage collector's full passes,
    which stop the bot while they walk every object, walk only what came after: at 500 games
    such a pass is the bot's longest pause (a frozen object is still freed when nothing refers
    to it; only a cycle among frozen objects stays). Then it logs the invite link.
    """
    done = False

    async def on_ready() -> None:
        nonlocal done
        if done:
            return
        done = True
        gc.collect()
        gc.freeze()
        log.info("Start-up done: %s objects left out of the garbage collector's passes",
                 f"{gc.get_freeze_count():,}")
        from bot.invite import application_id, invite_url

        app_id = bot.application_id or application_id(settings)
        log.info("Connected as %s. Invite it to a server: %s", bot.user, invite_url(app_id))

    return on_ready


def sync_commands(settings: Settings, *, guild_id: int | None) -> int:
    """Sync the slash commands once: to one guild (instant) or globally."""
    from bot.client import PandaBot

    configure_logging(settings.log_level)
    if not settings.has_token:
        print("DISCORD_TOKEN is not set: nothing to sync with. Put the bot's token in .env "
              "(see ./dev run's instructions), then ./dev sync.", file=sys.stderr)
        return 2
    point_at_endpoints(settings)
    assert settings.discord_token is not None
    token = settings.discord_token.get_secret_value()
    where = f"guild {guild_id}" if guild_id is not None else "every guild"

    async def go() -> int:
        bot = PandaBot(settings, sync_only=True)
        async with bot:
            await bot.login(token)
            await bot.load_features()
            if guild_id is not None:
                guild = discord.Object(id=guild_id)
                bot.tree.copy_global_to(guild=guild)
                synced = await bot.tree.sync(guild=guild)
                said = f"guild {guild_id}"
            else:
                synced = await bot.tree.sync()
                said = "every guild (global; may take up to an hour to appear)"
            print(f"Synced {len(synced)} commands to {said}.")
        return 0

    try:
        return asyncio.run(go())
    except Exception as exc:
        problem = discord_problem(exc, f"sync the commands to {where}")
        if problem is None:
            raise
        raise problem from exc
