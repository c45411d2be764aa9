"""Leaderboard pages and player stats as embeds."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import discord

from bot.rules.registry import kind_of
from bot.service import LeaderboardPage, PlayerStats
from ui.clicks import Click
from ui.components import BoardComponent

PERIODS: Final = {"all": "all time", "month": "this month"}
RATING_WORDS: Final = ("Rating: a cautious skill estimate that rises as you win, more so "
                       "against strong players; it is surer (and higher) after more games.")


def page_arg(kind: str, period: str, computers: bool, page: int) -> str:
    """The argument of a page button: which board and which page."""
    return f"{kind}.{period}.{int(computers)}.{page}"


def parse_page_arg(arg: str) -> tuple[str, str, bool, int] | None:
    """The board and page of a page button's argument, or None when it is not one."""
    parts = arg.split(".")
    if len(parts) != 4 or parts[2] not in ("0", "1") or not parts[3].isdigit():
        return None
    return parts[0], parts[1], parts[2] == "1", int(parts[3])


def leaderboard_embed(board: LeaderboardPage, guild_name: str) -> discord.Embed:
    """One page of a leaderboard."""
    title = f"{kind_of(board.kind).title} leaderboard · {PERIODS[board.period]}"
    if not board.entries:
        desc = f"No finished games yet: start one with `/{board.kind} new`."
    else:
        lines = []
        for r in board.entries:
            rating = f"{r.ordinal:.1f}" if r.ordinal is not None else "–"
            bot = "🤖 " if r.is_bot else ""
            name = discord.utils.escape_markdown(r.display_name)
            if r.is_bot and "(computer" not in name:
                name += " (computer)"
            lines.append(
                f"**{r.position}.** {bot}{name} · rating {rating} · "
                f"{r.wins}/{r.games} wins ({100 * r.win_rate:.0f}%) · "
                f"best {r.best_score} · avg {r.average_score:.1f}")
        desc = "\n".join(lines)
    order = ("ordered by rating. " + RATING_WORDS if board.period == "all"
             else "ordered by wins, then average score")
    return discord.Embed(title=title, description=desc[:4000], color=0x9B59B6).set_footer(
        text=f"{guild_name} · page {board.page + 1}/{max(board.pages, 1)} · {order}")


def leaderboard_view(board: LeaderboardPage) -> discord.ui.View | None:
    """Previous / Next, when there is more than one page."""
    if board.pages <= 1:
        return None
    view = discord.ui.View(timeout=None)

    def to(page: int) -> Click:
        return Click("page", arg=page_arg(board.kind, board.period, board.computers, page))

    view.add_item(BoardComponent.button(to(max(board.page - 1, 0)), label="Previous",
                                        emoji="◀️", disabled=board.page == 0))
    view.add_item(BoardComponent.button(to(min(board.page + 1, board.pages - 1)), label="Next",
                                        emoji="▶️", disabled=board.page >= board.pages - 1))
    return view


def stats_embed(name: str, rows: Sequence[PlayerStats]) -> discord.Embed:
    """A member's figures per game kind."""
    embed = discord.Embed(title=f"Stats of {discord.utils.escape_markdown(name)}",
                          color=0x9B59B6)
    if not rows:
        embed.description = "No finished games in this server yet."
    for r in rows:
        rating = (f"{r.ordinal:.1f}: a cautious skill estimate (skill about {r.mu:.1f}, "
                  f"give or take {r.sigma:.1f}); it rises as you win against strong players"
                  if r.ordinal is not None and r.mu is not None and r.sigma is not None
                  else "not rated yet (solo games are not rated)")
        embed.add_field(
            name=kind_of(r.kind).title,
            value=(f"Games **{r.games}** · wins **{r.wins}** ({100 * r.win_rate:.0f}%)\n"
                   f"Best **{r.best_score}** · average **{r.average_score:.1f}**\n"
                   f"Rating {rating}"),
            inline=False)
    return embed
