"""The Posing Pandas components: the pose table, the eleven score-card boxes and their scoring.

Every number of the game lives here as a named constant, so the engine, the computer players
and the Discord layer agree on them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

DICE_COUNT: Final = 5
"""Pose dice rolled each turn."""

POSE_COUNT: Final = 6
"""Faces of a pose die: poses 1 .. 6."""

MAX_ROLLS: Final = 3
"""Rolls a player may make in one turn (the first one is automatic)."""

MIN_PLAYERS: Final = 1
MAX_PLAYERS: Final = 10

SET_OF_3_POINTS: Final = 3
SET_OF_4_POINTS: Final = 4
SET_OF_5_POINTS: Final = 10
MIX_UP_POINTS: Final = 5
ALL_DIFFERENT_POINTS: Final = 5

POSE_NAMES: Final[dict[int, str]] = {
    1: "Face It",
    2: "Snack Time",
    3: "Roly-Poly",
    4: "Tree Hugger",
    5: "Lazy Lounge",
    6: "Handstand",
}
"""Pose number -> display name. Pose 1 is the rulebook's; poses 2-6 are the project's own."""

POSE_BOXES: Final[tuple[str, ...]] = tuple(f"pose_{pose}" for pose in POSE_NAMES)
SET_OF_3: Final = "set_of_3"
SET_OF_4: Final = "set_of_4"
SET_OF_5: Final = "set_of_5"
MIX_UP: Final = "mix_up"
ALL_DIFFERENT: Final = "all_different"

BOX_IDS: Final[tuple[str, ...]] = (
    *POSE_BOXES,
    SET_OF_3,
    SET_OF_4,
    SET_OF_5,
    MIX_UP,
    ALL_DIFFERENT,
)
"""The eleven boxes of a score card, in score-card order."""

BOX_COUNT: Final = len(BOX_IDS)

BOX_NAMES: Final[dict[str, str]] = {
    **{f"pose_{pose}": name for pose, name in POSE_NAMES.items()},
    SET_OF_3: "Set of 3",
    SET_OF_4: "Set of 4",
    SET_OF_5: "Set of 5",
    MIX_UP: "Mix Up",
    ALL_DIFFERENT: "All Different",
}
"""Box id -> the name printed on the score card."""


def pose_name(pose: int) -> str:
    """The display name of a pose (1 .. 6)."""
    return POSE_NAMES[pose]


def box_name(box: str) -> str:
    """The display name of a box id such as ``"set_of_4"``."""
    return BOX_NAMES[box]


def pose_counts(dice: Sequence[int]) -> list[int]:
    """How many dice show each pose: index ``p`` holds the count of pose ``p`` (index 0 unused)."""
    if len(dice) != DICE_COUNT:
        raise ValueError(f"expected {DICE_COUNT} dice, got {len(dice)}")
    counts = [0] * (POSE_COUNT + 1)
    for face in dice:
        if type(face) is not int or not 1 <= face <= POSE_COUNT:
            raise ValueError(f"not a pose: {face!r}")
        counts[face] += 1
    return counts


def _score_counts(box: str, counts: Sequence[int]) -> int:
    most = max(counts)
    if box == SET_OF_3:
        return SET_OF_3_POINTS if most >= 3 else 0
    if box == SET_OF_4:
        return SET_OF_4_POINTS if most >= 4 else 0
    if box == SET_OF_5:
        return SET_OF_5_POINTS if most == DICE_COUNT else 0
    if box == MIX_UP:
        return MIX_UP_POINTS if sorted(c for c in counts if c) == [2, 3] else 0
    if box == ALL_DIFFERENT:
        return ALL_DIFFERENT_POINTS if most == 1 else 0
    if box in POSE_BOXES:
        return counts[int(box.removeprefix("pose_"))]
    raise ValueError(f"unknown box: {box!r}")


def score_box(box: str, dice: Sequence[int]) -> int:
    """The points ``dice`` (five poses) score in ``box`` (0 where the dice do not meet it)."""
    return _score_counts(box, pose_counts(dice))


def score_all(dice: Sequence[int]) -> dict[str, int]:
    """The points ``dice`` would score in every box, in score-card order."""
    counts = pose_counts(dice)
    return {box: _score_counts(box, counts) for box in BOX_IDS}
