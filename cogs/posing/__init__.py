"""Posing Pandas on Discord: ``/posing`` (the shared commands of :class:`cogs.games.GameCommands`
with its own ``new``) and the turn's card and items (:mod:`cogs.posing.card`).
"""

from __future__ import annotations

from typing import Any, Final

import discord
from discord import app_commands
from discord.app_commands import locale_str as loc
from discord.ext import commands

from bot.rules.registry import POSING
from cogs.games import GameCommands
from cogs.posing.card import (
    KIND,
    POSING_ITEMS,
    POSING_REVIEW,
    PREFIX,
    PosingPresenter,
    sheet_button,
)
from ui.board import DiscordKind
from ui.i18n import N_
from ui.items import bot_of
from ui.settings import LANGUAGE_CHOICES, PACE_CHOICES, game_settings, turn_time


class PosingCommands(GameCommands, group_name=loc("posing"),
                     group_description=loc("Play Posing Pandas, the pose-dice side game "
                                           "(solo allowed)")):
    """Every /posing command; the game itself is played with its card's buttons."""

    kind = KIND

    @app_commands.command(name=loc("new"),
                          description=loc("Open a Posing Pandas game in this channel"))
    @app_commands.describe(
        turn_timeout=loc("Seconds a player has for a decision before the computer plays the turn"),
        pace=loc("Live (one sitting) or slow: a turn within hours or days, with reminders"),
        language=loc("The language of the game's messages (default: the server's)"),
        thread=loc("Play the game in a thread of this channel (default: the server's choice)"),
    )
    @app_commands.rename(turn_timeout=loc("turn_timeout"), pace=loc("pace"),
                         language=loc("language"), thread=loc("thread"))
    @app_commands.choices(language=LANGUAGE_CHOICES, pace=PACE_CHOICES)
    async def new(self, interaction: discord.Interaction[Any],
                  turn_timeout: app_commands.Range[int, 15, 3600] | None = None,
                  pace: str | None = None, language: str | None = None,
                  thread: bool | None = None) -> None:
        await self.open_lobby(interaction, game_settings(
            interaction, {"turn_timeout": turn_time(pace, turn_timeout)}, language, thread))


PITCH: Final = N_("Roll five dice up to three times a turn and fill a pose on your card: after "
                  "11 turns the highest total wins. About {minutes} minutes.")
HOW_TO_PLAY: Final = N_(
    "On your turn, roll the five dice up to three times, holding the ones you like, then fill "
    "one pose of your card with them (or score zero there). Each pose is filled once. /posing "
    "status shows your card.")


async def setup(bot: commands.Bot) -> None:
    """discord.py extension entry point: the game's Discord part, its items, its commands."""
    game_bot = bot_of(bot)
    presenter = PosingPresenter(game_bot.boards, game_bot.stats, game_bot.dice_emojis)
    game_bot.boards.add_kind(DiscordKind(
        kind=POSING, prefix=PREFIX, presenter=presenter, review_words=POSING_REVIEW,
        sheet=sheet_button, pitch=PITCH, how_to_play=HOW_TO_PLAY, minutes_per_player=3))
    bot.add_dynamic_items(*POSING_ITEMS)
    await bot.add_cog(PosingCommands(bot))
