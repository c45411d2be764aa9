"""The dice as application emojis: every die and face, legal names, and readable at 22 px."""

from __future__ import annotations

import io
import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from bot.rules.posing.poses import POSE_COUNT
from bot.rules.royale.dice import BOX, RED_D6_FACES
from bot.rules.royale.state import RoyaleState
from pictures import emoji
from pictures.drawing import die_image
from pictures.emoji import (
    DIE_TYPES,
    MAX_BYTES,
    NAME,
    SIZE,
    die_emoji_name,
    emoji_set,
    face_emoji_name,
    fingerprint,
    fingerprints,
    pose_emoji_name,
)
from pictures.palette import COLUMN_COLORS, GLITTER_RIM

from .pixels import PNG_SIGNATURE, close

TEXT_SIZE = 22
"""How tall Discord shows an emoji in text."""
DARK, LIGHT = (49, 51, 56), (255, 255, 255)
"""Discord's message backgrounds, dark and light."""
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def emojis() -> dict[str, bytes]:
    return emoji_set()


def small(png: bytes, size: int = TEXT_SIZE) -> Image.Image:
    """The emoji as Discord shows it in text: scaled down to ``size`` pixels."""
    return Image.open(io.BytesIO(png)).convert("RGBA").resize((size, size),
                                                              Image.Resampling.LANCZOS)


def on(image: Image.Image, background: tuple[int, int, int]) -> Image.Image:
    """``image`` on a plain background, as grey levels."""
    out = Image.new("RGBA", image.size, (*background, 255))
    out.alpha_composite(image)
    return out.convert("L")


def differing(a: Image.Image, b: Image.Image, by: int) -> int:
    """How many pixels of two grey pictures differ by more than ``by`` levels."""
    diff = ImageChops.difference(a, b).point(lambda v: 255 if v > by else 0)
    return diff.tobytes().count(255)


def test_every_die_and_face_of_both_games_has_one_emoji(emojis: dict[str, bytes]) -> None:
    royale = sum(len(t.faces) + 1 for t in DIE_TYPES)  # each face, and unrolled
    assert len(DIE_TYPES) == 16 and royale == 160
    assert len(emojis) == royale + 2 * POSE_COUNT == 172
    assert len(emojis) < 2000 // 10  # an application may hold 2,000
    for t in DIE_TYPES:
        for value in (None, *t.faces):
            assert face_emoji_name((t.color, t.kind, t.sides, value)) in emojis
    for pips in range(1, POSE_COUNT + 1):
        assert {pose_emoji_name(pips), pose_emoji_name(pips, held=True)} <= set(emojis)


def test_names_are_legal_unique_and_say_the_die(emojis: dict[str, bytes]) -> None:
    assert all(NAME.fullmatch(name) for name in emojis)
    assert len(set(emojis)) == len(emojis)
    assert die_emoji_name(BOX["purple12-3"], 7) == "pr_purple12_7"
    assert die_emoji_name(BOX["red6-1"], -3) == "pr_red6_m3"
    assert die_emoji_name(BOX["glitter6-2"], None) == "pr_glitter6_unrolled"
    assert die_emoji_name(BOX["mischief12-4"], 12) == "pr_mischief12_12"
    assert face_emoji_name(("pink", "pity", 12, 5)) == "pr_pink12_5"
    assert face_emoji_name(("pink", "cannon", 8, 5)) == "pr_cannon8_5"
    assert pose_emoji_name(4) == "pp_pose_4" and pose_emoji_name(4, True) == "pp_pose_4_held"
    # a die's emoji is named by its type, whichever die of the box it is
    assert {die_emoji_name(spec, None) for spec in BOX.values() if spec.color == "blue"
            and spec.kind == "standard" and spec.sides == 8} == {"pr_blue8_unrolled"}


@pytest.mark.parametrize("face", [("red", "standard", 6, -4), ("red", "standard", 6, 1),
                                  ("purple", "standard", 6, 3), ("green", "standard", 20, 0),
                                  ("clear", "mischief", 6, 2)])
def test_a_die_or_face_the_game_has_not_is_refused(
        face: tuple[str, str, int, int | None]) -> None:
    assert -4 not in RED_D6_FACES
    with pytest.raises(ValueError):
        face_emoji_name(face)


@pytest.mark.parametrize("pips", [0, 7])
def test_a_pose_die_shows_one_to_six(pips: int) -> None:
    with pytest.raises(ValueError):
        pose_emoji_name(pips)


def test_every_die_a_game_shows_has_its_emoji(finished_royale: dict[int, RoyaleState],
                                              emojis: dict[str, bytes]) -> None:
    for state in finished_royale.values():
        for hand in state.hands:
            for die in hand:
                name = die_emoji_name(state.dice.specs[die], state.values.get(die))
                assert name in emojis, name


