"""The game-over chart: every player's running total, round by round (Panda Royale) or turn by
turn (Posing Pandas).

One line per player in the colour, marker and line style of their seat (:func:`series`), the
winners' lines thicker and on top; below the plot, the standings as a legend: each player's
line and marker, their name as written (any script, cut to its room) and their final total.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle
from matplotlib.ticker import FixedLocator, MaxNLocator
from PIL import Image

from bot.rules.registry import kind_of
from pictures.charts.base import (
    MARGIN,
    NAME_PX,
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
    series,
)
from pictures.fonts import draw_line
from pictures.palette import INK, RULE, STRIPE, WINNER_EDGE, WINNER_TINT, number_ink
from pictures.png import to_png
from pictures.text import highest, shown_names
from pictures.words import N_, Words, english

MAX_PLAYERS: Final = 10
ROUND: Final = N_("Rounds")
TURN: Final = N_("Turns")
"""Labels of the x axis: a kind's steps as its registry entry names them
(:class:`bot.rules.registry.Progress`)."""

TITLE_H: Final = 64
PLOT_TOP: Final = TITLE_H + 16
PLOT_H: Final = 440
PLOT_LEFT: Final = 112
PLOT_RIGHT: Final = WIDTH - 30
AXIS_H: Final = 92
"""Below the plot: the tick numbers and the axis label."""
ROW_H: Final = 50
"""One legend row per player."""
SAMPLE_W: Final = 72
LINE_PX: Final = 5
WINNER_LINE_PX: Final = 8
MARKER_PX: Final = 16
VALUE_W: Final = 130


@dataclass(frozen=True, slots=True)
class GameChartData:
    """What the game chart shows, as plain values (seat order).

    ``totals[seat][i]`` is the seat's game total after step ``i + 1`` (a round of Panda Royale,
    a turn of Posing Pandas); every seat has the same number of steps.
    """

    names: tuple[str, ...]
    totals: tuple[tuple[int, ...], ...]
    step: str = ROUND
    """The x axis's label (a msgid: :data:`ROUND` or :data:`TURN`)."""
    title: str = ""
    words: Words = field(default=english, compare=False)
    """The labels' language (see :mod:`pictures.words`)."""

    def __post_init__(self) -> None:
        n = len(self.names)
        if not 1 <= n <= MAX_PLAYERS:
            raise ValueError(f"a game chart has 1 to {MAX_PLAYERS} players, not {n}")
        if len(self.totals) != n:
            raise ValueError("one line of totals per player")
        if len({len(t) for t in self.totals}) != 1 or not self.totals[0]:
            raise ValueError("every player needs the same number of steps, at least one")

    def finals(self) -> list[int]:
        return [t[-1] for t in self.totals]

    def winners(self) -> list[int]:
        """The seats sharing the highest last total."""
        return highest(self.finals())

    def standings(self) -> list[int]:
        """The seats from the highest last total down (seat order among ties)."""
        finals = self.finals()
        return sorted(range(len(finals)), key=lambda s: (-finals[s], s))


def running_totals(kind: str, events: Iterable[Mapping[str, Any]]) -> dict[str, list[int]]:
    """Each player's running total from a game's log objects (docs/game-log.md): after each of
    their steps as the kind's registry entry counts them (its ``progress``: each round's
    ``score`` in Panda Royale, each ``fill`` in Posing Pandas), in seat order.
    """
    progress = kind_of(kind).progress
    if progress is None:
        raise ValueError(f"the game kind {kind!r} counts no steps to chart")
    totals: dict[str, list[int]] = {}
    for e in events:
        if e.get("event") == "setup":
            totals = {str(p): [] for p in e["players"]}
        elif e.get("event") == progress.event:
            line = totals.setdefault(str(e["player"]), [])
            line.append((line[-1] if line else 0) + int(e[progress.points]))
    return totals


def game_chart_data(kind: str, events: Iterable[Mapping[str, Any]], names: Sequence[str],
                    title: str = "", words: Words = english) -> GameChartData:
    """The :class:`GameChartData` of a game's log objects (``kind`` as the registry names it),
    with ``names`` in seat order; a player with fewer steps than the others (an unfinished log)
    keeps their last total.
    """
    events = list(events)
    setup = next((e for e in events if e.get("event") == "setup"), None)
    if setup is None:
        raise ValueError("a game log starts with its setup")
    lines = running_totals(kind, events)
    steps = max((len(t) for t in lines.values()), default=0) or 1
    totals = []
    for p in setup["players"]:
        line = lines.get(p, [])
        totals.append(tuple(line + [line[-1] if line else 0] * (steps - len(line))))
    progress = kind_of(kind).progress
    step = progress.axis if progress is not None else ROUND
    return GameChartData(names=tuple(names), totals=tuple(totals), step=step, title=title,
                         words=words)


