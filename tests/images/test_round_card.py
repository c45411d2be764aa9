"""The round picture made for a phone (one screen with ten players), names drawn in every
script, and the picture told in words."""

from __future__ import annotations

import dataclasses
import io
import itertools
import logging
import os
import re
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw

from bot.rules.royale.state import Phase, RoyaleState
from pictures import fonts, render_round_card, round_card_data
from pictures.drawing import DieFace, die_image
from pictures.emoji import DIE_TYPES
from pictures.palette import COLUMN_COLORS, CURRENT, CURRENT_TINT, PAPER, STRIPE, WINNER
from pictures.round_card import (
    DESCRIPTION_LIMIT,
    DICE_RIGHT,
    DIGIT_SIZES,
    HEAD_H,
    MAX_HAND,
    MAX_HEIGHT,
    NAME_MIN,
    NAME_X,
    PHONE_WIDTH,
    ROW_H,
    SMALLEST_DIGITS,
    TITLE_H,
    WIDTH,
    RoundCardData,
    card_size,
    describe_round_card,
    dice_per_line,
    die_value_size,
    layout_of,
    render_round_card_image,
)

from .games import royale_game
from .pixels import count_near, decode, inset

SCRIPTS = {
    "latin": "Zoë Ærøskøbing-Ølstad the Third",
    "cjk": "李小龍",
    "emoji": "🐼 Panda Fan 🐼",
    "arabic": "مريم",
    "greek": "Ελένη",
    "cyrillic": "Дмитрий",
    "hebrew": "שרה",
}
MIN_DIGIT_PX = 9
"""The smallest digits a phone shows legibly, in pixels."""
LONGEST = {  # 32 characters each, the most Discord allows in a name
    "latin": "Bartholomew Fitzgerald-Longnamer",
    "cjk": "李小龍" * 10 + "李小",
    "emoji": "🐼" * 32,
    "arabic": "مريم عبد الله محمد الحسن علي أحمد",
}

needs_fonts = pytest.mark.skipif(
    len(fonts.chain()) < 6 and not os.environ.get("CI"),
    reason="the Noto fonts are not installed (./dev test installs them when run as root)")


def ink(image: Image.Image) -> Image.Image:
    """The drawn pixels of a tile on transparency, as a black-on-white grey picture."""
    grey = Image.new("L", image.size, 255)
    grey.paste(0, (0, 0), image.getchannel("A"))
    return grey


def notdef_ink(font: fonts.FontFile, count: int, size: int) -> Image.Image:
    """``count`` missing-glyph boxes (.notdef) of ``font``, drawn as the names are."""
    f = fonts.load(font, size)
    image = Image.new("RGBA", (count * size * 2 + 20, size * 3), (0, 0, 0, 0))
    ImageDraw.Draw(image).text((10, size), fonts.NOTDEF * count, font=f, fill=(0, 0, 0, 255))
    return ink(image.crop(image.getbbox()))


@needs_fonts
@pytest.mark.parametrize("script", list(SCRIPTS))
def test_every_script_is_drawn_with_real_glyphs(script: str,
                                                caplog: pytest.LogCaptureFixture) -> None:
    name = SCRIPTS[script]
    caplog.set_level(logging.WARNING, "pictures")
    tile = fonts.text_tile(name, 40, (0, 0, 0))
    drawn = ink(tile.image)
    assert drawn.getbbox() is not None, "nothing was drawn"
    for part_font, text in fonts.runs(name):
        assert fonts.MISSING not in text
        assert part_font is not fonts.DEFAULT, f"{text!r} fell back to Pillow's ASCII font"
        for char in text:
            if not char.isspace():
                assert fonts.has_glyph(part_font, char), (char, part_font.name)
        # the run's ink is not a row of missing-glyph boxes of the same count
        alone = ink(fonts.text_tile(text, 40, (0, 0, 0)).image)
        alone = alone.crop(Image.eval(alone, lambda v: 255 - v).getbbox())
        boxes = notdef_ink(part_font, len(text.replace(" ", "")), 40)
        assert alone.size != boxes.size or alone.tobytes() != boxes.tobytes()
    assert not [r for r in caplog.records if "can draw" in r.getMessage()]


