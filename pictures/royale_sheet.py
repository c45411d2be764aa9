"""The Panda Royale score sheet as a PNG: the paper sheet's grid plus everyone's dice.

:func:`render_score_sheet` draws a :class:`SheetData` (plain values, no engine types), and
:func:`sheet_data` builds one from an engine state. Rendering is synchronous and pure, so the
bot runs it in a thread (``asyncio.to_thread``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from bot.rules.royale.dice import (
    CANNON_KIND,
    GLITTER,
    MERCENARY_KIND,
    MISCHIEF_KIND,
    PITY,
    STANDARD,
)
from bot.rules.royale.state import Phase, RoyaleState
from pictures.drawing import (
    Box,
    DieFace,
    cell,
    centre,
    crown_tile,
    die_tile,
    draw_die,
    panda_tile,
    paste_icon,
)
from pictures.fonts import draw_line
from pictures.palette import (
    COLUMN_COLORS,
    COLUMN_TINTS,
    CURRENT,
    CURRENT_TINT,
    GRID,
    HEADER,
    HEADER_INK,
    INK,
    MUTED,
    NEGATIVE,
    PAPER,
    RGB,
    RULE,
    STRIPE,
    WINNER,
    ink_on,
    shade,
)
from pictures.png import to_png
from pictures.sheet_layout import (
    COLUMNS,
    MARGIN,
    ROUNDS,
    TITLE_H,
    WIDTH,
    SheetLayout,
)
from pictures.text import draw_text, player_name
from pictures.words import N_, Words, draw_label, english, label_width

CELL = 13
SMALL = 11

MIN_PLAYERS = 1
MAX_PLAYERS = 10
COLUMN_LABELS = (N_("Yellow"), N_("Purple"), N_("Blue"), N_("Red"), N_("Green"), N_("Clear"),
                 N_("Pink"))
KIND_ORDER = (STANDARD, GLITTER, MERCENARY_KIND, MISCHIEF_KIND, PITY, CANNON_KIND)
LEGEND = (
    (GLITTER, ("blue", GLITTER, 6), N_("glitter")),
    (PITY, ("pink", PITY, 12), N_("pity")),
    (MISCHIEF_KIND, ("clear", MISCHIEF_KIND, 12), N_("Mischief")),
    (CANNON_KIND, ("pink", CANNON_KIND, 8), N_("Cannon")),
    (MERCENARY_KIND, ("green", MERCENARY_KIND, 6), N_("Mercenary")),
)


@dataclass(frozen=True, slots=True)
class SheetData:
    """Everything the score sheet shows, as plain values.

    ``sheet[r][seat]`` holds the seven column scores (yellow ... pink) of round ``r + 1``;
    rounds not played yet are left out. ``dice[seat]`` lists the dice drawn for that seat.
    """

    names: tuple[str, ...]
    sheet: tuple[tuple[tuple[int, ...], ...], ...]
    round: int
    token: int
    dice: tuple[tuple[DieFace, ...], ...]
    title: str = "Panda Royale"
    final: bool = False
    words: Words = field(default=english, compare=False)
    """The labels' language (see :mod:`pictures.words`)."""

    def __post_init__(self) -> None:
        n = len(self.names)
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise ValueError(f"a score sheet has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {n}")
        if len(self.sheet) > ROUNDS or not 1 <= self.round <= ROUNDS:
            raise ValueError("a game has rounds 1 to 10")
        if any(len(row) != n or any(len(cols) != len(COLUMNS) for cols in row)
               for row in self.sheet):
            raise ValueError("each round needs seven column scores for every player")
        if len(self.dice) != n or not 0 <= self.token < n:
            raise ValueError("dice and token must belong to the players")

    def totals(self) -> list[int]:
        """Each player's game total so far."""
        return [sum(sum(row[seat]) for row in self.sheet) for seat in range(len(self.names))]

    def winners(self) -> list[int]:
        """The seats sharing the highest total (empty before the game is final)."""
        if not self.final:
            return []
        totals = self.totals()
        return [seat for seat, t in enumerate(totals) if t == max(totals)]


def die_order(face: DieFace) -> tuple[int, int, int]:
    """Where a die goes in a hand as the pictures draw it: by column, then kind, then sides."""
    color, kind, sides, _ = face
    col = COLUMNS.index(color) if color in COLUMNS else len(COLUMNS)
    return (col, KIND_ORDER.index(kind) if kind in KIND_ORDER else len(KIND_ORDER), sides)


