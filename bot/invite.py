"""The invite link: the application id (from the token or DISCORD_APPLICATION_ID) and exactly
the permissions the bot needs in a game channel.
"""

from __future__ import annotations

import base64
import binascii
from typing import Final

import discord

from bot.problems import Problem
from bot.settings import Settings

SCOPES: Final = ("bot", "applications.commands")
PERMISSION_NAMES: Final = ("view_channel", "send_messages", "embed_links", "attach_files",
                           "read_message_history", "create_public_threads",
                           "send_messages_in_threads")
NO_APPLICATION_ID: Final = (
    "No application id: set DISCORD_TOKEN (the id is read from it) or DISCORD_APPLICATION_ID "
    "(https://discord.com/developers/applications > your app > General Information > "
    "Application ID) in .env"
)


class InviteProblem(Problem):
    """The invite link cannot be made; the message says why and what to do."""


def permissions() -> discord.Permissions:
    """View Channel, Send Messages, Embed Links, Attach Files, Read Message History, and for a
    game played in a thread: Create Public Threads, Send Messages in Threads.
    """
    return discord.Permissions(**dict.fromkeys(PERMISSION_NAMES, True))


def permission_labels() -> list[str]:
    """The names of the permissions the bot asks for."""
    return [name.replace("_", " ").title() for name in PERMISSION_NAMES]


def application_id_from_token(token: str) -> int | None:
    """A bot token's first part is the base64 of the bot's user id (the application id)."""
    first = token.strip().split(".", 1)[0]
    try:
        text = base64.b64decode(first + "=" * (-len(first) % 4), altchars=b"-_",
                                validate=True).decode("ascii")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    return int(text) if text.isdigit() and int(text) > 0 else None


def application_id(settings: Settings) -> int:
    """DISCORD_APPLICATION_ID, else the id inside DISCORD_TOKEN; :class:`InviteProblem` if
    neither gives one.
    """
    if settings.discord_application_id is not None:
        return settings.discord_application_id
    if settings.discord_token is not None:
        found = application_id_from_token(settings.discord_token.get_secret_value())
        if found is None:
            raise InviteProblem(
                "DISCORD_TOKEN does not start with an application id (is it a bot token?): set "
                "DISCORD_APPLICATION_ID in .env (General Information > Application ID)")
        return found
    raise InviteProblem(NO_APPLICATION_ID)


def invite_url(app_id: int) -> str:
    """The OAuth2 invite URL of application ``app_id`` with the bot's scopes and permissions."""
    return ("https://discord.com/oauth2/authorize"
            f"?client_id={app_id}&scope={'+'.join(SCOPES)}&permissions={permissions().value}")


def invite_text(settings: Settings) -> str:
    """What ``./dev invite`` prints: the link, then the permissions it asks for."""
    url = invite_url(application_id(settings))
    return (f"{url}\n"
            f"Open it, pick your server and authorise. Scopes: {', '.join(SCOPES)}; permissions "
            f"{permissions().value}: {', '.join(permission_labels())}.\n"
            "What the bot keeps about players and servers, and how they remove it: "
            "docs/privacy.md (in Discord: /privacy). Link it from the bot's profile "
            "(Developer Portal > General Information > Privacy Policy URL).\n")