def chart_size(data: GameChartData) -> tuple[int, int]:
    """Width and height of the chart."""
    return WIDTH, legend_top() + len(data.names) * ROW_H + MARGIN


def legend_top() -> int:
    """The top of the first legend row."""
    return PLOT_TOP + PLOT_H + AXIS_H


def legend_row(rank: int) -> tuple[int, int]:
    """Top and bottom of the legend row of the ``rank``-th player of the standings (0 first)."""
    y = legend_top() + rank * ROW_H
    return y, y + ROW_H


def render_game_chart(data: GameChartData) -> bytes:
    """The game chart as PNG bytes (800 px wide, taller with more players)."""
    width, height = chart_size(data)
    words = data.words
    winners = set(data.winners())
    steps = len(data.totals[0])
    overlays: list[Overlay] = []
    with chart_style():
        fig = figure(height)
        ax = axes(fig, PLOT_LEFT, PLOT_TOP, PLOT_RIGHT, PLOT_TOP + PLOT_H)
        xs = list(range(steps + 1))
        order = sorted(range(len(data.names)), key=lambda s: (s in winners, -s))
        for z, seat in enumerate(order):  # winners last: on top
            style = series(seat)
            won = seat in winners
            ax.plot(xs, [0, *data.totals[seat]], color=rgb(style.color), linestyle=style.dash,
                    linewidth=pt(WINNER_LINE_PX if won else LINE_PX), marker=style.marker,
                    markersize=pt(MARKER_PX + (2 if won else 0)), markevery=slice(1, None),
                    markeredgecolor=rgb((255, 255, 255)), markeredgewidth=pt(1.5),
                    zorder=3 + z, solid_capstyle="round", clip_on=False)
        low = min(0, *(min(t) for t in data.totals))
        if low < 0:
            ax.axhline(0, color=rgb(RULE), linewidth=pt(2.5), zorder=2)
        ax.set_xlim(0, steps + 0.3)
        ax.xaxis.set_major_locator(FixedLocator(list(range(1, steps + 1)) if steps <= 11
                                                else list(range(0, steps + 1, 5))))
        ax.yaxis.set_major_locator(MaxNLocator(nbins=5, integer=True))
        ax.margins(y=0.06)
        ax.set_xlabel(words(data.step), labelpad=pt(6))
        # the standings below the plot
        finals = data.finals()
        names = shown_names(data.names)
        for rank, seat in enumerate(data.standings()):
            top, bottom = legend_row(rank)
            fill = WINNER_TINT if seat in winners else STRIPE if rank % 2 else None
            if fill is not None:
                fig.patches.append(Rectangle(
                    (0, 1 - bottom / height), 1, ROW_H / height, transform=fig.transFigure,
                    facecolor=rgb(fill), edgecolor="none", zorder=0))
            if seat in winners:
                fig.patches.append(Rectangle(
                    (0, 1 - bottom / height), 8 / width, ROW_H / height,
                    transform=fig.transFigure, facecolor=rgb(WINNER_EDGE), edgecolor="none",
                    zorder=1))
            style = series(seat)
            y = 1 - (top + bottom) / 2 / height
            x0, x1 = (MARGIN + 6) / width, (MARGIN + 6 + SAMPLE_W) / width
            fig.lines.append(Line2D(
                [x0, (x0 + x1) / 2, x1], [y, y, y], transform=fig.transFigure,
                color=rgb(style.color), linestyle=style.dash, linewidth=pt(LINE_PX),
                marker=style.marker, markevery=[1], markersize=pt(MARKER_PX + 2),
                markeredgecolor=rgb((255, 255, 255)), markeredgewidth=pt(1.5), zorder=2))
            overlays.append(_legend_text(names[seat], finals[seat], top, bottom))
        if data.title:
            overlays.append(heading(data.title, "", 0, TITLE_H, TITLE_PX, one_off=True))
        image = rendered(fig, overlays)
    return to_png(image)


def _legend_text(name: str, total: int, top: int, bottom: int) -> Overlay:
    def draw(image: Image.Image) -> None:
        y = (top + bottom) / 2
        x = MARGIN + 6 + SAMPLE_W + 18
        draw_line(image, (x, y), name, NAME_PX, INK, bold=True,
                  max_width=WIDTH - MARGIN - VALUE_W - x, one_off=True)
        draw_line(image, (WIDTH - MARGIN, y), str(total), VALUE_PX, number_ink(total),
                  anchor="rm", bold=True)
    return draw

