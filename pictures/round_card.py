"""The Panda Royale round card: a tall picture made for a phone, attached to the round message.

Discord shows a picture about 400 px wide on a phone, so the card is 800 px wide and every
digit on it is drawn at least :data:`SMALLEST_DIGITS` pixels in size: shown at half size, the
smallest digits stay about 9 px tall (2.25 % of the width). One band per player: the panda token,
the name as the player wrote it (any script, see :mod:`pictures.fonts`), the last scored
round's total and the game total, then this round's dice. The full ten-round score sheet stays
:func:`pictures.render_score_sheet`, for the end of the game and on demand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Final

from PIL import Image, ImageDraw

from bot.rules.royale.dice import ROUNDS
from bot.rules.royale.engine import current_seat
from bot.rules.royale.state import Phase, RoyaleState
from pictures.drawing import PAD, Box, DieFace, cell, die_tile, paste_icon, value_ink
from pictures.fonts import draw_line
from pictures.palette import (
    CURRENT,
    CURRENT_TINT,
    GRID,
    HEADER,
    HEADER_INK,
    INK,
    MUTED,
    NEGATIVE,
    PAPER,
    STRIPE,
    WINNER,
    WINNER_EDGE,
)
from pictures.png import to_png
from pictures.royale_sheet import die_order, sheet_data
from pictures.text import player_name
from pictures.words import Words, english

WIDTH: Final = 800
MARGIN: Final = 20
TITLE_H: Final = 64
HEAD_H: Final = 40
NAME_H: Final = 58
DIE: Final = 58
DIE_STEP: Final = 72
BAND_PAD: Final = 10
TOKEN: Final = 40
ROUND_W: Final = 120
GAME_W: Final = 130

SMALLEST_DIGITS: Final = 26
"""The font size of the smallest digits on the card (the dice values); its digits are
19 px tall at 800 px wide, 2.4 % of the width."""
NAME_SIZE: Final = 30
ROUND_SIZE: Final = 34
GAME_SIZE: Final = 40
TITLE_SIZE: Final = 34
CAPTION_SIZE: Final = 26
DIGIT_SIZES: Final = (SMALLEST_DIGITS, NAME_SIZE, ROUND_SIZE, GAME_SIZE, TITLE_SIZE,
                      CAPTION_SIZE)
"""Every font size the card draws digits with (the tests hold each to the phone rule)."""


@dataclass(frozen=True, slots=True)
class RoundCardData:
    """What the round card shows, as plain values (seat order)."""

    names: tuple[str, ...]
    round: int
    scored_round: int
    """The last round on the score sheet (0 before round 1 is scored)."""
    round_totals: tuple[int, ...]
    """Each player's total in ``scored_round`` (zeros before any round is scored)."""
    totals: tuple[int, ...]
    dice: tuple[tuple[DieFace, ...], ...]
    token: int
    current: int | None = None
    """The seat the game waits on, framed."""
    title: str = "Panda Royale"
    final: bool = False
    words: Words = field(default=english, compare=False)
    """The labels' language (see :mod:`pictures.words`)."""

    def __post_init__(self) -> None:
        n = len(self.names)
        if not 1 <= n <= 10:
            raise ValueError(f"a round card has 1 to 10 players, not {n}")
        if {len(self.round_totals), len(self.totals), len(self.dice)} != {n}:
            raise ValueError("totals and dice must belong to the players")

    def winners(self) -> list[int]:
        """The seats sharing the highest total once the game is over."""
        if not self.final:
            return []
        return [s for s, t in enumerate(self.totals) if t == max(self.totals)]


def round_card_data(names: Sequence[str], state: RoyaleState,
                    title: str = "Panda Royale", words: Words = english) -> RoundCardData:
    """The :class:`RoundCardData` of ``state`` with ``names`` in seat order."""
    sheet = sheet_data(names, state, title=title)
    scored = len(state.sheet)
    rnd = tuple(sum(c) for c in state.sheet[-1]) if scored else (0,) * state.n
    return RoundCardData(
        names=tuple(names), round=state.round, scored_round=scored, round_totals=rnd,
        totals=tuple(state.totals()), dice=sheet.dice, token=state.token,
        current=current_seat(state), title=title, final=state.phase is Phase.OVER, words=words)


def as_scored(data: RoundCardData, hands: Sequence[Sequence[DieFace]]) -> RoundCardData:
    """``data`` showing each player's dice as the round scored them (``hands``, seat order:
    colour, kind, sides, value), sorted as a hand is drawn, and nobody framed: a finished
    round, as its replay shows it.
    """
    if len(hands) != len(data.names):
        raise ValueError("one hand of scored dice per player")
    dice = tuple(tuple(sorted(hand, key=die_order)) for hand in hands)
    return replace(data, dice=dice, current=None)


def dice_per_line() -> int:
    """How many dice fit on one line of a player's band."""
    return (WIDTH - 2 * MARGIN - TOKEN - 16) // DIE_STEP


