"""The Panda Royale score sheet as a PNG: the standings, then the paper sheet's rounds, laid
out by :mod:`pictures.sheet_layout`. The dice of the current round are on the round picture
(:mod:`pictures.round_card`), not here.
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
    PAPER,
    RGB,
    RULE,
    STRIPE,
    WINNER,
    ink_on,
    number_ink,
    shade,
)
from pictures.png import to_png
from pictures.sheet_layout import (
    COLUMNS,
    MARGIN,
    ROUNDS,
    TITLE_H,
    TOKEN,
    WIDTH,
    SheetLayout,
)
from pictures.text import draw_text, highest, shown_names
from pictures.words import N_, Words, draw_label, draw_title_bar, english

CELL = 25
"""The numbers' font size: digits about 18 px tall, 9 px on a phone."""
TOTAL = 28
ROUND_NUMBER = 28
NAME = 24
HEADING = 18
"""The headings (words, no digits): cut to their cell."""
TITLE = 28
STATUS = 25
CROWN = 28
DIGIT_SIZES = (CELL, TOTAL, ROUND_NUMBER, STATUS)
"""Every font size the sheet draws digits with (see :mod:`pictures`)."""

MIN_PLAYERS = 1
MAX_PLAYERS = 10
COLUMN_LABELS = (N_("Yellow"), N_("Purple"), N_("Blue"), N_("Red"), N_("Green"), N_("Clear"),
                 N_("Pink"))
KIND_ORDER = (STANDARD, GLITTER, MERCENARY_KIND, MISCHIEF_KIND, PITY, CANNON_KIND)


