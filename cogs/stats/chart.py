"""The ``/stats`` picture: a member's last games and their average per colour column, drawn
from the service's :class:`bot.service.MemberHistory` in a worker thread.
"""

from __future__ import annotations

import asyncio
import io
from typing import Final

import discord

from bot.rules.registry import ROYALE
from bot.service import MemberHistory
from cogs.stats.cards import decimal
from pictures.charts import (
    StatsChartData,
    StatsGame,
    column_averages,
    render_stats_chart,
    royale_columns,
)
from ui.i18n import Tr

CHART_NAME: Final = "stats.png"
STEPS_OF: Final = (ROYALE.name,)
"""The kinds whose games' steps the picture needs: Panda Royale's scores, for the columns."""


def stats_chart_data(tr: Tr, name: str, member: str, history: MemberHistory
                     ) -> StatsChartData:
    """What the picture shows: the member's games (oldest first) and their average per column
    over their Panda Royale games among them.
    """
    games = tuple(StatsGame(r.kind, r.score, r.won) for r in history.results)
    columns = [royale_columns(history.steps[r.game_id], member) for r in history.results
               if r.game_id in history.steps]
    return StatsChartData(name=name, games=games, columns=column_averages(columns), words=tr,
                          ngettext=tr.ngettext, number=lambda value: decimal(tr, value))


async def stats_chart(tr: Tr, name: str, member: str, history: MemberHistory
                      ) -> discord.File | None:
    """The picture as an attachment, or None when the member has no finished game here."""
    if not history.results:
        return None
    data = stats_chart_data(tr, name, member, history)
    png = await asyncio.to_thread(render_stats_chart, data)
    return discord.File(io.BytesIO(png), filename=CHART_NAME)