def band_height(dice: int) -> int:
    """The height of a player's band holding ``dice`` dice."""
    lines = max(1, -(-dice // dice_per_line()))
    return NAME_H + lines * DIE_STEP + BAND_PAD


def card_size(data: RoundCardData) -> tuple[int, int]:
    """Width and height of the card."""
    return WIDTH, (TITLE_H + HEAD_H + sum(band_height(len(d)) for d in data.dice) + MARGIN)


def _number_ink(value: int) -> tuple[int, int, int]:
    return NEGATIVE if value < 0 else INK


def _die(image: Image.Image, x: int, y: int, face: DieFace) -> None:
    color, kind, sides, value = face
    tile = die_tile(color, kind, sides, DIE, value is not None and value < 0)
    paste_icon(image, tile, (x - PAD, y - PAD))
    cx, cy = x + DIE / 2, y + DIE / 2 + (DIE * 0.05 if sides == 12 else 0)
    text = f"d{sides}" if value is None else str(value)
    size = SMALLEST_DIGITS if value is None or len(text) >= 3 else SMALLEST_DIGITS + 4
    draw_line(image, (cx, cy), text, size, value_ink(color, value), anchor="mm",
              bold=value is not None)


def render_round_card(data: RoundCardData) -> bytes:
    """The round card as PNG bytes (800 px wide, as tall as the players need)."""
    from pictures.drawing import panda_tile

    image = Image.new("RGB", card_size(data), PAPER)
    draw = ImageDraw.Draw(image)
    # title bar
    words = data.words
    status = (words("Final scores") if data.final
              else words("Round {n} of {rounds}", n=data.round, rounds=ROUNDS))
    draw_line(image, (MARGIN, TITLE_H / 2), data.title, TITLE_SIZE, INK, bold=True,
              max_width=WIDTH - 2 * MARGIN - 260, one_off=True)
    draw_line(image, (WIDTH - MARGIN, TITLE_H / 2), status, TITLE_SIZE, MUTED, anchor="rm")
    # column captions
    head: Box = (0, TITLE_H, WIDTH, TITLE_H + HEAD_H)
    cell(draw, head, HEADER)
    hy = TITLE_H + HEAD_H / 2
    scored = (words("Round {n}", n=data.scored_round) if data.scored_round else words("Round"))
    draw_line(image, (MARGIN, hy), words("Player · dice this round"), CAPTION_SIZE, HEADER_INK)
    draw_line(image, (WIDTH - MARGIN - GAME_W - ROUND_W / 2, hy), scored, CAPTION_SIZE,
              HEADER_INK, anchor="mm")
    draw_line(image, (WIDTH - MARGIN - GAME_W / 2, hy), words("Game"), CAPTION_SIZE, HEADER_INK,
              anchor="mm", bold=True)
    winners = data.winners()
    y = TITLE_H + HEAD_H
    per_line = dice_per_line()
    shown = [player_name(n, seat) for seat, n in enumerate(data.names)]
    for seat, name in enumerate(shown):
        h = band_height(len(data.dice[seat]))
        band: Box = (0, y, WIDTH, y + h)
        fill = (WINNER if seat in winners else CURRENT_TINT if seat == data.current
                else STRIPE if seat % 2 else PAPER)
        cell(draw, band, fill)
        draw.line((0, y + h - 1, WIDTH, y + h - 1), fill=GRID, width=1)
        if seat == data.current:
            cell(draw, (0, y, 8, y + h), CURRENT)
        if seat in winners:
            cell(draw, (0, y, 8, y + h), WINNER_EDGE)
        ny = y + NAME_H / 2 + 2
        x = MARGIN
        if seat == data.token:
            paste_icon(image, panda_tile(TOKEN), (x, round(ny - TOKEN / 2)))
        x += TOKEN + 12
        if shown.count(name) > 1:  # two players of one name: their seats tell them apart
            name = f"{name} #{seat + 1}"
        draw_line(image, (x, ny), name, NAME_SIZE, INK, bold=True,
                  max_width=WIDTH - x - MARGIN - ROUND_W - GAME_W - 8, one_off=True)
        rnd = data.round_totals[seat]
        draw_line(image, (WIDTH - MARGIN - GAME_W - ROUND_W / 2, ny),
                  str(rnd) if data.scored_round else "·", ROUND_SIZE, _number_ink(rnd),
                  anchor="mm")
        total = data.totals[seat]
        draw_line(image, (WIDTH - MARGIN - GAME_W / 2, ny), str(total), GAME_SIZE,
                  _number_ink(total), anchor="mm", bold=True)
        dice = data.dice[seat]
        top = y + NAME_H
        if not dice:
            draw_line(image, (MARGIN + TOKEN + 12, top + DIE_STEP / 2), words("no dice"),
                      CAPTION_SIZE, MUTED)
        for i, face in enumerate(dice):
            line, col = divmod(i, per_line)
            _die(image, MARGIN + TOKEN + 12 + col * DIE_STEP,
                 top + line * DIE_STEP + (DIE_STEP - DIE) // 2, face)
        y += h
    return to_png(image)
