"""The ``/stats`` chart: a member's last games and their average per colour column.

From the top: the member's name; one panel per game kind they played among their last
:data:`LAST_GAMES` games (oldest on the left, newest on the right, the same game in the same
place in every panel), each game's score as a point (a gold star for a win) and the kind's
average as a dashed line; then their average per Panda Royale game in each of the seven colour
columns, as bars in the columns' colours with the column names and the values written out (the
colours are not the only cue).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from matplotlib.lines import Line2D
from matplotlib.ticker import FixedLocator, MaxNLocator, NullLocator
from PIL import Image

from bot.rules.registry import GAME_KINDS, ROYALE, kind_of
from bot.rules.royale.dice import COLUMN_NAMES
from pictures.charts.base import (
    MARGIN,
    NAME_PX,
    OKABE_ITO,
    TICK_PX,
    TITLE_PX,
    VALUE_PX,
    WIDTH,
    Overlay,
    axes,
    chart_style,
    figure,
    heading,
    pt,
    rendered,
    rgb,
)
from pictures.fonts import draw_line, text_tile
from pictures.palette import (
    COLUMN_COLORS,
    INK,
    MUTED,
    RULE,
    WINNER,
    WINNER_EDGE,
    shade,
)
from pictures.png import to_png
from pictures.royale_sheet import COLUMN_LABELS
from pictures.text import player_name
from pictures.words import N_, Plural, Words, english, english_plural

LAST_GAMES: Final = 30
AVERAGE: Final = N_("average {value}")
WIN: Final = N_("win")
BY_COLUMN: Final = N_("Average per game, by column")

OTHER_KIND: Final = OKABE_ITO[3]
"""The points and average line of a kind whose registry entry gives no colour (``color``)."""

TITLE_H: Final = 64
HEAD_H: Final = 54
"""A panel's heading: the kind (or "Average per game, by column") and its average."""
PANEL_H: Final = 230
TICKS_H: Final = 50
KEY_H: Final = 44
"""The line under the game panels that says what a star is."""
PLOT_LEFT: Final = 112
PLOT_RIGHT: Final = WIDTH - 30
BAR_STEP: Final = 50
BAR_H: Final = 0.72
"""A bar's height as a share of :data:`BAR_STEP`."""
POINT_PX: Final = 16
STAR_PX: Final = 30
_STAR: Final[dict[str, Any]] = {
    "marker": "*", "markersize": pt(STAR_PX), "color": rgb(WINNER),
    "markeredgecolor": rgb(WINNER_EDGE), "markeredgewidth": pt(2)}
"""How a win is marked, on the panels and in the key under them."""


def one_decimal(value: float) -> str:
    """An average as written by default: one decimal (``512.3``, ``-1.5``)."""
    return f"{value:.1f}"


@dataclass(frozen=True, slots=True)
class StatsGame:
    """One finished game of the member: its kind (the registry's name), their score, whether
    they won (shared wins count).
    """

    kind: str
    score: int
    won: bool = False


@dataclass(frozen=True, slots=True)
class StatsChartData:
    """What the stats chart shows, as plain values.

    ``games`` are the member's games, oldest first (only the last :data:`LAST_GAMES` are
    drawn); ``columns`` their average per Panda Royale game in each column (yellow ... pink),
    None when they have played none.
    """

    name: str
    games: tuple[StatsGame, ...]
    columns: tuple[float, ...] | None = None
    words: Words = field(default=english, compare=False)
    """The labels' language (see :mod:`pictures.words`)."""
    ngettext: Plural = field(default=english_plural, compare=False)
    """The labels with plural forms, in the same language."""
    number: Callable[[float], str] = field(default=one_decimal, compare=False)
    """How an average is written (the Discord layer passes the language's number format)."""

    def __post_init__(self) -> None:
        for g in self.games:
            kind_of(g.kind)  # ValueError for an unknown kind
        if self.columns is not None and len(self.columns) != len(COLUMN_NAMES):
            raise ValueError(f"the column averages are {len(COLUMN_NAMES)} numbers")

    def shown(self) -> tuple[StatsGame, ...]:
        """The games drawn: the last :data:`LAST_GAMES`."""
        return self.games[-LAST_GAMES:]

    def kinds(self) -> list[str]:
        """The kinds among the games drawn, in the registry's order: one panel each."""
        present = {g.kind for g in self.shown()}
        return [k for k in GAME_KINDS if k in present]


def royale_columns(events: Iterable[Mapping[str, Any]], player: str) -> tuple[int, ...]:
    """``player``'s game total in each of the seven columns, from a Panda Royale game's log
    objects (the sum of their ``score`` events' ``columns``).
    """
    sums = [0] * len(COLUMN_NAMES)
    for e in events:
        if e.get("event") == "score" and e.get("player") == player:
            columns = e["columns"]
            for i, name in enumerate(COLUMN_NAMES):
                sums[i] += int(columns[name])
    return tuple(sums)


def column_averages(games: Sequence[Sequence[int]]) -> tuple[float, ...] | None:
    """The average of each column over ``games`` (each seven column totals, as
    :func:`royale_columns` gives them); None for no game.
    """
    if not games:
        return None
    return tuple(sum(g[i] for g in games) / len(games) for i in range(len(COLUMN_NAMES)))


def panel_top(data: StatsChartData, index: int) -> int:
    """The top of the ``index``-th game panel's heading."""
    return TITLE_H + index * (HEAD_H + PANEL_H + TICKS_H)


def columns_top(data: StatsChartData) -> int:
    """The top of the column panel's heading."""
    kinds = len(data.kinds())
    return panel_top(data, kinds) + (KEY_H if kinds else 0)


