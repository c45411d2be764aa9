"""The extension every other cog needs: the hub, the components, the one error path.

Loaded first. It sets the commands' translator (:mod:`ui.translator`), adds ``/settings``,
attaches the :class:`ui.hub.Hub` to the bot, registers the dynamic components that belong to
no game kind (each kind's extension registers its own), sends every slash-command failure
through :func:`ui.errors.report`, and answers clicks discord.py would leave unanswered: a
component the message no longer shows (a client with an out-of-date copy), or a custom_id that
is not ours or not well formed.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserError
from cogs.settings import SettingsCog
from ui.clicks import parse_custom_id
from ui.components import DYNAMIC_ITEMS
from ui.errors import BAD_OPTION, answer_error, guarded, report
from ui.hub import HUB_ATTRIBUTE, GameBot, Hub, hub_of
from ui.i18n import N_, for_user, languages, tr_for
from ui.messages import GameMessages
from ui.options import option_problem
from ui.translator import CatalogueTranslator

NOT_OURS = N_("That button is not one of this bot's (or it is from an older version): use the "
              "latest game message, or /royale status.")


class Core(commands.Cog):
    """Answers the interactions no other handler takes."""

    def __init__(self, bot: commands.Bot) -> None:
        """Serve ``bot``."""
        self.bot = bot

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Answer component clicks that no dynamic item will take."""
        hub_of(self.bot).lateness.judge(interaction)  # learnt from, whoever answers it
        if interaction.type is discord.InteractionType.modal_submit:
            await guarded(interaction, _refuse(NOT_OURS))  # the bot asks for no modal
            return
        if interaction.type is not discord.InteractionType.component:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        parsed = parse_custom_id(custom_id)
        if parsed is None or parsed[0] not in hub_of(self.bot).tables:
            await guarded(interaction, _refuse(NOT_OURS))
            return
        if interaction.message is None:
            return
        shown = {getattr(c, "custom_id", None): getattr(c, "type", None)
                 for row in interaction.message.components
                 for c in getattr(row, "children", [row])}
        if custom_id in shown and _same_type(shown[custom_id], data.get("component_type")):
            return  # the dynamic item answers it
        if custom_id in shown:  # a button's id sent as a select, or the reverse: forged
            await guarded(interaction, _refuse(NOT_OURS))
            return
        await guarded(interaction, _gone(self.bot, parsed[1].game_id))


def _same_type(shown: object, sent: object) -> bool:
    return isinstance(shown, discord.ComponentType) and shown.value == sent


async def _refuse(message: str) -> None:
    raise UserError(message)


async def _gone(bot: commands.Bot, game_id: int | None) -> None:
    game = await hub_of(bot).service.get_game(game_id) if game_id else None
    if game is not None and game.status == "finished":
        raise UserError("This game is over.")
    if game is not None and game.status == "cancelled":
        raise UserError("This game was cancelled.")
    raise UserError("That button is no longer on the game's message: use the latest one.")


async def on_app_command_error(interaction: discord.Interaction[Any],
                               error: app_commands.AppCommandError) -> None:
    """Every slash command's failure, the one way."""
    await report(interaction, error)


async def on_time(interaction: discord.Interaction[Any]) -> bool:
    """Every slash command's first check: one whose options its command would not take (a
    forged interaction) is answered privately and goes no further. A command that writes
    asks Discord first when it may have come too late (:class:`ui.answers.Reply`).
    """
    if option_problem(interaction) is not None:
        await answer_error(interaction, for_user(interaction)(BAD_OPTION))
        return False
    return True


async def setup(bot: commands.Bot) -> None:
    """discord.py extension entry point."""
    game_bot: GameBot = bot  # type: ignore[assignment]  # PandaBot carries the services
    setattr(bot, HUB_ATTRIBUTE, Hub(game_bot, GameMessages(bot, game_bot.service,
                                                                game_bot.budget)))
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    bot.tree.on_error = on_app_command_error  # type: ignore[method-assign]
    bot.tree.interaction_check = on_time  # type: ignore[method-assign]
    for lang in languages():  # read every catalogue now, not on a player's first click
        tr_for(lang)
    await bot.tree.set_translator(CatalogueTranslator())
    await bot.add_cog(Core(bot))
    await bot.add_cog(SettingsCog(bot))
