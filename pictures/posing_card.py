"""The Posing Pandas score card as a PNG: one column per player, one row per box, the totals.

:func:`render_score_card` draws a :class:`CardData` (plain values), :func:`card_data` builds
one from an engine state. Rendering is synchronous and pure: the bot runs it in a thread.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from bot.rules.posing.poses import (
    ALL_DIFFERENT,
    ALL_DIFFERENT_POINTS,
    BOX_IDS,
    BOX_NAMES,
    MIX_UP,
    MIX_UP_POINTS,
    POSE_BOXES,
    SET_OF_3,
    SET_OF_3_POINTS,
    SET_OF_4,
    SET_OF_4_POINTS,
    SET_OF_5,
    SET_OF_5_POINTS,
)
from bot.rules.posing.state import PosingState
from pictures.card_layout import ICON, MARGIN, POSES, TITLE_H, CardLayout
from pictures.drawing import Box, cell, centre, crown_tile, paste_icon, pips_tile
from pictures.fonts import draw_line, text_tile
from pictures.palette import (
    COMBO_ROW,
    CURRENT,
    GRID,
    HEADER,
    HEADER_INK,
    INK,
    MUTED,
    PAPER,
    POSE_ROW,
    RULE,
    WINNER,
    WINNER_TINT,
    shade,
)
from pictures.png import to_png
from pictures.text import draw_text, player_name
from pictures.words import N_, Words, draw_label, english, label_width

MIN_PLAYERS = 1
MAX_PLAYERS = 10
CELL = 14
SMALL = 11
CROWN = 16
HINTS: dict[str, tuple[str, int | None]] = {
    **{box: (N_("1 per die"), None) for box in POSE_BOXES},
    SET_OF_3: (N_("3 alike: {points}"), SET_OF_3_POINTS),
    SET_OF_4: (N_("4 alike: {points}"), SET_OF_4_POINTS),
    SET_OF_5: (N_("5 alike: {points}"), SET_OF_5_POINTS),
    MIX_UP: (N_("3 + 2 alike: {points}"), MIX_UP_POINTS),
    ALL_DIFFERENT: (N_("5 different: {points}"), ALL_DIFFERENT_POINTS),
}
"""The rule of each box (a label and its points), printed small beside its name."""


def hint(words: Words, box: str) -> str:
    """The rule of ``box`` in ``words``' language."""
    text, points = HINTS[box]
    return words(text) if points is None else words(text, points=points)


@dataclass(frozen=True, slots=True)
class CardData:
    """Everything the score card shows, as plain values.

    ``scores[seat][i]`` holds the points of box ``BOX_IDS[i]`` (pose_1 .. pose_6, set_of_3,
    set_of_4, set_of_5, mix_up, all_different), None while that box is empty. ``current`` is
    the seat whose turn it is in a game still being played.
    """

    names: tuple[str, ...]
    scores: tuple[tuple[int | None, ...], ...]
    title: str = "Posing Pandas"
    final: bool = True
    current: int | None = None
    words: Words = field(default=english, compare=False)
    """The labels' language (see :mod:`pictures.words`)."""

    def __post_init__(self) -> None:
        n = len(self.names)
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise ValueError(f"a score card has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {n}")
        if len(self.scores) != n or any(len(card) != len(BOX_IDS) for card in self.scores):
            raise ValueError("each player needs one entry per box")
        if self.current is not None and not 0 <= self.current < n:
            raise ValueError("the current seat must be a player")

    def totals(self) -> list[int]:
        """Each player's points so far."""
        return [sum(p for p in card if p is not None) for card in self.scores]

    def winners(self) -> list[int]:
        """The seats sharing the highest total (empty before the game is final)."""
        if not self.final:
            return []
        totals = self.totals()
        return [seat for seat, t in enumerate(totals) if t == max(totals)]


def card_data(
    names: Sequence[str], state: PosingState, title: str = "Posing Pandas",
    final: bool | None = None, words: Words = english,
) -> CardData:
    """The :class:`CardData` of ``state``, with ``names`` in seat order.

    ``final`` defaults to whether the game is over.
    """
    over = state.is_over if final is None else final
    return CardData(
        names=tuple(names),
        scores=tuple(tuple(filled.get(box) for box in BOX_IDS) for filled in state.filled),
        title=title,
        final=over,
        current=None if state.is_over else state.seat,
        words=words,
    )