def sheet_data(
    names: Sequence[str], state: RoyaleState, title: str = "Panda Royale",
    final: bool | None = None, words: Words = english,
) -> SheetData:
    """The :class:`SheetData` of ``state``, with ``names`` in seat order.

    ``final`` defaults to whether the game is over. Each player's dice are their hand, sorted by
    column; a die that has not been rolled this round (just drafted or given) shows None.
    """
    specs = state.dice.specs
    dice = tuple(
        tuple(sorted(((specs[d].color, specs[d].kind, specs[d].sides, state.values.get(d))
                      for d in hand), key=die_order))
        for hand in state.hands
    )
    return SheetData(
        names=tuple(names),
        sheet=tuple(tuple(tuple(cols) for cols in row) for row in state.sheet),
        round=state.round,
        token=state.token,
        dice=dice,
        title=title,
        final=state.phase is Phase.OVER if final is None else final,
        words=words,
    )


def _ranks(totals: list[int]) -> list[int]:
    return [1 + sum(1 for other in totals if other > t) for t in totals]


def _number_ink(value: int, base: RGB = INK) -> RGB:
    return NEGATIVE if value < 0 else base


class _Painter:
    """Draws one sheet; holds the image, the layout and the data."""

    def __init__(self, data: SheetData) -> None:
        self.data = data
        self.n = len(data.names)
        self.layout = SheetLayout(self.n)
        self.image = Image.new("RGB", self.layout.size, PAPER)
        self.draw = ImageDraw.Draw(self.image)
        self.names = [player_name(name, seat) for seat, name in enumerate(data.names)]
        self.words = data.words

    def paint(self) -> Image.Image:
        self._title()
        for column in range(2):
            self._grid_header(column)
        for rnd in range(1, ROUNDS + 1):
            self._block(rnd)
        self._totals()
        self._legend()
        return self.image

    def _title(self) -> None:
        d = self.data
        y = MARGIN + TITLE_H / 2 - 4
        draw_label(self.image, (MARGIN, y), d.title, 22, INK, anchor="lm", bold=True,
                   room=WIDTH / 2, one_off=True)
        played = len(d.sheet)
        words = self.words
        status = (words("Final scores") if d.final
                  else words("Round {n} of {rounds}", n=d.round, rounds=ROUNDS))
        if not d.final and played >= d.round:
            status += words(" · scored")
        draw_label(self.image, (WIDTH - MARGIN, y), status, 16, MUTED, anchor="rm")

    def _header_cells(self, boxes: list[tuple[Box, str, RGB]]) -> None:
        for box, label, fill in boxes:
            cell(self.draw, box, fill, RULE)
            draw_label(self.image, centre(box), label, SMALL,
                       ink_on(fill) if fill != HEADER else HEADER_INK, bold=True,
                       room=box[2] - box[0] - 4)

    def _grid_header(self, column: int) -> None:
        lay = self.layout
        words = self.words
        boxes: list[tuple[Box, str, RGB]] = [
            (lay.header_cell(column, 0), words("Rd"), HEADER),
            (lay.header_cell(column, 1), words("Player"), HEADER),
        ]
        boxes += [(lay.color_header(column, i), words(COLUMN_LABELS[i]), COLUMN_COLORS[name])
                  for i, name in enumerate(COLUMNS)]
        boxes += [(lay.header_cell(column, 9), words("Round"), HEADER),
                  (lay.header_cell(column, 10), words("Total"), HEADER)]
        self._header_cells(boxes)

    def _block(self, rnd: int) -> None:
        d, lay, draw = self.data, self.layout, self.draw
        scored = rnd <= len(d.sheet)
        current = rnd == d.round and not d.final
        running = [sum(sum(row[seat]) for row in d.sheet[:rnd]) for seat in range(self.n)]
        for seat in range(self.n):
            stripe = seat % 2 == 1
            base = CURRENT_TINT if current else (STRIPE if stripe else PAPER)
            cell(draw, lay.line(rnd, seat), base)
            for i, name in enumerate(COLUMNS):
                tint = COLUMN_TINTS[name]
                cell(draw, lay.cell(rnd, seat, 2 + i), shade(tint, 0.04) if stripe else tint, GRID)
            for index in (1, 9, 10):
                cell(draw, lay.cell(rnd, seat, index), None, GRID)
            name_box = lay.cell(rnd, seat, 1)
            room = name_box[2] - name_box[0] - 8
            if current and seat == d.token:
                paste_icon(self.image, panda_tile(14), (name_box[2] - 17, name_box[1] + 2))
                room -= 16
            draw_line(self.image, (name_box[0] + 4, centre(name_box)[1]), self.names[seat],
                      CELL, INK if scored or current else MUTED, max_width=round(room),
                      one_off=True)
            if scored:
                cols = d.sheet[rnd - 1][seat]
                for i, value in enumerate(cols):
                    box = lay.cell(rnd, seat, 2 + i)
                    draw_text(self.image, centre(box), str(value), CELL,
                              MUTED if value == 0 else _number_ink(value))
                total = sum(cols)
                draw_text(self.image, centre(lay.cell(rnd, seat, 9)), str(total), CELL,
                          _number_ink(total), bold=True)
                draw_text(self.image, centre(lay.cell(rnd, seat, 10)), str(running[seat]),
                          CELL, _number_ink(running[seat]), bold=True)
        x0, y0, x1, y1 = lay.block(rnd)
        label = (x0, y0, x0 + lay.field(0, 0)[1] - lay.field(0, 0)[0], y1)
        cell(draw, label, CURRENT if current else HEADER)
        draw_text(self.image, centre(label), str(rnd), 15, HEADER_INK, bold=True)
        cell(draw, (x0, y0, x1, y1), None, CURRENT if current else RULE, 2 if current else 1)

    def _totals(self) -> None:
        d, lay, draw = self.data, self.layout, self.draw
        totals = d.totals()
        ranks = _ranks(totals)
        winners = d.winners()
        words = self.words
        boxes: list[tuple[Box, str, RGB]] = [
            (lay.totals_header(0), "#", HEADER),
            (lay.totals_header(1), words("Player"), HEADER),
        ]
        boxes += [(lay.totals_header(2 + i), words(COLUMN_LABELS[i]), COLUMN_COLORS[name])
                  for i, name in enumerate(COLUMNS)]
        x0, y0, _, y1 = lay.totals_header(9)
        boxes.append(((x0, y0, lay.totals_header(10)[2], y1), words("Game total"), HEADER))
        boxes.append((lay.dice_header(), words("Dice of round {n}", n=d.round), HEADER))
        self._header_cells(boxes)
        for seat in range(self.n):
            line = lay.totals_line(seat)
            won = seat in winners
            cell(draw, line, WINNER if won else (STRIPE if seat % 2 else PAPER))
            for i, name in enumerate(COLUMNS):
                box = lay.total_cell(seat, 2 + i)
                cell(draw, box, COLUMN_TINTS[name], GRID)
                value = sum(row[seat][i] for row in d.sheet)
                draw_text(self.image, centre(box), str(value), CELL,
                          MUTED if value == 0 else _number_ink(value))
            place = lay.total_cell(seat, 0)
            if won:
                paste_icon(self.image, crown_tile(22), (place[0] + 4, place[1] + 8))
            else:
                draw_text(self.image, centre(place), str(ranks[seat]), CELL, MUTED)
            name_box = lay.total_cell(seat, 1)
            draw_line(self.image, (name_box[0] + 4, centre(name_box)[1]), self.names[seat],
                      CELL, INK, bold=won, max_width=name_box[2] - name_box[0] - 8,
                      one_off=True)
            draw_text(self.image, centre(lay.total_cell(seat, 9)), str(totals[seat]), 16,
                      _number_ink(totals[seat]), bold=True)
            if seat == d.token:
                tb = lay.token_box(seat)
                paste_icon(self.image, panda_tile(tb[2] - tb[0]), (tb[0], tb[1]))
            dice = d.dice[seat]
            for index, face in enumerate(dice):
                draw_die(self.image, lay.die_box(seat, index, len(dice)), face)
            cell(draw, line, None, RULE)
        top = lay.totals_top
        bottom = lay.totals_line(self.n - 1)[3]
        mid = lay.column_left(1)
        draw.line([(mid, top), (mid, bottom - 1)], fill=RULE)

    def _legend(self) -> None:
        d = self.data
        x0, y0, x1, y1 = self.layout.legend()
        cy = (y0 + y1) // 2
        kinds = {face[1] for dice in d.dice for face in dice}
        x = x0
        paste_icon(self.image, panda_tile(16), (x, cy - 8))
        x += 20
        words = self.words
        token = words("panda token")
        draw_label(self.image, (x, cy), token, SMALL, MUTED, anchor="lm")
        x += int(label_width(token, SMALL)) + 18
        for kind, (color, k, sides), label in LEGEND:
            if kind not in kinds:
                continue
            tile = die_tile(color, k, sides, 14)
            paste_icon(self.image, tile, (x, cy - tile.height // 2))
            x += tile.width + 3
            shown = words(label)
            draw_label(self.image, (x, cy), shown, SMALL, MUTED, anchor="lm")
            x += int(label_width(shown, SMALL)) + 16
        notes = []
        if any(face[3] is None for dice in d.dice for face in dice):
            notes.append(words("d6, d8 ... = not rolled this round"))
        if any(face[0] == "red" and (face[3] or 0) < 0 for dice in d.dice for face in dice):
            notes.append(words("black face = negative red value"))
        if notes:
            draw_label(self.image, (x1, cy), ",  ".join(notes), SMALL, MUTED, anchor="rm")


def render_score_sheet(data: SheetData) -> bytes:
    """The score sheet of ``data`` as PNG bytes (synchronous, pure: run it in a thread)."""
    return to_png(_Painter(data).paint())


def render_score_sheet_image(data: SheetData) -> Image.Image:
    """The score sheet of ``data`` as an RGB image, before PNG encoding (for tests and tools)."""
    return _Painter(data).paint()


__all__ = [
    "SheetData",
    "render_score_sheet",
    "render_score_sheet_image",
    "sheet_data",
]
