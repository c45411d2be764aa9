"""``/posing``: the Posing Pandas slash commands."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from ui import commands as shared
from ui.hub import hub_of

KIND = "posing"


@app_commands.guild_only()
class PosingCog(commands.GroupCog, group_name="posing",
                group_description="Play Posing Pandas, the pose-dice side game (solo allowed)"):
    """Every /posing command; the game itself is played with the message's buttons."""

    def __init__(self, bot: commands.Bot) -> None:
        """Serve ``bot``."""
        self.bot = bot
        super().__init__()

    @app_commands.command(name="new", description="Open a Posing Pandas game in this channel")
    @app_commands.describe(
        turn_timeout="Seconds a player has for a decision before the computer plays the turn",
    )
    async def new(self, interaction: discord.Interaction[Any],
                  turn_timeout: app_commands.Range[int, 15, 3600] | None = None) -> None:
        timeout = turn_timeout or hub_of(self.bot).bot.settings.default_turn_timeout
        await shared.new_game(interaction, KIND, {"turn_timeout": timeout})

    @app_commands.command(name="join", description="Join the Posing Pandas lobby here")
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        await shared.join(interaction, KIND)

    @app_commands.command(name="leave", description="Leave the Posing Pandas lobby here")
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        await shared.leave(interaction, KIND)

    @app_commands.command(name="start", description="Start the game (host only)")
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        await shared.start(interaction, KIND)

    @app_commands.command(name="status", description="The game in this channel, privately")
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        await shared.status(interaction, KIND)

    @app_commands.command(name="cancel",
                          description="Cancel the game here (host or channel managers)")
    async def cancel(self, interaction: discord.Interaction[Any]) -> None:
        await shared.cancel(interaction, KIND)

    @app_commands.command(name="log",
                          description="The game log (JSON Lines) of the current or last game")
    async def log(self, interaction: discord.Interaction[Any]) -> None:
        await shared.send_log(interaction, KIND)
