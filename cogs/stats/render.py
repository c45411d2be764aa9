"""Leaderboard pages and player stats as embeds."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

import discord

from bot.service import GAME_TITLES
from cogs.common.components import Click, GameButton
from storage import LeaderRow, StatsRow

PAGE_SIZE = 10
PERIODS = {"all": "all time", "month": "this month"}


def month_start_ms(now: dt.datetime) -> int:
    """Milliseconds at the start of ``now``'s month (UTC)."""
    start = now.astimezone(dt.UTC).replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    return int(start.timestamp() * 1000)


def leaderboard_embed(kind: str, period: str, rows: Sequence[LeaderRow], page: int,
                      pages: int, guild_name: str) -> discord.Embed:
    title = f"{GAME_TITLES[kind]} leaderboard · {PERIODS[period]}"
    if not rows:
        desc = "No finished games yet: start one with " + f"`/{kind} new`."
    else:
        lines = []
        for r in rows:
            rating = f"{r.ordinal:.1f}" if r.ordinal is not None else "–"
            bot = "🤖 " if r.is_bot else ""
            lines.append(
                f"**{r.position}.** {bot}{r.display_name} · rating {rating} · "
                f"{r.wins}/{r.games} wins ({100 * r.win_rate:.0f}%) · "
                f"best {r.best_score} · avg {r.average_score:.1f}")
        desc = "\n".join(lines)
    order = ("ordered by rating (openskill, μ − 3σ)" if period == "all"
             else "ordered by wins, then average score")
    return discord.Embed(title=title, description=desc[:4000], color=0x9B59B6).set_footer(
        text=f"{guild_name} · page {page + 1}/{max(pages, 1)} · {order}")


def leaderboard_view(kind: str, period: str, page: int, pages: int, bots: bool
                     ) -> discord.ui.View | None:
    if pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    arg = f"{kind}.{period}.{int(bots)}"
    view.add_item(GameButton(Click(0, max(page - 1, 0), "lb", arg), label="Previous",
                             emoji="◀️", disabled=page == 0))
    view.add_item(GameButton(Click(0, min(page + 1, pages - 1), "lb", arg), label="Next",
                             emoji="▶️", disabled=page >= pages - 1))
    return view


def stats_embed(name: str, rows: Sequence[StatsRow]) -> discord.Embed:
    embed = discord.Embed(title=f"Stats of {name}", color=0x9B59B6)
    if not rows:
        embed.description = "No finished games in this server yet."
    for r in rows:
        rating = (f"{r.ordinal:.1f} (μ {r.mu:.1f}, σ {r.sigma:.1f})"
                  if r.ordinal is not None and r.mu is not None and r.sigma is not None
                  else "not rated yet (solo games are not rated)")
        embed.add_field(
            name=GAME_TITLES[r.kind],
            value=(f"Games **{r.games}** · wins **{r.wins}** ({100 * r.win_rate:.0f}%)\n"
                   f"Best **{r.best_score}** · average **{r.average_score:.1f}**\n"
                   f"Rating {rating}"),
            inline=False)
    return embed
