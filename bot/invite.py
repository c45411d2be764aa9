"""The two install links of the application and the Developer Portal settings they need.

The server install adds the bot to a server with exactly the permissions it needs in a game
channel; the user install adds the app's commands to a player's own account, with no bot and no
permissions. Both are OAuth2 ``/authorize`` links naming their installation context
(``integration_type``) and scopes, so they do not depend on the portal's Default Install Settings.
The application id comes from DISCORD_APPLICATION_ID or from the token.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Sequence
from typing import Final
from urllib.parse import urlencode

import discord

from bot.problems import Problem
from bot.settings import Settings

AUTHORIZE_URL: Final = "https://discord.com/oauth2/authorize"
GUILD_INSTALL: Final = 0
"""Discord's ``integration_type`` for an app installed to a server."""
USER_INSTALL: Final = 1
"""Discord's ``integration_type`` for an app installed to a user's account."""
SERVER_SCOPES: Final = ("bot", "applications.commands")
USER_SCOPES: Final = ("applications.commands",)
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


def authorize_url(app_id: int, integration_type: int, scopes: Sequence[str],
                  bot_permissions: discord.Permissions | None = None) -> str:
    """The OAuth2 link that installs application ``app_id`` in the installation context
    ``integration_type`` with ``scopes``, asking for ``bot_permissions`` when given.
    """
    query: dict[str, int | str] = {"client_id": app_id, "integration_type": integration_type,
                                   "scope": " ".join(scopes)}
    if bot_permissions is not None:
        query["permissions"] = bot_permissions.value
    return f"{AUTHORIZE_URL}?{urlencode(query)}"


def invite_url(app_id: int) -> str:
    """The server install link: the bot joins a server with the permissions it needs."""
    return authorize_url(app_id, GUILD_INSTALL, SERVER_SCOPES, permissions())


def user_install_url(app_id: int) -> str:
    """The user install link: the app's commands on a player's own account, no bot, no
    permissions.
    """
    return authorize_url(app_id, USER_INSTALL, USER_SCOPES)


def invite_text(settings: Settings) -> str:
    """What ``./dev invite`` prints: both links with what each allows, then the Developer Portal
    settings they need.
    """
    app_id = application_id(settings)
    server_permissions = f"{permissions().value}: {', '.join(permission_labels())}"
    return (
        "Add the bot to a server (you need Manage Server there):\n"
        f"{invite_url(app_id)}\n"
        "  The bot joins the server: game boards, pings, reminders, threads, leaderboards, "
        "seasons, server settings.\n"
        f"  Scopes: {', '.join(SERVER_SCOPES)}; permissions {server_permissions}.\n"
        "\n"
        "Add the app to your own account:\n"
        f"{user_install_url(app_id)}\n"
        "  Play in DMs, group DMs and servers without the bot, through the app's answers only: "
        "no slow games, no threads, no server settings or leaderboards there.\n"
        f"  Scope: {', '.join(USER_SCOPES)}; no bot, no permissions.\n"
        "\n"
        "Developer Portal (https://discord.com/developers/applications > your app > "
        "Installation):\n"
        "  - Installation Contexts: check Guild Install and User Install (a link works only for "
        "a context checked there).\n"
        "  - Install Link: Discord Provided Link or None; the links above name their own scopes "
        "and context, so either works.\n"
        "  - Default Install Settings (shown with Discord Provided Link, used by the Add App "
        "button of the bot's profile): Guild Install: scopes applications.commands and bot, the "
        "permissions above; User Install: scope applications.commands.\n"
        "\n"
        "What the bot keeps about players and servers, and how they remove it: "
        "docs/privacy.md (in Discord: /privacy). Link it from the bot's profile "
        "(Developer Portal > General Information > Privacy Policy URL).\n")
