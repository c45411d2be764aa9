"""The Panda Royale round picture: every player's dice and scores on one phone screen.

One line per player: the panda token, the name (any script), this round's dice (as the die
emojis draw them), the last scored round's total and the game total; the player the game waits
on is marked. The largest hand the rules allow
(:data:`MAX_HAND`) fits on one line, so ten players stay within :data:`MAX_HEIGHT`.

:func:`describe_round_card` says the same in words, for screen readers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Final

from PIL import Image, ImageDraw

from bot.rules.royale.dice import (
    CANNON_KIND,
    GLITTER,
    MERCENARY_KIND,
    MISCHIEF_KIND,
    PITY,
    ROUNDS,
)
from bot.rules.royale.engine import current_seat
from bot.rules.royale.state import Phase, RoyaleState
from pictures.drawing import (
    BODY,
    Box,
    DieFace,
    cell,
    die_label,
    draw_die,
    panda_tile,
    paste_icon,
    value_size,
)
from pictures.fonts import draw_line
from pictures.palette import (
    CURRENT,
    CURRENT_TINT,
    GRID,
    HEADER,
    HEADER_INK,
    INK,
    MUTED,
    PAPER,
    STRIPE,
    WINNER,
    WINNER_EDGE,
    number_ink,
)
from pictures.png import to_png
from pictures.royale_sheet import COLUMN_LABELS, die_order, sheet_data
from pictures.sheet_layout import COLUMNS
from pictures.text import highest, shown_names
from pictures.words import N_, Words, english

WIDTH: Final = 780
"""Twice the width a phone shows the picture at."""
PHONE_WIDTH: Final = 390
MAX_HEIGHT: Final = 600
"""The tallest the picture may be for ten players with the largest hands: 300 px on a phone,
so that the round message (its prompt, the picture, the buttons) fits on one screen."""
MARGIN: Final = 10
TITLE_H: Final = 44
HEAD_H: Final = 34
ROW_H: Final = 50
LINE_STEP: Final = 44
"""Between the two lines of dice of a hand too large for one."""
BOTTOM: Final = 6
BAR: Final = 7
"""The mark at the left of the player the game waits on (and of the winners)."""
TOKEN: Final = 30
"""The panda token, drawn right after its holder's name."""
NAME_X: Final = BAR + 9
NAME_MIN: Final = 156
"""The narrowest a name gets, however many dice are beside it."""
DIE: Final = 35
"""The side of a die's body; its marks spill a few pixels around it."""
DIE_STEP: Final = 38
ROUND_W: Final = 62
GAME_W: Final = 68
GAME_RIGHT: Final = WIDTH - MARGIN - 4
ROUND_RIGHT: Final = GAME_RIGHT - GAME_W
DICE_RIGHT: Final = ROUND_RIGHT - ROUND_W + 4

MAX_HAND: Final = 1 + (ROUNDS - 1) + 1 + 1
"""The most dice a player can hold: the starting yellow d6, one die from each draft (rounds 1
to 9), a Mischief d12 and a pity die (nobody holds two; a trade gives one die for one)."""

SMALLEST_DIGITS: Final = 25
"""The font size of the smallest digits on the picture (the captions); its digits are about
18 px tall, 9 px on a phone."""
NAME_SIZE: Final = 26
ROUND_SIZE: Final = 26
GAME_SIZE: Final = 28
TITLE_SIZE: Final = 26
CAPTION_SIZE: Final = SMALLEST_DIGITS
DIGIT_SIZES: Final = (SMALLEST_DIGITS, NAME_SIZE, ROUND_SIZE, GAME_SIZE, TITLE_SIZE,
                      CAPTION_SIZE)
"""Every font size the picture draws digits with outside the dice (see :mod:`pictures`)."""

DESCRIPTION_LIMIT: Final = 1024
"""Discord's limit for a media item's description."""
KIND_WORDS: Final[dict[str, str]] = {
    GLITTER: N_("glitter"), PITY: N_("pity"), MISCHIEF_KIND: N_("Mischief"),
    CANNON_KIND: N_("Cannon"), MERCENARY_KIND: N_("Mercenary")}


