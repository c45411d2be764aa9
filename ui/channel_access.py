"""What the bot may do in a game's channel, and what Discord's refusals mean.

Before the bot posts a game message it looks at its own permissions in the channel (discord.py's
cache, kept current by the ``guilds`` intent's channel and role events): without Send Messages
nothing is sent; without Embed Links the message goes as text; without Attach Files it goes
without its picture. A refusal Discord still sends back is read by :func:`refusal`: the message
is gone, the channel is gone, or a permission is missing.
"""

from __future__ import annotations

import enum
from typing import Final

import aiohttp
import discord

from bot.service import Game

UNKNOWN_CHANNEL: Final = 10003
UNKNOWN_MESSAGE: Final = 10008
UNKNOWN_WEBHOOK: Final = 10015
UNKNOWN_MEMBER: Final = 10007
UNKNOWN_USER: Final = 10013
MISSING_ACCESS: Final = 50001
MISSING_PERMISSIONS: Final = 50013

NEEDED: Final = ("view_channel", "send_messages", "embed_links", "attach_files",
                 "read_message_history")
"""The permissions a game channel needs, by discord.py's names."""
PERMISSION_NAMES: Final = {"view_channel": "View Channel", "send_messages": "Send Messages",
                           "embed_links": "Embed Links", "attach_files": "Attach Files",
                           "read_message_history": "Read Message History",
                           "send_messages_in_threads": "Send Messages in Threads",
                           "create_public_threads": "Create Public Threads"}
"""Discord's own names of the permissions (as its settings show them, untranslated)."""


SEND_FAILURES: Final = (discord.HTTPException, aiohttp.ClientError, OSError)
"""What a request to Discord raises when it fails: refused (an HTTP error), or the connection
dropped or timed out on the way (``TimeoutError`` is an ``OSError``)."""


def failure(error: BaseException) -> str:
    """A failed request in a few words, for the log: Discord's status and text, or what
    happened to the connection.
    """
    if isinstance(error, discord.HTTPException):
        return f"{error.status} {error.text}".strip()
    return f"{type(error).__name__}: {error}".rstrip(": ")


class Refusal(enum.Enum):
    """What a refused request says about the game's channel."""

    MESSAGE_GONE = "message gone"
    CHANNEL_GONE = "channel gone"
    NO_PERMISSION = "permission missing"
    OTHER = "other"


def refusal(error: BaseException) -> Refusal:
    """Read a refused request: its message or channel is gone, or a permission is missing
    (a connection that failed is :attr:`Refusal.OTHER`: tried again later).
    """
    if not isinstance(error, discord.HTTPException):
        return Refusal.OTHER
    code = getattr(error, "code", 0)
    if code in (UNKNOWN_MESSAGE, UNKNOWN_WEBHOOK):
        return Refusal.MESSAGE_GONE
    if code in (UNKNOWN_CHANNEL, MISSING_ACCESS):
        return Refusal.CHANNEL_GONE
    if code == MISSING_PERMISSIONS or isinstance(error, discord.Forbidden):
        return Refusal.NO_PERMISSION
    if isinstance(error, discord.NotFound):
        return Refusal.MESSAGE_GONE
    return Refusal.OTHER


def channel_permissions(client: discord.Client, game: Game) -> discord.Permissions | None:
    """The bot's permissions in the game's channel as discord.py's cache knows them (None:
    the cache does not know the server or the channel yet).
    """
    guild = client.get_guild(game.guild_id)
    if guild is None or guild.me is None:
        return None
    channel = guild.get_channel_or_thread(game.channel_id)
    if channel is None:
        return None
    return channel.permissions_for(guild.me)


def missing(perms: discord.Permissions | None, needed: tuple[str, ...] = NEEDED) -> list[str]:
    """Discord's names of the ``needed`` permissions that ``perms`` lacks (none if unknown)."""
    if perms is None:
        return []
    return [PERMISSION_NAMES[p] for p in needed if not getattr(perms, p)]


def can_post(perms: discord.Permissions | None) -> bool:
    """Whether the bot may post in the channel (unknown permissions: try)."""
    return perms is None or bool(perms.view_channel and perms.send_messages)
