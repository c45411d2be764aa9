"""Leaderboard pages and player stats as embeds."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import discord
from babel.numbers import format_decimal, format_percent

from bot.rules.registry import kind_of
from bot.service import LeaderboardPage, PlayerStats
from ui.achievements import stats_heading, stats_lines
from ui.clicks import Click
from ui.components import BoardComponent
from ui.i18n import N_, Tr
from ui.names import localised_name
from ui.seasons import season_name

PERIODS: Final = {"all": N_("all time"), "month": N_("this month"),
                  "season": N_("this season ({season})"),
                  "last-season": N_("last season ({season})")}
RATING_WORDS: Final = N_("Rating: a cautious skill estimate that rises as you win, more so "
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


def decimal(tr: Tr, value: float) -> str:
    """A figure with one decimal, as ``tr``'s language writes it (Babel)."""
    return format_decimal(round(value, 1), format="#,##0.0", locale=tr.lang)


def leaderboard_embed(tr: Tr, board: LeaderboardPage, guild_name: str) -> discord.Embed:
    """One page of a leaderboard."""
    season = "" if board.season is None else season_name(tr, board.season)
    title = tr("{game} leaderboard · {period}", game=tr(kind_of(board.kind).title),
               period=tr(PERIODS[board.period], season=season))
    if not board.entries:
        desc = tr("No finished games yet: start one with `/{kind} new`.", kind=board.kind)
    else:
        lines = []
        for r in board.entries:
            rating = decimal(tr, r.ordinal) if r.ordinal is not None else "–"
            bot = "🤖 " if r.is_bot else ""
            name = r.display_name
            if r.is_bot and "(computer" not in name:
                name += " (computer)"
            name = discord.utils.escape_markdown(localised_name(tr, name, r.is_bot))
            lines.append(f"**{r.position}.** {bot}{name} · " + tr(
                "rating {rating} · {wins}/{games} wins ({percent}) · best {best} · avg {avg}",
                rating=rating, wins=r.wins, games=r.games,
                percent=format_percent(r.win_rate, locale=tr.lang), best=r.best_score,
                avg=decimal(tr, r.average_score)))
        desc = "\n".join(lines)
    order = (tr("ordered by rating.") + " " + tr(RATING_WORDS) if board.period == "all"
             else tr("ordered by wins, then average score"))
    return discord.Embed(title=title, description=desc[:4000], color=0x9B59B6).set_footer(
        text=tr("{server} · page {n}/{pages} · {order}", server=guild_name, n=board.page + 1,
                pages=max(board.pages, 1), order=order))


def leaderboard_view(tr: Tr, board: LeaderboardPage) -> discord.ui.View | None:
    """Previous / Next, when there is more than one page."""
    if board.pages <= 1:
        return None
    view = discord.ui.View(timeout=None)

    def to(page: int) -> Click:
        return Click("page", arg=page_arg(board.kind, board.period, board.computers, page))

    view.add_item(BoardComponent.button(to(max(board.page - 1, 0)), label=tr("Previous"),
                                        emoji="◀️", disabled=board.page == 0))
    view.add_item(BoardComponent.button(to(min(board.page + 1, board.pages - 1)),
                                        label=tr("Next"), emoji="▶️",
                                        disabled=board.page >= board.pages - 1))
    return view


def stats_embed(tr: Tr, name: str, rows: Sequence[PlayerStats],
                achievements: Sequence[str] = ()) -> discord.Embed:
    """A member's figures per game kind, and the achievements they earned here."""
    embed = discord.Embed(title=tr("Stats of {name}", name=discord.utils.escape_markdown(name)),
                          color=0x9B59B6)
    if not rows:
        embed.description = tr("No finished games in this server yet.")
    for r in rows:
        if r.ordinal is not None and r.mu is not None and r.sigma is not None:
            rating = tr("{rating}: a cautious skill estimate (skill about {mu}, give or take "
                        "{sigma}); it rises as you win against strong players",
                        rating=decimal(tr, r.ordinal), mu=decimal(tr, r.mu),
                        sigma=decimal(tr, r.sigma))
        else:
            rating = tr("not rated yet (solo games are not rated)")
        embed.add_field(
            name=tr(kind_of(r.kind).title),
            value=tr("Games **{games}** · wins **{wins}** ({percent})\nBest **{best}** · "
                     "average **{avg}**\nRating {rating}", games=r.games, wins=r.wins,
                     percent=format_percent(r.win_rate, locale=tr.lang), best=r.best_score,
                     avg=decimal(tr, r.average_score), rating=rating),
            inline=False)
    if achievements:
        embed.add_field(name=stats_heading(tr, len(achievements)),
                        value=stats_lines(tr, achievements), inline=False)
    return embed