@dataclass(frozen=True, slots=True)
class RoundCardData:
    """What the round picture shows, as plain values (seat order)."""

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
    """The seat the game waits on, marked."""
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
        return highest(self.totals) if self.final else []


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
    colour, kind, sides, value), sorted as a hand is drawn, and nobody marked: a finished
    round, as its replay shows it.
    """
    if len(hands) != len(data.names):
        raise ValueError("one hand of scored dice per player")
    dice = tuple(tuple(sorted(hand, key=die_order)) for hand in hands)
    return replace(data, dice=dice, current=None)


# --- geometry ----------------------------------------------------------------------------


def dice_per_line() -> int:
    """How many dice fit on one line beside the narrowest name."""
    return (DICE_RIGHT - NAME_X - NAME_MIN - 8 - DIE) // DIE_STEP + 1


@dataclass(frozen=True, slots=True)
class DiceLayout:
    """Where the dice go on one picture: as many slots a line as its largest hand needs (the
    names take the rest), at most :func:`dice_per_line`; a larger hand takes a second line,
    its dice closer together when even two lines of the usual step are too few.
    """

    largest: int
    """The most dice any player holds."""

    @property
    def per_line(self) -> int:
        return max(1, min(self.largest, dice_per_line()))

    @property
    def step(self) -> float:
        """From one die to the next on a line."""
        most = dice_per_line()
        if self.largest <= 2 * most:
            return DIE_STEP
        return (DICE_RIGHT - NAME_X - NAME_MIN - 8 - DIE) / (-(-self.largest // 2) - 1)

    def lines(self, dice: int) -> int:
        """How many lines ``dice`` dice take (1 or 2)."""
        return 1 if dice <= self.per_line else 2

    def in_line(self, dice: int) -> int:
        """How many of ``dice`` dice go on each line."""
        return dice if self.lines(dice) == 1 else -(-dice // 2)

    @property
    def slots(self) -> int:
        """Dice slots on the widest line."""
        return self.per_line if self.largest <= 2 * dice_per_line() else -(-self.largest // 2)

    @property
    def dice_left(self) -> int:
        """The left edge of the first die (right of the names)."""
        return round(DICE_RIGHT - DIE - (self.slots - 1) * self.step)

    def row_height(self, dice: int) -> int:
        """The height of the line of a player holding ``dice`` dice."""
        return ROW_H + (self.lines(dice) - 1) * LINE_STEP

    def slot(self, top: int, index: int, dice: int) -> Box:
        """The body of die ``index`` of a hand of ``dice`` dice in the row at ``top``."""
        line, col = divmod(index, self.in_line(dice))
        cx = self.dice_left + DIE / 2 + col * self.step
        cy = top + ROW_H / 2 + line * LINE_STEP
        x0, y0 = round(cx - DIE / 2), round(cy - DIE / 2)
        return (x0, y0, x0 + DIE, y0 + DIE)


def layout_of(data: RoundCardData) -> DiceLayout:
    """The layout of ``data``'s picture."""
    return DiceLayout(max((len(d) for d in data.dice), default=0))


def card_size(data: RoundCardData) -> tuple[int, int]:
    """Width and height of the picture."""
    lay = layout_of(data)
    return WIDTH, (TITLE_H + HEAD_H + sum(lay.row_height(len(d)) for d in data.dice) + BOTTOM)


def die_value_size(face: DieFace) -> int:
    """The font size of ``face``'s value (or size label) on this picture."""
    _, _, sides, value = face
    return value_size(die_label(sides, value), sides, round(round(DIE / BODY) * BODY))


# --- drawing -----------------------------------------------------------------------------


def _status(data: RoundCardData) -> str:
    words = data.words
    if data.final:
        return words("Final scores")
    return words("Round {n} of {rounds}", n=data.round, rounds=ROUNDS)


def render_round_card_image(data: RoundCardData) -> Image.Image:
    """The round picture of ``data`` as an RGB image, before PNG encoding (tests, tools)."""
    lay = layout_of(data)
    image = Image.new("RGB", card_size(data), PAPER)
    draw = ImageDraw.Draw(image)
    words = data.words
    # the title bar
    status = _status(data)
    cy = TITLE_H / 2
    used = draw_line(image, (WIDTH - MARGIN, cy), status, TITLE_SIZE, MUTED, anchor="rm")
    draw_line(image, (MARGIN, cy), data.title, TITLE_SIZE, INK, bold=True,
              max_width=WIDTH - 2 * MARGIN - used - 16, one_off=True)
    # the captions
    cell(draw, (0, TITLE_H, WIDTH, TITLE_H + HEAD_H), HEADER)
    hy = TITLE_H + HEAD_H / 2
    scored = words("Round {n}", n=data.scored_round) if data.scored_round else words("Round")
    game = words("Game")
    right = draw_line(image, (GAME_RIGHT, hy), game, CAPTION_SIZE, HEADER_INK, anchor="rm",
                      bold=True)
    middle = draw_line(image, (min(ROUND_RIGHT, GAME_RIGHT - right - 12), hy), scored,
                       CAPTION_SIZE, HEADER_INK, anchor="rm")
    draw_line(image, (NAME_X, hy), words("Player · dice this round"), CAPTION_SIZE, HEADER_INK,
              max_width=GAME_RIGHT - right - middle - 24 - NAME_X)
    # one line per player
    winners = data.winners()
    y = TITLE_H + HEAD_H
    for seat, name in enumerate(shown_names(data.names)):
        dice = data.dice[seat]
        h = lay.row_height(len(dice))
        won, waits = seat in winners, seat == data.current
        fill = WINNER if won else CURRENT_TINT if waits else STRIPE if seat % 2 else PAPER
        cell(draw, (0, y, WIDTH, y + h), fill)
        draw.line((0, y + h - 1, WIDTH, y + h - 1), fill=GRID, width=1)
        if waits or won:
            cell(draw, (0, y, BAR, y + h), WINNER_EDGE if won else CURRENT)
        ny = y + ROW_H / 2
        token = TOKEN + 6 if seat == data.token else 0
        drawn = draw_line(image, (NAME_X, ny), name, NAME_SIZE, INK, bold=True,
                          max_width=lay.dice_left - 8 - NAME_X - token, one_off=True)
        if token:
            paste_icon(image, panda_tile(TOKEN), (NAME_X + drawn + 4, round(ny - TOKEN / 2)))
        rnd = data.round_totals[seat]
        draw_line(image, (ROUND_RIGHT - 6, ny), str(rnd) if data.scored_round else "·",
                  ROUND_SIZE, number_ink(rnd), anchor="rm")
        total = data.totals[seat]
        draw_line(image, (GAME_RIGHT, ny), str(total), GAME_SIZE, number_ink(total),
                  anchor="rm", bold=True)
        if not dice:
            draw_line(image, (lay.dice_left + 4, ny), words("no dice"), CAPTION_SIZE, MUTED)
        for i, face in enumerate(dice):
            draw_die(image, lay.slot(y, i, len(dice)), face)
        y += h
    return image