class _Painter:
    """Draws one card."""

    def __init__(self, data: CardData) -> None:
        self.data = data
        self.n = len(data.names)
        self.layout = CardLayout(self.n)
        self.image = Image.new("RGB", self.layout.size, PAPER)
        self.draw = ImageDraw.Draw(self.image)
        self.names = [player_name(name, seat) for seat, name in enumerate(data.names)]
        self.winners = data.winners()

    def paint(self) -> Image.Image:
        self._title()
        self._header()
        for index, box in enumerate(BOX_IDS):
            self._row(index, box)
        self._totals()
        lay = self.layout
        x0, _, x1, y1 = lay.total_row()
        cell(self.draw, (x0, lay.top, x1, lay.row(POSES - 1)[1]), None, RULE)
        cell(self.draw, (x0, lay.row(POSES)[0], x1, y1), None, RULE)
        return self.image

    def _title(self) -> None:
        width = self.layout.size[0]
        y = MARGIN + TITLE_H / 2 - 4
        words = self.data.words
        status = words("Final scores") if self.data.final else words("Game in progress")
        room = width - 2 * MARGIN - label_width(status, 14) - 16
        draw_label(self.image, (MARGIN, y), self.data.title, 22, INK, anchor="lm", bold=True,
                   room=room, one_off=True)
        draw_label(self.image, (width - MARGIN, y), status, 14, MUTED, anchor="rm")

    def _header(self) -> None:
        lay, draw = self.layout, self.draw
        corner = lay.corner()
        cell(draw, corner, HEADER, RULE)
        draw_label(self.image, (corner[0] + 8, centre(corner)[1]), self.data.words("Box"), SMALL,
                   HEADER_INK, anchor="lm", bold=True)
        for seat in range(self.n):
            box = lay.header_cell(seat)
            won = seat in self.winners
            turn = seat == self.data.current
            fill = WINNER if won else (CURRENT if turn else HEADER)
            cell(draw, box, fill, RULE)
            room = box[2] - box[0] - 10 - (CROWN + 4 if won else 0)
            ink = INK if won else HEADER_INK
            tile = text_tile(self.names[seat], 13, ink, True, round(room), one_off=True)
            cx, cy = centre(box)
            if won:  # the crown just left of the name, the pair centred
                cx += (CROWN + 4) / 2
                left = round(cx - tile.image.width / 2) - CROWN - 4
                paste_icon(self.image, crown_tile(CROWN), (left, round(cy - CROWN / 2) - 1))
            draw_line(self.image, (cx, cy), self.names[seat], 13, ink, anchor="mm", bold=True,
                      max_width=round(room), one_off=True)

    def _row(self, index: int, box_id: str) -> None:
        lay, draw = self.layout, self.draw
        pose = index < POSES
        base = POSE_ROW if pose else COMBO_ROW
        fill = shade(base, 0.035) if index % 2 else base
        label = lay.label_cell(index)
        cell(draw, label, fill, GRID)
        x = label[0] + 8
        cy = centre(label)[1]
        if pose:
            paste_icon(self.image, pips_tile(index + 1, ICON), (x, round(cy - ICON / 2)))
            x += ICON + 8
        words = self.data.words
        rule = hint(words, box_id)
        room = label[2] - 8 - label_width(rule, SMALL) - 6 - x  # the name never runs into it
        draw_label(self.image, (x, cy), words(BOX_NAMES[box_id]), CELL, INK, anchor="lm",
                   bold=True, room=room)
        draw_label(self.image, (label[2] - 8, cy), rule, SMALL, MUTED, anchor="rm")
        for seat in range(self.n):
            box = lay.cell(index, seat)
            won = seat in self.winners
            cell(draw, box, WINNER_TINT if won else fill, GRID)
            points = self.data.scores[seat][index]
            if points is not None:
                draw_text(self.image, centre(box), str(points), CELL,
                          MUTED if points == 0 else INK, bold=points > 0)

    def _totals(self) -> None:
        lay, draw = self.layout, self.draw
        row = lay.total_row()
        cell(draw, row, HEADER, RULE)
        label: Box = (row[0], row[1], row[0] + lay.label_cell(0)[2] - lay.label_cell(0)[0], row[3])
        draw_label(self.image, (label[0] + 8, centre(label)[1]), self.data.words("Total"), 16,
                   HEADER_INK, anchor="lm", bold=True)
        for seat, total in enumerate(self.data.totals()):
            box = lay.total_cell(seat)
            won = seat in self.winners
            cell(draw, box, WINNER if won else HEADER, RULE)
            draw_text(self.image, centre(box), str(total), 18, INK if won else HEADER_INK,
                      bold=True)


def render_score_card_image(data: CardData) -> Image.Image:
    """The score card of ``data`` as an RGB image, before PNG encoding (for tests and tools)."""
    return _Painter(data).paint()


def render_score_card(data: CardData) -> bytes:
    """The score card of ``data`` as PNG bytes (synchronous, pure: run it in a thread)."""
    return to_png(render_score_card_image(data))
