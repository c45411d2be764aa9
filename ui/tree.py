"""The bot's slash-command tree: every command's first check and the one way its failures reach
the user, in a :class:`discord.app_commands.CommandTree` subclass the bot is built with.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from ui.board import count_answer
from ui.errors import BAD_OPTION, answer_error, report
from ui.i18n import for_user
from ui.options import option_problem


class PandaTree(app_commands.CommandTree[Any]):
    """Slash commands: forged options are refused before a command runs, every failure takes
    :func:`ui.errors.report`, and each command's end is counted in the bot's metrics.
    """

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """Judge the command's lateness (:mod:`ui.late`); one whose options it would not take
        (a forged interaction) is answered privately and goes no further.
        """
        bot = interaction.client
        lateness = getattr(bot, "lateness", None)
        if lateness is not None:
            lateness.judge(interaction)
        if option_problem(interaction) is not None:
            await answer_error(interaction, for_user(interaction)(BAD_OPTION))
            return False
        return True

    async def on_error(self, interaction: discord.Interaction[Any],
                       error: app_commands.AppCommandError, /) -> None:
        """Every slash command's failure, the one way."""
        await report(interaction, error)
        count_answer(interaction)


async def command_done(interaction: discord.Interaction[Any], command: object) -> None:
    """A command finished (discord.py's ``on_app_command_completion``): counted as answered
    by then, if nothing answered it sooner.
    """
    count_answer(interaction)