def render_round_card(data: RoundCardData) -> bytes:
    """The round picture as PNG bytes (:data:`WIDTH` px wide, as tall as the players need)."""
    return to_png(render_round_card_image(data))


# --- in words ----------------------------------------------------------------------------


def _color_words(words: Words, color: str, kind: str) -> str:
    """A die's colour and kind in words: "Purple", "Blue glitter", "Mischief"."""
    label = words(COLUMN_LABELS[COLUMNS.index(color)]) if color in COLUMNS else color
    if kind in (MISCHIEF_KIND, CANNON_KIND, MERCENARY_KIND):
        return words(KIND_WORDS[kind])
    if kind in KIND_WORDS:
        return f"{label} {words(KIND_WORDS[kind])}"
    return label


def dice_words(words: Words, dice: Sequence[DieFace], detail: int) -> str:
    """A hand in words: ``detail`` 0 names each die with its size ("Purple d12 7"), 1 without
    it ("Purple 7"), 2 by colour and kind ("Purple 7 11, Blue glitter 3"); a die not rolled
    is its size ("d12").
    """
    if detail < 2:
        return ", ".join(f"{_color_words(words, c, k)} "
                         + (f"d{s}" if v is None else f"d{s} {v}" if detail == 0 else str(v))
                         for c, k, s, v in dice)
    groups: dict[str, list[str]] = {}
    for c, k, s, v in dice:
        groups.setdefault(_color_words(words, c, k), []).append(die_label(s, v))
    return ", ".join(f"{label} {' '.join(values)}" for label, values in groups.items())


def _scores_words(data: RoundCardData, seat: int, name: str) -> str:
    words = data.words
    total = data.totals[seat]
    if data.scored_round:
        text = words("{name}: game {game}, round {n}: {points}", name=name, game=total,
                     n=data.scored_round, points=data.round_totals[seat])
    else:
        text = words("{name}: game {game}", name=name, game=total)
    marks = []
    if seat in data.winners():
        marks.append(words("wins"))
    if seat == data.token:
        marks.append(words("panda token"))
    if seat == data.current:
        marks.append(words("deciding"))
    return text + (" (" + ", ".join(marks) + ")" if marks else "")


def describe_round_card(data: RoundCardData) -> str:
    """The picture in words, in ``data.words``' language, for screen readers (a media item's
    description, at most :data:`DESCRIPTION_LIMIT` characters): the round, then each player's
    scores, marks (token, deciding, winner) and dice.

    The dice are told as fully as the limit allows: with their sizes, else without, else
    grouped by colour; when even that is too long for everyone, each hand is a count of dice
    and the hands are told grouped, the deciding player's first, while they fit. A text still
    too long (very long names) is cut.
    """
    words = data.words
    names = shown_names(data.names)
    head = [_status(data) + "."]
    scores = [_scores_words(data, seat, name) for seat, name in enumerate(names)]

    def told(hands: Sequence[str]) -> str:
        return "\n".join(head + [f"{s}. {h}." for s, h in zip(scores, hands, strict=True)])

    def listed(dice: Sequence[DieFace], detail: int) -> str:
        return words("Dice: {dice}", dice=dice_words(words, dice, detail)) if dice else words(
            "no dice")

    for detail in range(3):
        text = told([listed(d, detail) for d in data.dice])
        if len(text) <= DESCRIPTION_LIMIT:
            return text
    hands = [words("{n} dice", n=len(d)) for d in data.dice]
    order = sorted(range(len(names)), key=lambda s: (s != data.current, s))
    for seat in order:
        grouped = [*hands]
        grouped[seat] = listed(data.dice[seat], 2)
        if len(told(grouped)) <= DESCRIPTION_LIMIT:
            hands = grouped
    text = told(hands)
    return text if len(text) <= DESCRIPTION_LIMIT else text[:DESCRIPTION_LIMIT - 1] + "…"
