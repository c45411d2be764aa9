"""``/royale``: the Panda Royale slash commands."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserError
from cogs.royale.hand import hand_embed
from cogs.royale.rules_text import rules_embed
from ui import commands as shared
from ui.hub import hub_of

KIND = "royale"


@app_commands.guild_only()
class RoyaleCog(commands.GroupCog, group_name="royale",
                group_description="Play Panda Royale, the dice-drafting game"):
    """Every /royale command; the game itself is played with the message's buttons."""

    def __init__(self, bot: commands.Bot) -> None:
        """Serve ``bot``."""
        self.bot = bot
        super().__init__()

    @app_commands.command(name="new", description="Open a Panda Royale game in this channel")
    @app_commands.describe(
        mischief="Mayhem: Mischief pandas (clear d12s that force re-rolls)",
        cannon="Mayhem: Cannon pandas (pink d8s worth x10, once)",
        mercenary="Mayhem: Mercenary pandas (green d6s worth x round, may desert)",
        turn_timeout="Seconds a player has for a decision before the computer plays it",
    )
    async def new(
        self,
        interaction: discord.Interaction[Any],
        mischief: bool = False,
        cannon: bool = False,
        mercenary: bool = False,
        turn_timeout: app_commands.Range[int, 15, 3600] | None = None,
    ) -> None:
        options = [name for name, on in (("mischief", mischief), ("cannon", cannon),
                                         ("mercenary", mercenary)) if on]
        timeout = turn_timeout or hub_of(self.bot).bot.settings.default_turn_timeout
        settings = {"expansions": options, "turn_timeout": timeout}
        await shared.new_game(interaction, KIND, settings)

    @app_commands.command(name="join", description="Join the Panda Royale lobby here")
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        await shared.join(interaction, KIND)

    @app_commands.command(name="leave", description="Leave the Panda Royale lobby here")
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        await shared.leave(interaction, KIND)

    @app_commands.command(name="start", description="Start the game (host only)")
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        await shared.start(interaction, KIND)

    @app_commands.command(name="status", description="The game in this channel, privately")
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        await shared.status(interaction, KIND)

    @app_commands.command(name="hand", description="Your dice, privately")
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
            embed=hand_embed(game, state, interaction.user.id), ephemeral=True)

    @app_commands.command(name="cancel",
                          description="Cancel the game here (host or channel managers)")
    async def cancel(self, interaction: discord.Interaction[Any]) -> None:
        await shared.cancel(interaction, KIND)

    @app_commands.command(name="rules", description="How Panda Royale is played here")
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(embed=rules_embed(), ephemeral=True)

    @app_commands.command(name="log",
                          description="The game log (JSON Lines) of the current or last game")
    async def log(self, interaction: discord.Interaction[Any]) -> None:
        await shared.send_log(interaction, KIND)
