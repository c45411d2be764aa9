"""Leaderboard pages and a member's stats as Components V2 cards, in plain words: a rating is
a whole number that starts at 1,000 (:func:`bot.ratings.shown_rating`), counts take their
plural forms, and a private answer says why it is private.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import discord
from babel.numbers import format_decimal, format_percent

from bot.errors import UserError
from bot.ratings import RATING_START, shown_rating
from bot.rules.achievements import ACHIEVEMENTS, BY_ID
from bot.rules.registry import kind_of
from bot.service import LeaderboardPage, PlayerStats
from ui.cards import layout, row, separator, text
from ui.i18n import N_, Tr, tr_for
from ui.items import Clicked, GameItem, Verb, place_of
from ui.names import localised_name
from ui.seasons import season_name
from ui.settings import server_language

PREFIX: Final = "lb"
STATS: Final = 0x9B59B6
PERIODS: Final = {"all": N_("all time"), "month": N_("this month"),
                  "season": N_("this season ({season})"),
                  "last-season": N_("last season ({season})")}
RATING_WORDS: Final = N_("Ratings start at {start} and rise as you win, more so against strong "
                         "players.")
PRIVATE_WHY: Final = N_("Only you see this: a leaderboard or stats card was posted here a "
                        "moment ago.")
BADGE: Final = "🏅"
STALE_BOARD: Final = N_("This leaderboard button is not valid any more.")


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


def rating_text(tr: Tr, ordinal: float | None) -> str:
    """A rating as players read it (a dash when the player is not rated)."""
    if ordinal is None:
        return "–"
    return format_decimal(shown_rating(ordinal), locale=tr.lang)


def games_text(tr: Tr, wins: int, games: int, win_rate: float) -> str:
    """"3 wins in 7 games (43 %)", plurals right."""
    return tr.ngettext("{wins} win", "{wins} wins", wins, wins=wins) + " " + tr.ngettext(
        "in {games} game", "in {games} games", games, games=games) + \
        f" ({format_percent(win_rate, locale=tr.lang)})"


def leaderboard_lines(tr: Tr, board: LeaderboardPage) -> str:
    """The page's players, one line each."""
    if not board.entries:
        return tr("No finished games yet: start one with `/{kind} new`.", kind=board.kind)
    lines = []
    for r in board.entries:
        name = r.display_name
        if r.is_bot and "(computer" not in name:
            name += " (computer)"
        name = discord.utils.escape_markdown(localised_name(tr, name, r.is_bot))
        figures = games_text(tr, r.wins, r.games, r.win_rate) + " · " + tr(
            "best {best} · average {avg}", best=r.best_score, avg=decimal(tr, r.average_score))
        if board.period == "all":
            figures = tr("rating {rating}", rating=rating_text(tr, r.ordinal)) + " · " + figures
        lines.append(f"**{r.position}.** {'🤖 ' if r.is_bot else ''}{name}\n-# {figures}")
    return "\n".join(lines)


def leaderboard_card(tr: Tr, board: LeaderboardPage, guild_name: str, private_why: str = ""
                     ) -> discord.ui.LayoutView:
    """One page of a leaderboard, with Previous / Next when there are more."""
    season = "" if board.season is None else season_name(tr, board.season)
    title = tr("{game} leaderboard · {period}", game=tr(kind_of(board.kind).title),
               period=tr(PERIODS[board.period], season=season))
    order = (tr("Ordered by rating.") + " " + tr(RATING_WORDS, start=format_decimal(
        RATING_START, locale=tr.lang)) if board.period == "all"
        else tr("Ordered by wins, then average score."))
    footer = tr("{server} · page {n} of {pages}", server=discord.utils.escape_markdown(
        guild_name), n=board.page + 1, pages=max(board.pages, 1))
    pages: discord.ui.Item[Any] | None = None
    if board.pages > 1:
        def to(page: int) -> str:
            return page_arg(board.kind, board.period, board.computers, page)
        pages = row(
            TurnPage.button(PREFIX, arg=to(max(board.page - 1, 0)), label=tr("Previous"),
                                    emoji="◀️", disabled=board.page == 0),
            TurnPage.button(PREFIX, arg=to(min(board.page + 1, board.pages - 1)),
                                    label=tr("Next"), emoji="▶️",
                                    disabled=board.page >= board.pages - 1))
    notes = f"-# {footer}\n-# {order}" + (f"\n-# {private_why}" if private_why else "")
    return layout(STATS, text(f"### {title}"), text(leaderboard_lines(tr, board)[:3500]),
                  separator(), text(notes), pages)


def achievement_lines(tr: Tr, earned: Sequence[str]) -> str:
    """The heading and one line per achievement earned (name: how it is earned)."""
    have = set(earned)
    lines = [f"{BADGE} **{tr(a.name)}**: {tr(a.description)}" for a in ACHIEVEMENTS
             if a.id in have]
    heading = tr("Achievements ({n} of {total})", n=len(lines), total=len(ACHIEVEMENTS))
    return "\n".join([f"**{heading}**", *lines])


def stats_card(tr: Tr, name: str, rows: Sequence[PlayerStats], earned: Sequence[str] = (),
               chart: str | None = None, private_why: str = "") -> discord.ui.LayoutView:
    """A member's figures per game kind, the picture of their last games (``chart``: its
    file name) and the achievements they earned here.
    """
    parts: list[discord.ui.Item[Any] | None] = [
        text("### " + tr("Stats of {name}", name=discord.utils.escape_markdown(name)))]
    if not rows:
        parts.append(text(tr("No finished games in this server yet.")))
    for r in rows:
        if r.ordinal is not None and r.rated_games:
            rating = tr("Rating **{rating}** (everyone starts at {start})",
                        rating=rating_text(tr, r.ordinal),
                        start=format_decimal(RATING_START, locale=tr.lang))
        else:
            rating = tr("Not rated yet (solo games are not rated)")
        parts.append(text("\n".join([
            f"**{tr(kind_of(r.kind).title)}**",
            games_text(tr, r.wins, r.games, r.win_rate),
            tr("Best **{best}** · average **{avg}**", best=r.best_score,
               avg=decimal(tr, r.average_score)),
            rating])))
    if chart is not None:
        parts.append(discord.ui.MediaGallery(discord.MediaGalleryItem(
            f"attachment://{chart}", description=tr("{name}'s last games", name=name))))
    if earned and set(earned) & set(BY_ID):
        parts += [separator(), text(achievement_lines(tr, earned)[:1500])]
    if private_why:
        parts.append(text(f"-# {private_why}"))
    return layout(STATS, *parts)


class TurnPage(GameItem, prefixes=PREFIX, verb=Verb.PAGE, about_a_game=False):
    """Previous / Next on a leaderboard: the clicked message shows the other page."""

    async def act(self, clicked: Clicked) -> None:
        board = parse_page_arg(clicked.arg)
        if board is None:
            raise UserError(STALE_BOARD)
        kind, period, computers, page = board
        guild_id = place_of(clicked.interaction).guild_id
        try:
            shown = await clicked.bot.stats.leaderboard(guild_id, kind, period, page, computers)
        except UserError:
            raise UserError(STALE_BOARD) from None
        guild = clicked.interaction.guild
        tr = tr_for(await server_language(clicked.interaction))
        where = guild.name if guild else tr("this server")
        await clicked.redraw(leaderboard_card(tr, shown, where))