def chart_size(data: StatsChartData) -> tuple[int, int]:
    """Width and height of the chart."""
    height = columns_top(data)
    if data.columns is not None:
        height += HEAD_H + len(COLUMN_NAMES) * BAR_STEP + 12
    return WIDTH, height + MARGIN


def render_stats_chart(data: StatsChartData) -> bytes:
    """The stats chart as PNG bytes (800 px wide)."""
    return to_png(draw_stats_chart(data))


def draw_stats_chart(data: StatsChartData) -> Image.Image:
    """The stats chart as an RGB image (what :func:`render_stats_chart` encodes)."""
    _, height = chart_size(data)
    words = data.words
    shown = data.shown()
    last = data.ngettext("Last {n} game", "Last {n} games", len(shown))
    overlays: list[Overlay] = [heading(player_name(data.name, 0), last, 0, TITLE_H, TITLE_PX,
                                       one_off=True)]
    with chart_style():
        fig = figure(height)
        for index, kind in enumerate(data.kinds()):
            top = panel_top(data, index)
            games = [(x, g) for x, g in enumerate(shown, start=1) if g.kind == kind]
            average = sum(g.score for _, g in games) / len(games)
            overlays.append(heading(words(kind_of(kind).title),
                                    words(AVERAGE, value=data.number(average)),
                                    top, top + HEAD_H - 8, NAME_PX, one_off=True))
            ax = axes(fig, PLOT_LEFT, top + HEAD_H, PLOT_RIGHT, top + HEAD_H + PANEL_H)
            color = rgb(kind_of(kind).color or OTHER_KIND)
            xs = [x for x, _ in games]
            ys = [g.score for _, g in games]
            ax.plot(xs, ys, color=color, linewidth=pt(3), zorder=3, marker="o",
                    markersize=pt(POINT_PX), markeredgecolor=rgb((255, 255, 255)),
                    markeredgewidth=pt(1.5), clip_on=False)
            wins = [(x, g.score) for x, g in games if g.won]
            if wins:
                ax.plot([x for x, _ in wins], [y for _, y in wins], linestyle="none", zorder=4,
                        clip_on=False, **_STAR)
            ax.axhline(average, color=color, linestyle=(0, (3, 2)), linewidth=pt(3), zorder=2)
            low, high = min(min(ys), average), max(max(ys), average)
            if low < 0 < high or low == high == 0:
                ax.axhline(0, color=rgb(RULE), linewidth=pt(2.5), zorder=2)
            ax.set_xlim(0.5, max(len(shown), 1) + 0.5)
            ticks = sorted({1, len(shown), *range(5, len(shown) + 1, 5)})
            ax.xaxis.set_major_locator(FixedLocator(ticks))
            ax.yaxis.set_major_locator(MaxNLocator(nbins=4, integer=True))
            ax.margins(y=0.12)
        if data.kinds():
            y = columns_top(data) - KEY_H / 2
            fig.lines.append(Line2D([(MARGIN + 20) / WIDTH], [1 - y / height], linestyle="none",
                                    transform=fig.transFigure, **_STAR))
            overlays.append(_key(words(WIN), y))
        if data.columns is not None:
            _columns(fig, data, height, overlays)
        image = rendered(fig, overlays)
    return image


def _columns(fig: Any, data: StatsChartData, height: int, overlays: list[Overlay]) -> None:
    assert data.columns is not None
    words = data.words
    top = columns_top(data)
    overlays.append(heading(words(BY_COLUMN), words(ROYALE.title), top, top + HEAD_H - 8,
                            NAME_PX))
    labels = [words(label) for label in COLUMN_LABELS]
    room = max(text_tile(label, TICK_PX, INK).image.width for label in labels)
    left = min(max(PLOT_LEFT, MARGIN + room + 18), WIDTH // 2)
    bottom = top + HEAD_H + len(COLUMN_NAMES) * BAR_STEP
    ax = axes(fig, left, top + HEAD_H, PLOT_RIGHT - 10, bottom)
    values = list(data.columns)
    ys = list(range(len(values)))
    colors = [COLUMN_COLORS[name] for name in COLUMN_NAMES]
    ax.barh(ys, values, height=BAR_H, color=[rgb(c) for c in colors],
            edgecolor=[rgb(shade(c, 0.35)) for c in colors], linewidth=pt(2), zorder=3)
    ax.set_yticks(ys, labels)
    ax.invert_yaxis()  # yellow on top, as on the score sheet
    ax.tick_params(axis="y", length=0, pad=pt(10))
    ax.xaxis.set_major_locator(NullLocator())
    ax.grid(False)
    ax.spines["bottom"].set_visible(False)
    ax.spines["left"].set_visible(False)  # the zero line is the bars' axis
    low, high = min(0.0, *values), max(0.0, *values)
    span = (high - low) or 1.0
    ax.set_xlim(low - (0.28 * span if low < 0 else 0), high + 0.28 * span)
    ax.axvline(0, color=rgb(RULE), linewidth=pt(2), zorder=4)
    for y, value in zip(ys, values, strict=True):
        gap = 0.02 * span
        ax.text(value + (gap if value >= 0 else -gap), y, data.number(value),
                ha="left" if value >= 0 else "right", va="center", fontsize=pt(VALUE_PX),
                fontweight="bold", color=rgb(INK), zorder=5)


def _key(label: str, y: float) -> Overlay:
    def draw(image: Image.Image) -> None:
        draw_line(image, (MARGIN + 44, y), label, VALUE_PX - 4, MUTED)
    return draw

