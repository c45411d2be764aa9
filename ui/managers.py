"""Who may manage what: a channel's games, a server's settings (checked by the bot, not only by
Discord's command permissions).
"""

from __future__ import annotations

from typing import Any

import discord


def is_manager(interaction: discord.Interaction[Any]) -> bool:
    """Whether the user can manage this channel (may cancel anybody's game here)."""
    perms = getattr(interaction, "permissions", None)
    return bool(perms and (perms.manage_channels or perms.administrator))


def can_manage_server(interaction: discord.Interaction[Any]) -> bool:
    """Whether the user may manage the server (its settings, any game in it)."""
    perms = getattr(interaction, "permissions", None)
    return bool(perms and (perms.manage_guild or perms.administrator))