@dataclass(frozen=True, slots=True)
class SheetData:
    """Everything the score sheet shows, as plain values.

    ``sheet[r][seat]`` holds the seven column scores (yellow ... pink) of round ``r + 1``;
    rounds not played yet are left out. ``dice[seat]`` lists that seat's dice this round (the
    round picture draws them; the sheet does not).
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
        return highest(self.totals()) if self.final else []


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


def shown_rounds(data: SheetData) -> int:
    """How many rounds the sheet shows: those scored and the one being played."""
    return max(data.round, len(data.sheet))


def _ranks(totals: list[int]) -> list[int]:
    return [1 + sum(1 for other in totals if other > t) for t in totals]


class _Painter:
    """Draws one sheet; holds the image, the layout and the data."""

    def __init__(self, data: SheetData) -> None:
        self.data = data
        self.n = len(data.names)
        self.layout = SheetLayout(self.n, shown_rounds(data))
        self.image = Image.new("RGB", self.layout.size, PAPER)
        self.draw = ImageDraw.Draw(self.image)
        self.names = shown_names(data.names)
        self.words = data.words

    def paint(self) -> Image.Image:
        self._title()
        self._standings()
        self._rounds_header()
        for rnd in range(1, self.layout.rounds + 1):
            self._block(rnd)
        return self.image

    def _title(self) -> None:
        d = self.data
        played = len(d.sheet)
        words = self.words
        status = (words("Final scores") if d.final
                  else words("Round {n} of {rounds}", n=d.round, rounds=ROUNDS))
        if not d.final and played >= d.round:
            status += words(" · scored")
        draw_title_bar(self.image, MARGIN + TITLE_H / 2 - 3, MARGIN, WIDTH - MARGIN, d.title,
                       TITLE, status, STATUS)

    def _header_cells(self, boxes: list[tuple[Box, str, RGB]]) -> None:
        for box, label, fill in boxes:
            cell(self.draw, box, fill, RULE)
            draw_label(self.image, centre(box), label, HEADING,
                       ink_on(fill) if fill != HEADER else HEADER_INK, bold=True,
                       room=box[2] - box[0] - 4)

    def _color_headers(self, boxes: list[Box]) -> list[tuple[Box, str, RGB]]:
        words = self.words
        return [(box, words(COLUMN_LABELS[i]), COLUMN_COLORS[name])
                for i, (box, name) in enumerate(zip(boxes, COLUMNS, strict=True))]

    def _standings(self) -> None:
        d, lay, draw = self.data, self.layout, self.draw
        totals = d.totals()
        ranks = _ranks(totals)
        winners = d.winners()
        words = self.words
        boxes: list[tuple[Box, str, RGB]] = [
            (lay.standings_header(0), "#", HEADER),
            (lay.standings_header(1), words("Player"), HEADER),
            *self._color_headers([lay.standings_header(2 + i) for i in range(len(COLUMNS))]),
            (lay.standings_header(9), words("Game total"), HEADER),
        ]
        self._header_cells(boxes)
        for seat in range(self.n):
            line = lay.standing_line(seat)
            won = seat in winners
            stripe = seat % 2 == 1
            cell(draw, line, WINNER if won else (STRIPE if stripe else PAPER))
            for i, name in enumerate(COLUMNS):
                box = lay.standing_cell(seat, 2 + i)
                tint = COLUMN_TINTS[name]
                cell(draw, box, shade(tint, 0.04) if stripe else tint, GRID)
                value = sum(row[seat][i] for row in d.sheet)
                draw_text(self.image, centre(box), str(value), CELL,
                          MUTED if value == 0 else number_ink(value))
            place = lay.standing_cell(seat, 0)
            if won:
                x, y = centre(place)
                paste_icon(self.image, crown_tile(CROWN),
                           (round(x - CROWN / 2), round(y - CROWN / 2)))
            else:
                draw_text(self.image, centre(place), str(ranks[seat]), CELL, MUTED)
            self._name(lay.standing_cell(seat, 1), seat, won, token=False)
            draw_text(self.image, centre(lay.standing_cell(seat, 9)), str(totals[seat]), TOTAL,
                      number_ink(totals[seat]), bold=True)
            cell(draw, line, None, RULE)

    def _name(self, box: Box, seat: int, bold: bool, token: bool, ink: RGB = INK) -> None:
        room = box[2] - box[0] - 10 - (TOKEN + 4 if token else 0)
        drawn = draw_line(self.image, (box[0] + 6, centre(box)[1]), self.names[seat], NAME,
                          ink, bold=bold, max_width=room, one_off=True)
        if token:
            paste_icon(self.image, panda_tile(TOKEN),
                       (box[0] + 6 + drawn + 2, round(centre(box)[1] - TOKEN / 2)))

    def _rounds_header(self) -> None:
        lay = self.layout
        words = self.words
        boxes: list[tuple[Box, str, RGB]] = [
            (lay.header_cell(0), words("Rd"), HEADER),
            (lay.header_cell(1), words("Player"), HEADER),
            *self._color_headers([lay.color_header(i) for i in range(len(COLUMNS))]),
            (lay.header_cell(9), words("Round"), HEADER),
            (lay.header_cell(10), words("Total"), HEADER),
        ]
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
                cell(draw, lay.cell(rnd, seat, 2 + i), shade(tint, 0.04) if stripe else tint,
                     GRID)
            for index in (1, 9, 10):
                cell(draw, lay.cell(rnd, seat, index), None, GRID)
            self._name(lay.cell(rnd, seat, 1), seat, False, token=current and seat == d.token,
                       ink=INK if scored or current else MUTED)
            if scored:
                cols = d.sheet[rnd - 1][seat]
                for i, value in enumerate(cols):
                    draw_text(self.image, centre(lay.cell(rnd, seat, 2 + i)), str(value), CELL,
                              MUTED if value == 0 else number_ink(value))
                total = sum(cols)
                draw_text(self.image, centre(lay.cell(rnd, seat, 9)), str(total), CELL,
                          number_ink(total), bold=True)
                draw_text(self.image, centre(lay.cell(rnd, seat, 10)), str(running[seat]),
                          CELL, number_ink(running[seat]), bold=True)
        label = lay.round_label(rnd)
        cell(draw, label, CURRENT if current else HEADER)
        draw_text(self.image, centre(label), str(rnd), ROUND_NUMBER, HEADER_INK, bold=True)
        cell(draw, lay.block(rnd), None, CURRENT if current else RULE, 3 if current else 1)


def render_score_sheet(data: SheetData) -> bytes:
    """The score sheet of ``data`` as PNG bytes."""
    return to_png(_Painter(data).paint())