@needs_fonts
def test_right_to_left_names_are_shaped() -> None:
    assert fonts.RAQM, "Pillow has no libraqm: Arabic would be drawn unjoined"
    # joined Arabic letters are narrower than the same letters drawn one by one
    joined = fonts.text_tile("مريم", 40, (0, 0, 0)).image.width
    apart = sum(fonts.text_tile(c, 40, (0, 0, 0)).image.width for c in "مريم")
    assert joined < apart


def test_a_character_no_font_has_is_a_visible_box_logged_once(
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, "pictures")
    odd = "a\u0378b\u0378"
    text = "".join(t for _, t in fonts.runs(odd))
    assert text.count(fonts.MISSING) + text.count("?") == 2
    fonts.runs(odd)
    assert ink(fonts.text_tile(odd, 30, (0, 0, 0)).image).getbbox() is not None
    warned = [r for r in caplog.records if "U+0378" in r.getMessage()]
    assert len(warned) <= 1


def test_long_names_are_cut_to_the_room() -> None:
    tile = fonts.text_tile(SCRIPTS["latin"] * 2, 30, (0, 0, 0), max_width=200)
    assert tile.image.width <= 200


@needs_fonts
def test_digits_are_tall_enough_on_a_phone() -> None:
    for size in DIGIT_SIZES:
        height = fonts.digit_height(size, bold=False)
        assert height * PHONE_WIDTH / WIDTH >= MIN_DIGIT_PX, (size, height)
    assert min(DIGIT_SIZES) == SMALLEST_DIGITS
    # every value a die can show, as the picture draws it on the die
    for t in DIE_TYPES:
        for value in t.faces:
            size = die_value_size((t.color, t.kind, t.sides, value))
            assert fonts.digit_height(size) * PHONE_WIDTH / WIDTH >= MIN_DIGIT_PX, (t, value)


def phone_height(png: bytes) -> float:
    """How tall a phone shows the picture, at :data:`PHONE_WIDTH` wide."""
    width, height = Image.open(io.BytesIO(png)).size
    return height * PHONE_WIDTH / width


@pytest.mark.parametrize(("players", "tallest"), [(2, 110), (5, 180), (10, 300)])
def test_the_last_round_fits_on_a_phone_screen(late_royale: dict[int, RoyaleState],
                                               players: int, tallest: int) -> None:
    state = late_royale[players]
    assert state.round == 10 and max(len(h) for h in state.hands) >= 9
    names = [*LONGEST.values(), *SCRIPTS.values()][:players]
    data = round_card_data(names, state, title="Panda Royale · game 123")
    png = render_round_card(data)
    assert Image.open(io.BytesIO(png)).size == card_size(data)
    assert card_size(data)[0] == WIDTH == 2 * PHONE_WIDTH
    assert phone_height(png) <= tallest
    assert all(layout_of(data).lines(len(d)) == 1 for d in data.dice)
    assert len(png) < 150_000


def test_the_largest_hands_the_rules_allow_stay_on_one_line(
        finished_royale: dict[int, RoyaleState], late_royale: dict[int, RoyaleState]) -> None:
    # the bound the layout relies on: no hand of a played game ever exceeds it
    hands = [len(h) for g in (*finished_royale.values(), *late_royale.values()) for h in g.hands]
    assert max(hands) <= MAX_HAND == 12
    assert dice_per_line() >= MAX_HAND
    face: DieFace = ("green", "standard", 20, 20)
    data = RoundCardData(
        names=tuple((list(LONGEST.values()) * 3)[:10]), round=10, scored_round=9,
        round_totals=(-123,) * 10, totals=(1234,) * 10, dice=((face,) * MAX_HAND,) * 10,
        token=3, current=4)
    assert card_size(data)[1] == TITLE_H + HEAD_H + 10 * ROW_H + 6 <= MAX_HEIGHT
    assert phone_height(render_round_card(data)) <= 300
    lay = layout_of(data)
    assert lay.dice_left - 8 - NAME_X >= NAME_MIN  # the names keep their room


