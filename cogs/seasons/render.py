"""A season's podium as a message: for each game played in the season, its best three people
(by wins, then average score), in the server's language.
"""

from __future__ import annotations

from typing import Final

import discord
from babel.numbers import format_decimal

from bot.rules.registry import kind_of
from bot.service import SeasonEnd
from ui.i18n import Tr
from ui.names import MEDALS, safe
from ui.seasons import season_name

PODIUM_COLOR: Final = 0xF1C40F


def podium_embed(tr: Tr, end: SeasonEnd) -> discord.Embed:
    """The podium of ``end``'s season (at least one game finished in it)."""
    name = season_name(tr, end.season)
    embed = discord.Embed(title=tr("🏆 Season {season}: the podium", season=name),
                          color=PODIUM_COLOR)
    for kind, entries in end.podium.items():
        lines = []
        for medal, entry in zip(MEDALS, entries, strict=False):
            avg = format_decimal(round(entry.average_score, 1), format="#,##0.0",
                                 locale=tr.lang)
            lines.append(f"{medal} **{safe(entry.display_name)}** · " + tr.ngettext(
                "{n} win in {games} games · average {avg}",
                "{n} wins in {games} games · average {avg}", entry.wins,
                games=tr.num(entry.games), avg=avg))
        embed.add_field(name=tr(kind_of(kind).title), value="\n".join(lines)[:1024],
                        inline=False)
    footer = tr("Ratings start again from today.") if end.reset \
        else tr("Ratings carry on into the new season.")
    embed.set_footer(text=footer + " " + tr("/leaderboard period: last season shows the whole "
                                            "table."))
    return embed


def podium_content(tr: Tr, end: SeasonEnd) -> str:
    """The podium message's text (it pings nobody)."""
    return tr("Season {season} is over! Congratulations to the best players.",
              season=season_name(tr, end.season))
