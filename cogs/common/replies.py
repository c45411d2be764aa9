"""Answering interactions: once, within Discord's 3 seconds, errors always ephemeral."""

from __future__ import annotations

import logging
from typing import Any

import discord

log = logging.getLogger("cogs.replies")

MISSING_PERMISSIONS = (
    "I can't post in this channel: I need the **View Channel**, **Send Messages**, "
    "**Embed Links** and **Attach Files** permissions here. Ask a server admin to grant them "
    "(channel settings > Permissions), then try again."
)


async def answer_error(interaction: discord.Interaction[Any], message: str) -> None:
    """Tell the user ``message`` privately, whether or not the interaction was answered."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(message, ephemeral=True)
        else:
            await interaction.response.send_message(message, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not deliver an error message to %s", interaction.user.id,
                    exc_info=True)


def bot_permissions_ok(interaction: discord.Interaction[Any]) -> bool:
    """Whether the bot may post game messages in the interaction's channel."""
    perms = interaction.app_permissions
    return bool(perms.view_channel and perms.send_messages and perms.embed_links
                and perms.attach_files)
