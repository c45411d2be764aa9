"""The Posing Pandas score card as a PNG, laid out by :mod:`pictures.card_layout`.

The boxes and the dice are numbered as the turn's buttons number them (:func:`box_number`); the
dice are drawn as the pose emojis are (:func:`pictures.drawing.pose_die_image`), a held die
inverted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from bot.rules.posing.poses import (
    BOX_IDS,
    BOX_NAMES,
    DICE_COUNT,
    MAX_ROLLS,
    POSE_COUNT,
)
from bot.rules.posing.state import PosingState
from pictures.card_layout import (
    DICE_H,
    ICON,
    MARGIN,
    NUMBER_W,
    POSES,
    TITLE_H,
    WIDTH,
    CardLayout,
)
from pictures.drawing import Box, cell, centre, crown_tile, paste_icon, pose_die_image
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
from pictures.text import draw_text, highest, shown_names
from pictures.words import Words, draw_label, draw_title_bar, english

MIN_PLAYERS = 1
MAX_PLAYERS = 10
CELL = 25
"""The points' font size: digits about 18 px tall, 9 px on a phone."""
NUMBER = 25
NAME = 24
LABEL = 23
TOTAL = 28
TITLE = 26
STATUS = 25
CROWN = 26
DIGIT_SIZES = (CELL, NUMBER, TOTAL, STATUS)
"""Every font size the card draws digits with (see :mod:`pictures`)."""
@dataclass(frozen=True, slots=True)
class CardData:
    """Everything the score card shows, as plain values.

    ``scores[seat][i]`` holds the points of box ``BOX_IDS[i]``, None while that box is empty.
    ``current`` is the seat whose turn it is in a game still being played.
    """

    names: tuple[str, ...]
    scores: tuple[tuple[int | None, ...], ...]
    title: str = "Posing Pandas"
    final: bool = True
    current: int | None = None
    words: Words = field(default=english, compare=False)
    """The labels' language (see :mod:`pictures.words`)."""
    dice: tuple[int, ...] = ()
    """The poses of the five dice in front of ``current`` (empty: no dice shown)."""
    held: tuple[bool, ...] = ()
    """Which of those dice are held (empty: none)."""
    rolls: int = 0
    """How many rolls ``current`` made this turn."""

    def __post_init__(self) -> None:
        n = len(self.names)
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise ValueError(f"a score card has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {n}")
        if len(self.scores) != n or any(len(card) != len(BOX_IDS) for card in self.scores):
            raise ValueError("each player needs one entry per box")
        if self.current is not None and not 0 <= self.current < n:
            raise ValueError("the current seat must be a player")
        if self.dice and (len(self.dice) != DICE_COUNT
                          or not all(1 <= d <= POSE_COUNT for d in self.dice)):
            raise ValueError(f"a turn shows {DICE_COUNT} dice of 1 to {POSE_COUNT}")
        if self.held and len(self.held) != len(self.dice):
            raise ValueError("one held mark per die")

    def totals(self) -> list[int]:
        return [sum(p for p in card if p is not None) for card in self.scores]

    def winners(self) -> list[int]:
        """The seats sharing the highest total (empty before the game is final)."""
        return highest(self.totals()) if self.final else []


def box_number(box: str) -> int:
    """The number of ``box`` on the card: 1 to 11 in card order (poses 1 to 6 are the pose
    numbers), as the fill buttons number the boxes.
    """
    return BOX_IDS.index(box) + 1


def card_data(
    names: Sequence[str], state: PosingState, title: str = "Posing Pandas",
    final: bool | None = None, words: Words = english, held: Sequence[bool] = (),
) -> CardData:
    """The :class:`CardData` of ``state``, with ``names`` in seat order.

    ``final`` defaults to whether the game is over. While the game goes on the card shows the
    dice of the player to move; ``held`` marks those held (the hold buttons' state).
    """
    over = state.is_over if final is None else final
    playing = not state.is_over
    return CardData(
        names=tuple(names),
        scores=tuple(tuple(filled.get(box) for box in BOX_IDS) for filled in state.filled),
        title=title,
        final=over,
        current=state.seat if playing else None,
        words=words,
        dice=tuple(state.dice) if playing else (),
        held=tuple(held) if playing else (),
        rolls=state.rolls if playing else 0,
    )