@pytest.mark.parametrize("dice", [MAX_HAND + 1, 2 * MAX_HAND, 40])
def test_a_larger_hand_takes_two_lines_never_three(dice: int) -> None:
    face: DieFace = ("blue", "standard", 8, 8)
    data = RoundCardData(names=("a", "b"), round=5, scored_round=4, round_totals=(1, 2),
                         totals=(3, 4), dice=((face,) * dice, (face,)), token=0)
    lay = layout_of(data)
    assert lay.lines(dice) == 2 and lay.lines(1) == 1
    top = TITLE_H + HEAD_H
    assert card_size(data)[1] == top + lay.row_height(dice) + ROW_H + 6
    boxes = [lay.slot(top, i, dice) for i in range(dice)]
    assert len({b[1] for b in boxes}) == 2  # two lines of dice
    for x0, y0, x1, y1 in boxes:
        assert x0 > NAME_X + NAME_MIN and x1 <= DICE_RIGHT
        assert top <= y0 and y1 <= top + lay.row_height(dice)
    lefts = sorted({b[0] for b in boxes})
    assert all(b - a >= 18 for a, b in itertools.pairwise(lefts))  # the dice never pile up
    image = decode(render_round_card(data))
    assert count_near(image, COLUMN_COLORS["blue"], 10, boxes[-1]) > 200


@pytest.fixture(scope="module")
def drafting() -> RoundCardData:
    state = royale_game(4, seed=11, until_round=6, phase=Phase.DRAFT)
    return round_card_data(["Ada", "Bo", "Chloé", "Dev"], state, title="Panda Royale")


def test_the_dice_are_drawn_as_the_emojis_are(drafting: RoundCardData) -> None:
    image = render_round_card_image(drafting)
    lay = layout_of(drafting)
    top = TITLE_H + HEAD_H
    for seat, dice in enumerate(drafting.dice):
        fill = (CURRENT_TINT if seat == drafting.current else STRIPE if seat % 2 else PAPER)
        for i, face in enumerate(dice):
            x0, y0, x1, y1 = lay.slot(top, i, len(dice))
            tile = die_image(face, round((x1 - x0) / 0.78))
            expected = Image.new("RGB", image.size, fill)
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            expected.paste(tile, (round(cx - tile.width / 2), round(cy - tile.height / 2)), tile)
            body = inset((x0, y0, x1, y1), 4)
            assert image.crop(body).tobytes() == expected.crop(body).tobytes(), (seat, face)
        top += lay.row_height(len(dice))
    # the emoji of a die is the same drawing, larger
    face = drafting.dice[0][0]
    assert die_image(face, 128).tobytes() == die_image.__wrapped__(face, 128).tobytes()


def test_the_player_deciding_and_the_token_are_marked(drafting: RoundCardData) -> None:
    assert drafting.current is not None
    image = render_round_card_image(drafting)
    lay = layout_of(drafting)
    top = TITLE_H + HEAD_H
    for seat, dice in enumerate(drafting.dice):
        h = lay.row_height(len(dice))
        bar = count_near(image, CURRENT, 6, (0, top + 2, 6, top + h - 2))
        assert (bar > 50) == (seat == drafting.current), seat
        top += h
    # moving the token changes only the rows of its old and new holder
    old = drafting.token
    new = (old + 1) % 4
    moved = render_round_card_image(dataclasses.replace(drafting, token=new))
    box = ImageChops.difference(image, moved).getbbox()
    assert box is not None
    rows = [TITLE_H + HEAD_H]
    for dice in drafting.dice:
        rows.append(rows[-1] + lay.row_height(len(dice)))
    first, last = sorted((old, new))
    assert rows[first] <= box[1] and box[3] <= rows[last + 1]
    assert box[2] < lay.dice_left  # beside the names, not on the dice


