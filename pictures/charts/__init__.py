"""Charts for after the game, drawn with matplotlib (Agg): plain values in, PNG bytes out.

:func:`render_game_chart` draws every player's running total of a finished game (the
game-over message); :func:`render_stats_chart` a member's last games and their average per
colour column (``/stats``). Both are synchronous and pure: the bot draws them in a thread,
``await asyncio.to_thread(render_game_chart, game_chart_data(kind, events, names))``.
"""

from pictures.charts.game import GameChartData, game_chart_data, render_game_chart, running_totals
from pictures.charts.stats import (
    StatsChartData,
    StatsGame,
    column_averages,
    render_stats_chart,
    royale_columns,
)

__all__ = [
    "GameChartData",
    "StatsChartData",
    "StatsGame",
    "column_averages",
    "game_chart_data",
    "render_game_chart",
    "render_stats_chart",
    "royale_columns",
    "running_totals",
]
