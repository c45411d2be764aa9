"""The games' dice as Discord application emojis: one small square PNG per die and face.

Panda Royale: every die type of the component table (``bot.rules.royale.dice``: colour, kind
and sides) showing each of its faces, and unrolled (its size, ``d12``). Posing Pandas: the six
pose dice (pips, as on the score card), plain and held (drawn inverted: dark with white pips
and a gold rim, so a held die stands out on a button or in text). Every image is drawn by the
die drawing of the pictures (:func:`pictures.drawing.die_image`,
:func:`pictures.drawing.pose_die_image`), so a die looks the same in a message and on the
round picture.

Names are ``pr_<type>_<face>`` (``pr_purple12_7``, ``pr_red6_m3`` for -3,
``pr_purple12_unrolled``) and ``pp_pose_<pips>`` (``pp_pose_4``, ``pp_pose_4_held``); the type
is the prefix of the engine's die ids (``purple12-3`` is a ``purple12``). A name depends only on
the die, never on the drawing: the bot finds its emoji by name and compares
:func:`fingerprints` to know which images changed.
"""

from __future__ import annotations

import hashlib
import io
import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Final

from PIL import Image

from bot.rules.posing.poses import POSE_COUNT
from bot.rules.royale.dice import (
    BAG_DICE,
    CANNON_D8,
    MERCENARY_D6,
    MISCHIEF_D12,
    PITY_D12,
    YELLOW_D6,
    DieSpec,
    DieType,
)
from pictures.drawing import DieFace, die_image, pose_die_image

SIZE: Final = 128
"""The side of every emoji image, in pixels (Discord shows them at 22 px in text, about 20-24
on buttons, and takes 128 x 128 best)."""
MAX_BYTES: Final = 256 * 1024
"""Discord's limit for one emoji image."""
NAME: Final = re.compile(r"^[A-Za-z0-9_]{2,32}$")
"""Discord's rule for an emoji's name."""
ROYALE_PREFIX: Final = "pr_"
POSING_PREFIX: Final = "pp_"

DIE_TYPES: Final[tuple[DieType, ...]] = (YELLOW_D6, PITY_D12, *BAG_DICE, CANNON_D8,
                                         MERCENARY_D6, MISCHIEF_D12)
"""Every row of Panda Royale's component table."""
_BY_LOOK: Final[dict[tuple[str, str, int], DieType]] = {
    (t.color, t.kind, t.sides): t for t in DIE_TYPES}


def _face_part(value: int | None) -> str:
    if value is None:
        return "unrolled"
    return f"m{-value}" if value < 0 else str(value)


def _type_of(color: str, kind: str, sides: int) -> DieType:
    found = _BY_LOOK.get((color, kind, sides))
    if found is None:
        raise ValueError(f"no {color} {kind} d{sides} in Panda Royale's dice")
    return found


def _name(t: DieType, value: int | None) -> str:
    if value is not None and value not in t.faces:
        raise ValueError(f"a {t.label} never shows {value}")
    return f"{ROYALE_PREFIX}{t.prefix}_{_face_part(value)}"


def face_emoji_name(face: DieFace) -> str:
    """The emoji of a die as the pictures describe it: (colour, kind, sides, value or None
    when not rolled). ``ValueError`` for a die or face that Panda Royale has not.
    """
    color, kind, sides, value = face
    return _name(_type_of(color, kind, sides), value)


def die_emoji_name(spec: DieSpec, value: int | None) -> str:
    """The emoji of the die ``spec`` showing ``value`` (None: not rolled this round)."""
    return _name(_type_of(spec.color, spec.kind, spec.sides), value)


def pose_emoji_name(pips: int, held: bool = False) -> str:
    """The emoji of a Posing Pandas die showing pose ``pips`` (1..6), held or not."""
    if not 1 <= pips <= POSE_COUNT:
        raise ValueError(f"a pose die shows 1 to {POSE_COUNT}, not {pips}")
    return f"{POSING_PREFIX}pose_{pips}" + ("_held" if held else "")


def royale_faces() -> Iterator[DieFace]:
    """Every die face an emoji is drawn for: each die type unrolled, then each of its faces."""
    for t in DIE_TYPES:
        yield (t.color, t.kind, t.sides, None)
        for value in t.faces:
            yield (t.color, t.kind, t.sides, value)


def encode(image: Image.Image) -> bytes:
    """An RGBA image as PNG bytes, the same bytes for the same pixels."""
    buf = io.BytesIO()
    image.save(buf, "PNG", compress_level=6)
    return buf.getvalue()


def royale_emoji(face: DieFace) -> bytes:
    """The emoji image of a Panda Royale die face, as PNG bytes."""
    return encode(die_image.__wrapped__(face, SIZE))  # drawn once, kept nowhere


def pose_emoji(pips: int, held: bool = False) -> bytes:
    """The emoji image of a Posing Pandas die, as PNG bytes."""
    return encode(pose_die_image.__wrapped__(pips, SIZE, held))


@lru_cache(maxsize=1)
def _emoji_set() -> tuple[tuple[str, bytes], ...]:
    out = [(face_emoji_name(face), royale_emoji(face)) for face in royale_faces()]
    out += [(pose_emoji_name(pips, held), pose_emoji(pips, held))
            for held in (False, True) for pips in range(1, POSE_COUNT + 1)]
    return tuple(out)


def emoji_set() -> dict[str, bytes]:
    """Every emoji of both games: name -> PNG bytes (drawn at the first call, then kept)."""
    return dict(_emoji_set())


def fingerprint(png: bytes) -> str:
    """A stable fingerprint of an image's content: the first 16 hex digits of its SHA-256."""
    return hashlib.sha256(png).hexdigest()[:16]


def fingerprints() -> dict[str, str]:
    """Every emoji's name -> :func:`fingerprint` of its image: compare them with the ones the
    emojis were uploaded with to recreate only those missing or changed.
    """
    return {name: fingerprint(png) for name, png in _emoji_set()}