def test_winners_are_highlighted_once_the_game_is_over(
        finished_royale: dict[int, RoyaleState]) -> None:
    state = finished_royale[4]
    data = round_card_data(["a", "b", "c", "d"], state)
    assert data.final and data.winners() and data.current is None
    image = decode(render_round_card(data))
    lay = layout_of(data)
    top = TITLE_H + HEAD_H
    for seat, dice in enumerate(data.dice):
        h = lay.row_height(len(dice))
        gold = count_near(image, WINNER, 3, (NAME_X, top + 2, WIDTH - 10, top + h - 2))
        assert (gold > 1000) == (seat in data.winners()), seat
        top += h


def test_the_same_round_gives_the_same_bytes(drafting: RoundCardData) -> None:
    assert render_round_card(drafting) == render_round_card(dataclasses.replace(drafting))
    other = dataclasses.replace(drafting, totals=(1, 2, 3, 4))
    assert render_round_card(other) != render_round_card(drafting)


def test_round_card_of_a_finished_game() -> None:
    state = royale_game(4, seed=3)
    data = round_card_data(["A", "B", "C", "D"], state)
    assert data.final and data.winners()
    assert render_round_card(data)[:8] == b"\x89PNG\r\n\x1a\n"


# -- in words -------------------------------------------------------------------------------


def test_the_description_tells_scores_marks_and_every_die(drafting: RoundCardData) -> None:
    text = describe_round_card(drafting)
    assert text.startswith("Round 6 of 10.")
    lines = text.splitlines()[1:]
    assert len(lines) == 4
    for seat, line in enumerate(lines):
        assert line.startswith(f"{drafting.names[seat]}: game {drafting.totals[seat]}, ")
        assert ("panda token" in line) == (seat == drafting.token)
        assert ("deciding" in line) == (seat == drafting.current)
        for *_, sides, value in drafting.dice[seat]:
            shown = f"d{sides}" if value is None else f"d{sides} {value}"
            assert shown in line, (seat, shown)
    assert len(text) <= DESCRIPTION_LIMIT


def test_the_description_of_ten_full_hands_and_long_names_fits_discords_limit() -> None:
    hand: tuple[DieFace, ...] = (("yellow", "standard", 6, 5), ("purple", "standard", 12, 11),
                                 ("blue", "glitter", 6, 3), ("red", "standard", 8, -4),
                                 ("green", "mercenary", 6, 2), ("clear", "mischief", 12, 12),
                                 ("pink", "cannon", 8, 7), ("pink", "pity", 12, None),
                                 ("green", "standard", 20, 17), ("blue", "standard", 8, 8),
                                 ("clear", "standard", 6, 1), ("yellow", "standard", 8, 8))
    assert len(hand) == MAX_HAND
    data = RoundCardData(
        names=tuple((list(LONGEST.values()) * 3)[:10]), round=10, scored_round=9,
        round_totals=tuple(range(10)), totals=tuple(range(100, 110)), dice=(hand,) * 10,
        token=2, current=2)
    text = describe_round_card(data)
    assert len(text) <= DESCRIPTION_LIMIT
    for seat in range(10):
        assert f"game {100 + seat}" in text  # every score, whatever else is cut
    short = dataclasses.replace(data, names=tuple(f"P{i}" for i in range(10)))
    told = describe_round_card(short)
    assert len(told) <= DESCRIPTION_LIMIT and "Mischief 12" in told and "P9" in told


def test_every_word_of_the_description_is_translated(drafting: RoundCardData) -> None:
    def words(msgid: str, **params: Any) -> str:
        return "<" + msgid.format(**params) + ">"

    text = describe_round_card(dataclasses.replace(drafting, words=words))
    for name in drafting.names:
        text = text.replace(name, "")
    while "<" in text:  # take out the translated parts, innermost first
        text = re.sub(r"<[^<>]*>", "", text)
    assert not re.sub(r"d\d+", "", text).strip(" .,:()\n-0123456789")
