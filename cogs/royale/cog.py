"""``/royale``: the Panda Royale slash commands."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as loc
from discord.ext import commands

from bot.errors import UserError
from cogs.royale.hand import hand_embed
from cogs.royale.rules_text import rules_embed
from ui import commands as shared
from ui.hub import hub_of
from ui.i18n import for_user
from ui.options import GameNumber
from ui.replay import replay_command
from ui.review import send_review
from ui.settings import LANGUAGE_CHOICES, game_settings

KIND = "royale"


@app_commands.guild_only()
class RoyaleCog(commands.GroupCog, group_name=loc("royale"),
                group_description=loc("Play Panda Royale, the dice-drafting game")):
    """Every /royale command; the game itself is played with the message's buttons."""

    def __init__(self, bot: commands.Bot) -> None:
        """Serve ``bot``."""
        self.bot = bot
        super().__init__()

    @app_commands.command(name=loc("new"),
                          description=loc("Open a Panda Royale game in this channel"))
    @app_commands.describe(
        mischief=loc("Mayhem: Mischief pandas (clear d12s that force re-rolls)"),
        cannon=loc("Mayhem: Cannon pandas (pink d8s worth x10, once)"),
        mercenary=loc("Mayhem: Mercenary pandas (green d6s worth x round, may desert)"),
        turn_timeout=loc("Seconds a player has for a decision before the computer plays it"),
        language=loc("The language of the game's messages (default: the server's)"),
        thread=loc("Play the game in a thread of this channel (default: the server's choice)"),
    )
    @app_commands.rename(mischief=loc("mischief"), cannon=loc("cannon"), mercenary=loc("mercenary"),
                         turn_timeout=loc("turn_timeout"), language=loc("language"),
                         thread=loc("thread"))
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction[Any],
        mischief: bool | None = None,
        cannon: bool | None = None,
        mercenary: bool | None = None,
        turn_timeout: app_commands.Range[int, 15, 3600] | None = None,
        language: str | None = None,
        thread: bool | None = None,
    ) -> None:
        # The Mayhem options the host gives are their whole choice (the others off); none
        # given: the server's default options. What is None takes the server's default.
        given = (("mischief", mischief), ("cannon", cannon), ("mercenary", mercenary))
        options = None if all(on is None for _, on in given) \
            else [name for name, on in given if on]
        settings = game_settings(interaction,
                                 {"expansions": options, "turn_timeout": turn_timeout},
                                 language, thread)
        await shared.new_game(interaction, KIND, settings)

    @app_commands.command(name=loc("join"), description=loc("Join the Panda Royale lobby here"))
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        await shared.join(interaction, KIND)

    @app_commands.command(name=loc("leave"), description=loc("Leave the Panda Royale lobby here"))
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        await shared.leave(interaction, KIND)

    @app_commands.command(name=loc("start"), description=loc("Start the game (host only)"))
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        await shared.start(interaction, KIND)

    @app_commands.command(name=loc("status"),
                          description=loc("The game in this channel, privately"))
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        await shared.status(interaction, KIND)

    @app_commands.command(name=loc("hand"), description=loc("Your dice, privately"))
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        await self._hand(interaction)

    async def _hand(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.channel_id is None:
            raise UserError("Use this in the game's channel.")
        game = await hub_of(self.bot).service.game_in_channel(interaction.channel_id, KIND)
        if game.state is None:
            raise UserError("The game hasn't started yet: nobody has dice.")
        state = hub_of(self.bot).service.state_of(game)
        await interaction.response.send_message(
            embed=hand_embed(game, state, interaction.user.id, for_user(interaction)),
            ephemeral=True)

    @app_commands.command(name=loc("cancel"),
                          description=loc("Cancel the game here (host or channel managers)"))
    @app_commands.describe(game=loc("A game elsewhere in this server, by its number (yours, "
                                    "or any if you manage the server)"))
    @app_commands.rename(game=loc("game"))
    async def cancel(self, interaction: discord.Interaction[Any],
                     game: GameNumber | None = None) -> None:
        await shared.cancel(interaction, KIND, game)

    @app_commands.command(name=loc("board"),
                          description=loc("Bring the game's message down to the bottom of the "
                                          "channel"))
    async def board(self, interaction: discord.Interaction[Any]) -> None:
        await shared.board(interaction, KIND)

    @app_commands.command(name=loc("resign"),
                          description=loc("Hand your seat to the computer for the rest of the "
                                          "game"))
    async def resign(self, interaction: discord.Interaction[Any]) -> None:
        await shared.resign(interaction, KIND)

    @app_commands.command(name=loc("rules"), description=loc("How Panda Royale is played here"))
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(embed=rules_embed(for_user(interaction)),
                                                ephemeral=True)

    @app_commands.command(name=loc("log"),
                          description=loc("The game log (JSON Lines) of the current or last game"))
    async def log(self, interaction: discord.Interaction[Any]) -> None:
        await shared.send_log(interaction, KIND)

    @app_commands.command(name=loc("review"),
                          description=loc("Your decisions in a finished game judged by the "
                                          "Hard player, privately"))
    @app_commands.describe(game=loc("A finished game of this server, by its number (default: "
                                    "this channel's last one)"))
    @app_commands.rename(game=loc("game"))
    async def review(self, interaction: discord.Interaction[Any],
                     game: GameNumber | None = None) -> None:
        await send_review(interaction, KIND, game)

    @app_commands.command(name=loc("replay"),
                          description=loc("Watch a finished game again, round by round (only you "
                                          "see it)"))
    @app_commands.describe(game=loc("The game's number (default: the last one in this "
                                    "channel)"))
    @app_commands.rename(game=loc("game"))
    async def replay(self, interaction: discord.Interaction[Any],
                     game: GameNumber | None = None) -> None:
        await replay_command(interaction, KIND, game)