class _Painter:
    """Draws one card."""

    def __init__(self, data: CardData) -> None:
        self.data = data
        self.n = len(data.names)
        self.layout = CardLayout(self.n, dice=bool(data.dice))
        self.image = Image.new("RGB", self.layout.size, PAPER)
        self.draw = ImageDraw.Draw(self.image)
        self.names = shown_names(data.names)
        self.winners = data.winners()

    def paint(self) -> Image.Image:
        self._title()
        if self.data.dice:
            self._dice()
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
        words = self.data.words
        status = words("Final scores") if self.data.final else words("Game in progress")
        draw_title_bar(self.image, MARGIN + TITLE_H / 2 - 3, MARGIN, WIDTH - MARGIN,
                       self.data.title, TITLE, status, STATUS)

    def _dice(self) -> None:
        d, lay = self.data, self.layout
        words = d.words
        cy = lay.dice_top + DICE_H / 2
        first = lay.die_box(0)[0]
        if d.current is not None:
            draw_line(self.image, (MARGIN, cy - 15), self.names[d.current], NAME, INK,
                      bold=True, max_width=first - 2 * MARGIN - 30, one_off=True)
        left = max(0, MAX_ROLLS - d.rolls)
        draw_label(self.image, (MARGIN, cy + 17),
                   words("Dice · roll {roll} of {rolls} ({left} left)", roll=d.rolls,
                         rolls=MAX_ROLLS, left=left), LABEL, MUTED, anchor="lm",
                   room=first - 2 * MARGIN - 30)
        held = d.held or (False,) * len(d.dice)
        for i, (pips, keep) in enumerate(zip(d.dice, held, strict=True)):
            x0, y0, x1, _ = lay.die_box(i)
            paste_icon(self.image, pose_die_image(pips, x1 - x0, keep), (x0, y0))
            draw_text(self.image, (x0 - 14, cy), str(i + 1), NUMBER, INK if keep else MUTED,
                      bold=True)

    def _header(self) -> None:
        lay, draw = self.layout, self.draw
        corner = lay.corner()
        cell(draw, corner, HEADER, RULE)
        draw_label(self.image, (corner[0] + 10, centre(corner)[1]), self.data.words("Box"),
                   LABEL, HEADER_INK, anchor="lm", bold=True)
        for seat in range(self.n):
            box = lay.header_cell(seat)
            won = seat in self.winners
            turn = seat == self.data.current
            fill = WINNER if won else (CURRENT if turn else HEADER)
            cell(draw, box, fill, RULE)
            crown = CROWN + 4 if won and box[2] - box[0] >= 2 * CROWN + 20 else 0
            room = box[2] - box[0] - 8 - crown
            ink = INK if won else HEADER_INK
            tile = text_tile(self.names[seat], NAME, ink, True, round(room), one_off=True)
            cx, cy = centre(box)
            if crown:  # the crown just left of the name, the pair centred
                cx += crown / 2
                left = round(cx - tile.image.width / 2) - crown
                paste_icon(self.image, crown_tile(CROWN), (left, round(cy - CROWN / 2) - 1))
            draw_line(self.image, (cx, cy), self.names[seat], NAME, ink, anchor="mm", bold=True,
                      max_width=round(room), one_off=True)

    def _row(self, index: int, box_id: str) -> None:
        lay, draw = self.layout, self.draw
        pose = index < POSES
        base = POSE_ROW if pose else COMBO_ROW
        fill = shade(base, 0.035) if index % 2 else base
        label = lay.label_cell(index)
        cell(draw, label, fill, GRID)
        cy = centre(label)[1]
        draw_text(self.image, (label[0] + NUMBER_W - 4, cy), str(index + 1), NUMBER, MUTED,
                  anchor="rm", bold=True)
        x = label[0] + NUMBER_W + 6
        if pose:
            paste_icon(self.image, pose_die_image(index + 1, ICON), (x, round(cy - ICON / 2)))
        x += ICON + 8
        words = self.data.words
        draw_label(self.image, (x, cy), words(BOX_NAMES[box_id]), LABEL, INK, anchor="lm",
                   bold=True, room=label[2] - 6 - x)
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
        draw_label(self.image, (label[0] + 10, centre(label)[1]), self.data.words("Total"),
                   TOTAL, HEADER_INK, anchor="lm", bold=True)
        for seat, total in enumerate(self.data.totals()):
            box = lay.total_cell(seat)
            won = seat in self.winners
            cell(draw, box, WINNER if won else HEADER, RULE)
            draw_text(self.image, centre(box), str(total), TOTAL, INK if won else HEADER_INK,
                      bold=True)


def render_score_card(data: CardData) -> bytes:
    """The score card of ``data`` as PNG bytes."""
    return to_png(_Painter(data).paint())