def test_every_image_is_a_small_square_png_with_clear_corners(
        emojis: dict[str, bytes]) -> None:
    for name, png in emojis.items():
        assert png.startswith(PNG_SIGNATURE) and len(png) <= MAX_BYTES // 16, name
        image = Image.open(io.BytesIO(png))
        assert image.size == (SIZE, SIZE) and image.mode == "RGBA", name
        alpha = image.getchannel("A")
        for x, y in ((0, 0), (SIZE - 6, 0), (0, SIZE - 6), (SIZE - 6, SIZE - 6)):
            corner = alpha.crop((x, y, x + 6, y + 6))
            assert corner.getextrema() == (0, 0), (name, x, y)
        assert alpha.getpixel((SIZE // 2, SIZE // 2)) == 255, name  # the die fills its middle


def test_the_same_die_gives_the_same_bytes_and_fingerprint(emojis: dict[str, bytes]) -> None:
    face = ("green", "mercenary", 6, 4)
    again = emoji.encode(die_image.__wrapped__(face, SIZE))
    assert again == emojis[face_emoji_name(face)]
    prints = fingerprints()
    assert set(prints) == set(emojis)
    assert all(prints[name] == fingerprint(png) for name, png in emojis.items())
    assert len(set(prints.values())) == len(prints)  # every image is different
    assert fingerprint(b"a") != fingerprint(b"b") and len(fingerprint(b"a")) == 16


def test_fingerprints_are_stable_across_runs() -> None:
    code = "import json; from pictures.emoji import fingerprints; print(json.dumps(fingerprints()))"
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=True,
                         capture_output=True, text=True).stdout
    assert json.loads(out) == fingerprints()


@pytest.mark.parametrize("background", [DARK, LIGHT])
def test_every_face_of_a_die_is_told_apart_at_text_size(emojis: dict[str, bytes],
                                                       background: tuple[int, int, int]
                                                       ) -> None:
    """At 22 px the faces of one die (and the die unrolled) differ in several clearly
    different pixels: the digits are drawn large enough to survive the downscale."""
    for t in DIE_TYPES:
        shown = {v: on(small(emojis[face_emoji_name((t.color, t.kind, t.sides, v))]),
                       background) for v in (None, *t.faces)}
        for a, b in itertools.combinations(shown, 2):
            assert differing(shown[a], shown[b], 60) >= 4, (t.prefix, a, b)


def test_the_value_stands_out_from_the_die_at_text_size(emojis: dict[str, bytes]) -> None:
    """The middle of every rolled die spans dark and light: its digits contrast with it."""
    for t in DIE_TYPES:
        for value in t.faces:
            middle = on(small(emojis[face_emoji_name((t.color, t.kind, t.sides, value))]),
                        DARK).crop((6, 6, 16, 16))
            low, high = middle.getextrema()
            assert high - low >= 140, (t.prefix, value)


def test_the_sizes_have_shapes_apart_at_text_size(emojis: dict[str, bytes]) -> None:
    shapes = {sides: small(emojis[face_emoji_name((color, "standard", sides, None))])
              .getchannel("A").point(lambda a: 255 if a > 128 else 0)
              for color, sides in (("blue", 6), ("blue", 8), ("blue", 12), ("green", 20))}
    for a, b in itertools.combinations(shapes, 2):
        assert differing(shapes[a], shapes[b], 128) >= 25, (a, b)


def _body_color(png: bytes) -> tuple[int, ...]:
    """The median colour of a die's opaque pixels at text size: its body."""
    image = small(png)
    pixels = [c for n, c in image.getcolors(TEXT_SIZE * TEXT_SIZE) or []  # type: ignore[misc]
              for _ in range(n) if c[3] == 255]  # type: ignore[index]
    return tuple(sorted(p[i] for p in pixels)[len(pixels) // 2] for i in range(3))


def test_the_colours_stay_apart_at_text_size(emojis: dict[str, bytes]) -> None:
    bodies = {t.color: _body_color(emojis[face_emoji_name((t.color, t.kind, t.sides, None))])
              for t in DIE_TYPES if t.kind in ("standard", "pity")}
    assert set(bodies) == set(COLUMN_COLORS)
    for color, body in bodies.items():
        assert close(body, COLUMN_COLORS[color], 20), color
    for a, b in itertools.combinations(bodies, 2):
        distance = sum((x - y) ** 2 for x, y in zip(bodies[a], bodies[b], strict=True)) ** 0.5
        assert distance >= 60, (a, b)


def test_glitter_dice_keep_their_gold_rim_at_text_size(emojis: dict[str, bytes]) -> None:
    def gold(name: str) -> int:
        image = small(emojis[name]).convert("RGB")
        return sum(n for n, c in image.getcolors(TEXT_SIZE * TEXT_SIZE) or []
                   if close(c, GLITTER_RIM, 40))  # type: ignore[arg-type]

    assert gold("pr_glitter6_3") > 3 * gold("pr_blue6_3") + 10


def test_a_held_pose_die_is_unmistakable(emojis: dict[str, bytes]) -> None:
    for pips in range(1, POSE_COUNT + 1):
        plain = on(small(emojis[pose_emoji_name(pips)]), DARK)
        held = on(small(emojis[pose_emoji_name(pips, True)]), DARK)
        assert differing(plain, held, 60) >= 150, pips
    for a, b in itertools.combinations(range(1, POSE_COUNT + 1), 2):
        assert differing(on(small(emojis[pose_emoji_name(a)]), DARK),
                         on(small(emojis[pose_emoji_name(b)]), DARK), 60) >= 4, (a, b)

