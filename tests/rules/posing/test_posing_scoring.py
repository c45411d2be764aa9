"""The scoring table: every box, with the edge cases between the combinations."""

from __future__ import annotations

import pytest

from bot.rules.posing.poses import (
    BOX_IDS,
    BOX_NAMES,
    POSE_NAMES,
    box_name,
    pose_name,
    score_all,
    score_box,
)

# dice -> the boxes that score (every other box scores 0)
CASES = [
    # five alike: pose 5, set of 3, 4 and 5 - but not a mix up
    ((1, 1, 1, 1, 1), {"pose_1": 5, "set_of_3": 3, "set_of_4": 4, "set_of_5": 10}),
    ((6, 6, 6, 6, 6), {"pose_6": 5, "set_of_3": 3, "set_of_4": 4, "set_of_5": 10}),
    # four alike: set of 3 and 4, not 5, not a mix up
    ((2, 2, 2, 2, 5), {"pose_2": 4, "pose_5": 1, "set_of_3": 3, "set_of_4": 4}),
    ((3, 4, 4, 4, 4), {"pose_3": 1, "pose_4": 4, "set_of_3": 3, "set_of_4": 4}),
    # three + two: mix up and set of 3
    ((3, 3, 3, 5, 5), {"pose_3": 3, "pose_5": 2, "set_of_3": 3, "mix_up": 5}),
    ((6, 1, 6, 1, 6), {"pose_1": 2, "pose_6": 3, "set_of_3": 3, "mix_up": 5}),
    ((4, 4, 1, 1, 1), {"pose_1": 3, "pose_4": 2, "set_of_3": 3, "mix_up": 5}),
    # three alike and two different: set of 3 only
    ((5, 5, 5, 1, 2), {"pose_1": 1, "pose_2": 1, "pose_5": 3, "set_of_3": 3}),
    ((5, 1, 5, 2, 5), {"pose_1": 1, "pose_2": 1, "pose_5": 3, "set_of_3": 3}),
    # all different (any five of the six poses)
    ((1, 2, 3, 4, 5), {f"pose_{p}": 1 for p in (1, 2, 3, 4, 5)} | {"all_different": 5}),
    ((6, 5, 4, 3, 2), {f"pose_{p}": 1 for p in (2, 3, 4, 5, 6)} | {"all_different": 5}),
    ((1, 3, 4, 5, 6), {f"pose_{p}": 1 for p in (1, 3, 4, 5, 6)} | {"all_different": 5}),
    # pairs score only in their pose boxes
    ((1, 1, 2, 3, 4), {"pose_1": 2, "pose_2": 1, "pose_3": 1, "pose_4": 1}),
    ((2, 2, 6, 6, 3), {"pose_2": 2, "pose_3": 1, "pose_6": 2}),
]


@pytest.mark.parametrize(("dice", "scoring"), CASES, ids=[str(d) for d, _ in CASES])
def test_score_all(dice: tuple[int, ...], scoring: dict[str, int]) -> None:
    expected = {box: scoring.get(box, 0) for box in BOX_IDS}
    assert score_all(dice) == expected
    for box in BOX_IDS:
        assert score_box(box, dice) == expected[box]


@pytest.mark.parametrize(
    ("box", "dice", "points"),
    [
        ("pose_1", (1, 1, 1, 2, 3), 3),
        ("pose_1", (2, 3, 4, 5, 6), 0),
        ("pose_6", (6, 6, 6, 6, 6), 5),
        ("set_of_3", (4, 4, 4, 1, 2), 3),
        ("set_of_3", (4, 4, 1, 1, 2), 0),
        ("set_of_3", (4, 4, 4, 4, 4), 3),
        ("set_of_4", (4, 4, 4, 4, 2), 4),
        ("set_of_4", (4, 4, 4, 1, 2), 0),
        ("set_of_4", (2, 2, 2, 2, 2), 4),
        ("set_of_5", (3, 3, 3, 3, 3), 10),
        ("set_of_5", (3, 3, 3, 3, 1), 0),
        ("mix_up", (2, 2, 5, 5, 5), 5),
        ("mix_up", (2, 2, 2, 2, 2), 0),
        ("mix_up", (2, 2, 2, 2, 5), 0),
        ("mix_up", (2, 2, 5, 5, 1), 0),
        ("mix_up", (2, 2, 2, 5, 1), 0),
        ("all_different", (1, 2, 3, 4, 6), 5),
        ("all_different", (1, 2, 3, 4, 4), 0),
        ("all_different", (5, 5, 5, 5, 5), 0),
    ],
)
def test_score_box(box: str, dice: tuple[int, ...], points: int) -> None:
    assert score_box(box, dice) == points


@pytest.mark.parametrize(
    "dice", [(1, 2, 3, 4), (1, 2, 3, 4, 5, 6), (0, 1, 2, 3, 4), (1, 2, 3, 4, 7), (1, 2, 3, 4, "5")]
)
def test_not_five_poses(dice: tuple[object, ...]) -> None:
    with pytest.raises(ValueError):
        score_all(dice)  # type: ignore[arg-type]


def test_unknown_box() -> None:
    with pytest.raises(ValueError):
        score_box("yahtzee", (1, 1, 1, 1, 1))


def test_eleven_boxes_with_names() -> None:
    assert BOX_IDS == (
        "pose_1",
        "pose_2",
        "pose_3",
        "pose_4",
        "pose_5",
        "pose_6",
        "set_of_3",
        "set_of_4",
        "set_of_5",
        "mix_up",
        "all_different",
    )
    assert set(BOX_NAMES) == set(BOX_IDS)
    assert pose_name(1) == "Face It" == box_name("pose_1")
    assert len(set(POSE_NAMES.values())) == 6
    assert len(set(BOX_NAMES.values())) == 11
    assert box_name("set_of_4") == "Set of 4"
