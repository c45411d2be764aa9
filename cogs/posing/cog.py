"""``/posing``: the Posing Pandas slash commands."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as loc
from discord.ext import commands

from ui import commands as shared
from ui.options import GameNumber
from ui.replay import replay_command
from ui.review import send_review
from ui.settings import LANGUAGE_CHOICES, game_settings

KIND = "posing"


@app_commands.guild_only()
class PosingCog(commands.GroupCog, group_name=loc("posing"),
                group_description=loc("Play Posing Pandas, the pose-dice side game "
                                          "(solo allowed)")):
    """Every /posing command; the game itself is played with the message's buttons."""

    def __init__(self, bot: commands.Bot) -> None:
        """Serve ``bot``."""
        self.bot = bot
        super().__init__()

    @app_commands.command(name=loc("new"),
                          description=loc("Open a Posing Pandas game in this channel"))
    @app_commands.describe(
        turn_timeout=loc("Seconds a player has for a decision before the computer plays the turn"),
        language=loc("The language of the game's messages (default: the server's)"),
        thread=loc("Play the game in a thread of this channel (default: the server's choice)"),
    )
    @app_commands.rename(turn_timeout=loc("turn_timeout"), language=loc("language"),
                         thread=loc("thread"))
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def new(self, interaction: discord.Interaction[Any],
                  turn_timeout: app_commands.Range[int, 15, 3600] | None = None,
                  language: str | None = None, thread: bool | None = None) -> None:
        await shared.new_game(interaction, KIND, game_settings(
            interaction, {"turn_timeout": turn_timeout}, language, thread))

    @app_commands.command(name=loc("join"), description=loc("Join the Posing Pandas lobby here"))
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        await shared.join(interaction, KIND)

    @app_commands.command(name=loc("leave"), description=loc("Leave the Posing Pandas lobby here"))
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        await shared.leave(interaction, KIND)

    @app_commands.command(name=loc("start"), description=loc("Start the game (host only)"))
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        await shared.start(interaction, KIND)

    @app_commands.command(name=loc("status"),
                          description=loc("The game in this channel, privately"))
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        await shared.status(interaction, KIND)

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
                          description=loc("Watch a finished game again, turn by turn (only you "
                                          "see it)"))
    @app_commands.describe(game=loc("The game's number (default: the last one in this "
                                    "channel)"))
    @app_commands.rename(game=loc("game"))
    async def replay(self, interaction: discord.Interaction[Any],
                     game: GameNumber | None = None) -> None:
        await replay_command(interaction, KIND, game)
