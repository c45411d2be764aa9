"""The one path from any failure to the user: :func:`report`.

A :class:`bot.rules.errors.PlayerError` (rules or service) is shown as it is, privately. Discord
refusing a request for missing permissions gets the permissions message; any other Discord
error a short "try again". Everything else is a bug: it is logged with its traceback under a
short incident id, and the user gets an apology that quotes the id.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable
from typing import Any, Final

import discord
from discord import app_commands

from bot.rules.errors import PlayerError
from ui.i18n import N_, for_user
from ui.late import TooLate

log = logging.getLogger("ui.errors")

MISSING_PERMISSIONS: Final = N_(
    "I can't post in this channel: I need the **View Channel**, **Send Messages**, "
    "**Embed Links** and **Attach Files** permissions here. Ask a server admin to grant them "
    "(channel settings > Permissions), then try again."
)
DISCORD_HICCUP: Final = N_("Discord didn't accept my reply. Nothing is lost: /royale status (or "
                         "/posing status) shows the game as it is now.")
NOT_IN_DMS: Final = N_("Games are played in server channels, not in direct messages.")
BAD_OPTION: Final = N_("One of the options is not a value this command takes: pick one it "
                       "offers.")
OUT_OF_DATE: Final = N_("This command is out of date on Discord's side: a server admin can run the "
                      "bot's `sync`; meanwhile try again in a few minutes.")
SORRY: Final = N_("Something went wrong on my side (incident {incident}). Nothing was lost: try "
                  "again in a moment.")
NOT_AN_ADMIN: Final = N_("Only someone who can manage this server can change its settings.")
SERVICE_MESSAGES: Final = (
    N_("This game is over."), N_("This game was cancelled."),
    N_("This game hasn't started yet."), N_("game"),
    # the rules engine's phases ("Now is the time to {phase}.")
    N_("choose a die for mischief"), N_("score or save a Cannon die"), N_("trade"),
    N_("pick a die from the pool"),
)
"""Messages the game service composes outside a raise (marked here for the catalogue)."""


def what(interaction: discord.Interaction[Any]) -> str:
    """The interaction in a few words, for the log: the command or the component."""
    if interaction.command is not None:
        return f"command /{interaction.command.qualified_name}"
    data: dict[str, Any] = dict(interaction.data or {})
    return f"component {data.get('custom_id')!r}"


async def answer_error(interaction: discord.Interaction[Any], message: str, *,
                       ephemeral: bool = True) -> None:
    """Tell the user ``message`` (privately unless not ``ephemeral``), whether or not the
    interaction was answered; Discord's refusal is logged, not raised.
    """
    quiet = discord.AllowedMentions.none()
    try:
        if interaction.response.is_done():
            await interaction.followup.send(message, ephemeral=ephemeral, allowed_mentions=quiet)
        else:
            await interaction.response.send_message(message, ephemeral=ephemeral,
                                                    allowed_mentions=quiet)
    except discord.HTTPException:
        log.warning("could not deliver a message to %s", interaction.user.id, exc_info=True)


async def report(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """Tell the user what went wrong, the one way every failure takes."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    tr = for_user(interaction)
    if isinstance(error, TooLate):
        log.info("dropped %s: Discord no longer takes it (it came too late)", what(interaction))
    elif isinstance(error, PlayerError):
        await answer_error(interaction, tr.error(error))
    elif isinstance(error, app_commands.NoPrivateMessage):
        await answer_error(interaction, tr(NOT_IN_DMS))
    elif isinstance(error, app_commands.MissingPermissions):
        await answer_error(interaction, tr(NOT_AN_ADMIN))
    elif isinstance(error, app_commands.TransformerError | app_commands.CheckFailure):
        await answer_error(interaction, tr(BAD_OPTION))
    elif isinstance(error, app_commands.CommandSignatureMismatch | app_commands.CommandNotFound):
        log.warning("%s is out of date: the commands need a sync", what(interaction))
        await answer_error(interaction, tr(OUT_OF_DATE))
    elif isinstance(error, discord.Forbidden):
        log.warning("missing permission in channel %s (%s): %s", interaction.channel_id,
                    what(interaction), error)
        await answer_error(interaction, tr(MISSING_PERMISSIONS))
    elif isinstance(error, discord.HTTPException):
        log.warning("Discord answered %s to a request of %s in channel %s", error.status,
                    what(interaction), interaction.channel_id, exc_info=error)
        await answer_error(interaction, tr(DISCORD_HICCUP))
    else:
        incident = secrets.token_hex(3)
        log.error("incident %s: %s failed", incident, what(interaction), exc_info=error)
        await answer_error(interaction, tr(SORRY, incident=incident))


async def guarded(interaction: discord.Interaction[Any], work: Awaitable[None]) -> None:
    """Run ``work``; any failure reaches the user through :func:`report`."""
    try:
        await work
    except Exception as exc:
        await report(interaction, exc)
