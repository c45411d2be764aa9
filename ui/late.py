"""Interactions that reach the bot after their user was told they failed.

Discord gives a bot 3 seconds to answer an interaction; past that its client shows "This
interaction failed". One that arrives later than that (the gateway was down, then delivered it)
must not act: its user saw it fail and moved on. Nothing is answered (Discord would refuse the
late answer anyway); the bot logs it and drops it.
"""

from __future__ import annotations

import logging
from typing import Any, Final

import discord

log = logging.getLogger("ui.late")

ANSWER_WITHIN_S: Final = 3.0
"""Discord's limit for the first answer to an interaction."""


def arrived_late(interaction: discord.Interaction[Any]) -> bool:
    """Whether the interaction is older than Discord's answer limit (it is then dropped)."""
    age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    if age <= ANSWER_WITHIN_S:
        return False
    log.info("dropped an interaction of %s that arrived %.1f s late", interaction.user.id, age)
    return True
