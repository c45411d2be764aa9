"""Charts for after the game, drawn with matplotlib (Agg): plain values in, PNG bytes out.

:func:`render_game_chart` draws the game-over chart, :func:`render_stats_chart` the ``/stats``
one; both are synchronous and pure, like the other pictures (:mod:`pictures`).
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
