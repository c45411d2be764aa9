"""The round card made for a phone, and names drawn in every script."""

from __future__ import annotations

import io
import logging
import os

import pytest
from PIL import Image, ImageDraw

from bot.rules.royale.state import Phase
from pictures import fonts, render_round_card, round_card_data
from pictures.round_card import DIGIT_SIZES, SMALLEST_DIGITS, WIDTH, card_size

from .games import royale_game

SCRIPTS = {
    "latin": "Zoë Ærøskøbing-Ølstad the Third",
    "cjk": "李小龍",
    "emoji": "🐼 Panda Fan 🐼",
    "arabic": "مريم",
    "greek": "Ελένη",
    "cyrillic": "Дмитрий",
    "hebrew": "שרה",
}
PHONE_WIDTH = 400
MIN_DIGIT_PX = 9

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
        assert height / WIDTH >= MIN_DIGIT_PX / PHONE_WIDTH, (size, height)
        assert height * PHONE_WIDTH / WIDTH >= MIN_DIGIT_PX
    assert min(DIGIT_SIZES) == SMALLEST_DIGITS


@pytest.mark.parametrize("players", [2, 10])
def test_round_card_is_phone_shaped(players: int) -> None:
    state = royale_game(players, seed=11, until_round=6, phase=Phase.DRAFT)
    names = [*list(SCRIPTS.values()), "Bo", "Bo", "Ada"]
    data = round_card_data(names[:players], state, title="Panda Royale · game 1")
    png = render_round_card(data)
    image = Image.open(io.BytesIO(png))
    assert image.size == card_size(data)
    assert image.width == WIDTH == 800
    assert image.height > image.width * (0.4 if players == 2 else 1.5)
    assert len(png) < 1_000_000


def test_round_card_of_a_finished_game() -> None:
    state = royale_game(4, seed=3)
    data = round_card_data(["A", "B", "C", "D"], state)
    assert data.final and data.winners()
    assert render_round_card(data)[:8] == b"\x89PNG\r\n\x1a\n"
