"""Panda Royale on Discord: ``/royale`` (the shared commands of :class:`cogs.games.GameCommands`
with its own ``new``, ``hand`` and ``rules``) and the round's card and items
(:mod:`cogs.royale.card`).
"""

from __future__ import annotations

from typing import Any, Final

import discord
from discord import app_commands
from discord.app_commands import locale_str as loc
from discord.ext import commands

from bot.errors import UserError
from bot.rules.registry import ROYALE
from cogs.games import GameCommands
from cogs.royale.card import KIND, PREFIX, ROYALE_ITEMS, RoyalePresenter, sheet_button
from cogs.royale.words import ROYALE_REVIEW, hand_text, rules_text
from ui.board import DiscordKind
from ui.cards import PLAYING, layout, text
from ui.i18n import N_, for_user
from ui.items import bot_of
from ui.settings import LANGUAGE_CHOICES, PACE_CHOICES, game_settings, turn_time


class RoyaleCommands(GameCommands, group_name=loc("royale"),
                     group_description=loc("Play Panda Royale, the dice-drafting party game")):
    """Every /royale command; the game itself is played with its card's buttons."""

    kind = KIND

    @app_commands.command(name=loc("new"),
                          description=loc("Open a Panda Royale game in this channel"))
    @app_commands.describe(
        mischief=loc("Mayhem: Mischief pandas (clear d12s that force re-rolls)"),
        cannon=loc("Mayhem: Cannon pandas (pink d8s worth x10, once)"),
        mercenary=loc("Mayhem: Mercenary pandas (green d6s worth x round, may desert)"),
        turn_timeout=loc("Seconds a player has for a decision before the computer plays it"),
        pace=loc("Live (one sitting) or slow: a turn within hours or days, with reminders"),
        language=loc("The language of the game's messages (default: the server's)"),
        thread=loc("Play the game in a thread of this channel (default: the server's choice)"),
    )
    @app_commands.rename(mischief=loc("mischief"), cannon=loc("cannon"), mercenary=loc("mercenary"),
                         turn_timeout=loc("turn_timeout"), pace=loc("pace"),
                         language=loc("language"), thread=loc("thread"))
    @app_commands.choices(language=LANGUAGE_CHOICES, pace=PACE_CHOICES)
    async def new(self, interaction: discord.Interaction[Any], mischief: bool | None = None,
                  cannon: bool | None = None, mercenary: bool | None = None,
                  turn_timeout: app_commands.Range[int, 15, 3600] | None = None,
                  pace: str | None = None, language: str | None = None,
                  thread: bool | None = None) -> None:
        # The Mayhem options the host gives are their whole choice (the others off); none
        # given: the server's default options. What is None takes the server's default.
        given = (("mischief", mischief), ("cannon", cannon), ("mercenary", mercenary))
        options = None if all(on is None for _, on in given) \
            else [name for name, on in given if on]
        await self.open_lobby(interaction, game_settings(
            interaction, {"expansions": options, "turn_timeout": turn_time(pace, turn_timeout)},
            language, thread))

    @app_commands.command(name=loc("hand"), description=loc("Your dice, privately"))
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        bot = bot_of(self.bot)
        game = await self._open_game(interaction)
        if game.state is None:
            raise UserError("The game hasn't started yet: nobody has dice.")
        presenter = bot.boards.presenter(KIND)
        assert isinstance(presenter, RoyalePresenter)
        words = hand_text(game, bot.service.state_of(game), interaction.user.id,
                          for_user(interaction), presenter.emojis)
        await interaction.response.send_message(view=layout(PLAYING, text(words)),
                                                ephemeral=True)

    @app_commands.command(name=loc("rules"), description=loc("How Panda Royale is played here"))
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(
            view=layout(PLAYING, text(rules_text(for_user(interaction)))), ephemeral=True)


PITCH: Final = N_("Roll your dice, score them by colour, trade and draft new ones: after 10 "
                  "rounds the highest total wins. About {minutes} minutes.")
HOW_TO_PLAY: Final = N_(
    "Each round everyone rolls their dice and scores them: yellow counts as it shows, purple "
    "twice, red can go negative. Then, in turn, each player may trade a clear d6 for another "
    "player's die and picks a new die from the pool. The board's buttons are your choices; "
    "Help explains the current step. /royale rules has the whole rules.")


async def setup(bot: commands.Bot) -> None:
    """discord.py extension entry point: the game's Discord part, its items, its commands."""
    game_bot = bot_of(bot)
    presenter = RoyalePresenter(game_bot.boards, game_bot.stats, game_bot.dice_emojis)
    game_bot.boards.add_kind(DiscordKind(
        kind=ROYALE, prefix=PREFIX, presenter=presenter, review_words=ROYALE_REVIEW,
        sheet=sheet_button, pitch=PITCH, how_to_play=HOW_TO_PLAY, minutes_per_player=4))
    bot.add_dynamic_items(*ROYALE_ITEMS)
    await bot.add_cog(RoyaleCommands(bot))
