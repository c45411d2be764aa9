"""``/leaderboard`` and ``/stats``: per-server figures from finished games only, posted in the
channel in the server's language (:func:`ui.settings.server_language`).
"""

from __future__ import annotations

from typing import Any, Final

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.app_commands import locale_str as loc
from discord.ext import commands

from bot.errors import UserError
from bot.rules.registry import KINDS, ROYALE
from cogs.stats.chart import STEPS_OF, stats_chart
from cogs.stats.render import leaderboard_embed, leaderboard_view, parse_page_arg, stats_embed
from ui.cooldown import PublicCooldown
from ui.hub import ClickContext, VerbTable, hub_of, place_of
from ui.i18n import N_, tr_for
from ui.settings import server_language

STALE_BOARD: Final = N_("This leaderboard button is not valid any more.")
GAMES: Final = [Choice(name=loc(kind.title), value=kind.name) for kind in KINDS.values()]
"""The leaderboard's games: every registered kind (the kinds' titles are translated)."""
PERIODS: Final = [Choice(name=loc("all"), value="all"), Choice(name=loc("month"), value="month"),
                  Choice(name=loc("season"), value="season"),
                  Choice(name=loc("last season"), value="last-season")]


async def _page(ctx: ClickContext) -> None:
    """Previous / Next on a leaderboard message."""
    board = parse_page_arg(ctx.click.arg)
    if board is None:
        raise UserError(STALE_BOARD)
    kind, period, computers, page = board
    guild_id = place_of(ctx.interaction).guild_id
    try:
        shown = await ctx.hub.stats.leaderboard(guild_id, kind, period, page, computers)
    except UserError:
        raise UserError(STALE_BOARD) from None
    guild = ctx.interaction.guild
    tr = tr_for(await server_language(ctx.interaction))
    await ctx.interaction.edit_original_response(
        embed=leaderboard_embed(tr, shown, guild.name if guild else tr("this server")),
        view=leaderboard_view(tr, shown))


BOARD_VERBS: Final[VerbTable] = {"page": _page}


@app_commands.guild_only()
class StatsCog(commands.Cog):
    """Server leaderboards and player stats."""

    def __init__(self, bot: commands.Bot) -> None:
        """Serve ``bot``."""
        self.bot = bot
        self.cooldown = PublicCooldown(lambda: discord.utils.utcnow().timestamp())
        """One public leaderboard or stats answer per channel per window; the rest private."""

    def _public(self, interaction: discord.Interaction[Any]) -> bool:
        return interaction.channel_id is not None and self.cooldown.public(interaction.channel_id)

    @app_commands.command(name=loc("leaderboard"), description=loc("This server's best players"))
    @app_commands.describe(game=loc("Which game"),
                           period=loc("All time, this month, this season or the last one"),
                           computers=loc("Include computer players"))
    @app_commands.rename(game=loc("game"), period=loc("period"), computers=loc("computers"))
    @app_commands.choices(game=GAMES, period=PERIODS)
    async def leaderboard(
        self, interaction: discord.Interaction[Any],
        game: str = ROYALE.name,
        period: str = "all",
        computers: bool = False,
    ) -> None:
        """One page of the server's leaderboard."""
        place = place_of(interaction)
        board = await hub_of(self.bot).stats.leaderboard(place.guild_id, game, period, 0,
                                                          computers)
        guild = interaction.guild
        tr = tr_for(await server_language(interaction))
        embed = leaderboard_embed(tr, board, guild.name if guild else tr("this server"))
        view = leaderboard_view(tr, board)
        extra: dict[str, Any] = {} if view is None else {"view": view}
        await interaction.response.send_message(embed=embed, ephemeral=not self._public(
            interaction), **extra)

    @app_commands.command(name=loc("stats"), description=loc("Games, wins, scores and rating"))
    @app_commands.describe(member=loc("Whose stats (you by default)"))
    @app_commands.rename(member=loc("member"))
    async def stats(self, interaction: discord.Interaction[Any],
                    member: discord.Member | None = None) -> None:
        """A member's figures in this server, with the picture of their last games (drawn
        after the answer is deferred: Discord's three seconds hold whatever it takes).
        """
        place = place_of(interaction)
        who = member or interaction.user
        ephemeral = not self._public(interaction)
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)
        stats = hub_of(self.bot).stats
        rows = await stats.player(place.guild_id, who.id)
        earned = [a.achievement for a in await stats.achievements(place.guild_id, who.id)]
        history = await stats.history(place.guild_id, who.id, steps_of=STEPS_OF)
        tr = tr_for(await server_language(interaction))
        name = getattr(who, "display_name", who.name)
        embed = stats_embed(tr, name, rows, earned)
        # the picture as an attachment of its own (as wide as the message; an embed's image
        # is held to a few hundred pixels high, and this picture is tall)
        chart = await stats_chart(tr, name, str(who.id), history)
        await interaction.followup.send(embed=embed, files=[chart] if chart else [],
                                        ephemeral=ephemeral)
