"""score_dice: the rulebook's worked examples and the columns of docs/rules.md."""

from __future__ import annotations

import pytest

from bot.rules.royale.dice import COLUMN_NAMES
from bot.rules.royale.scoring import score_dice, score_hand

from .helpers import BOX, rolled


def cols(**kw: int) -> list[int]:
    return [kw.get(name, 0) for name in COLUMN_NAMES]


# (case id, dice as (id, value), round, scored cannons, expected columns)
CASES = [
    # Rulebook: "a purple 8 and a purple 1 ... (8 + 1) x 2 = 18"
    ("purple_8_1", [("purple8-1", 8), ("purple12-1", 1)], 1, (), cols(purple=18)),
    # Rulebook blue examples: no glitter 11; (1 + 3 + 4) x 2 = 16 with a glitter; a lone glitter 1
    ("blue_11_no_glitter", [("blue6-1", 5), ("blue12-1", 6)], 1, (), cols(blue=11)),
    ("blue_16_glitter", [("blue6-1", 1), ("blue8-1", 3), ("glitter6-1", 4)], 1, (),
     cols(blue=16)),
    ("blue_only_glitter_1", [("glitter6-1", 1)], 1, (), cols(blue=2)),
    # Rulebook red example: (6 + 5 - 4 - 1) x 4 = 24
    ("red_6_5_m4_m1", [("red6-1", 6), ("red6-2", 5), ("red8-1", -4), ("red8-2", -1)], 1, (),
     cols(red=24)),
    # Rulebook score sheet row: Yellow 6, Purple 12, Blue 10, Red 4, Green 14, Clear 4, Pink 12
    ("sheet_row_62", [
        ("yellow6-1", 2), ("yellow8-1", 4),
        ("purple8-1", 1), ("purple12-1", 5),
        ("blue6-1", 2), ("glitter6-1", 3),
        ("red6-1", 5), ("red8-1", -3),
        ("green20-1", 14),
        ("clear6-1", 4),
        ("pink12-1", 12),
    ], 1, (), cols(yellow=6, purple=12, blue=10, red=4, green=14, clear=4, pink=12)),
    # Several glitter dice double the blue column once only.
    ("two_glitters_double_once", [("glitter6-1", 2), ("glitter6-2", 3), ("blue6-1", 1)], 1, (),
     cols(blue=12)),
    ("three_glitters_double_once", [("glitter6-1", 6), ("glitter6-2", 6), ("glitter6-3", 6)], 1,
     (), cols(blue=36)),
    # Red: negative totals are multiplied too.
    ("red_negative", [("red6-1", -3), ("red6-2", -2), ("red8-1", -4)], 1, (), cols(red=-27)),
    ("red_single", [("red8-1", 8)], 1, (), cols(red=8)),
    ("red_zero_sum", [("red6-1", 4), ("red8-1", -4)], 1, (), cols(red=0)),
    # A round total below zero.
    ("negative_total", [("yellow6-1", 1), ("red6-1", -3), ("red6-2", -2), ("green20-1", 2)], 1,
     (), cols(yellow=1, red=-10, green=2)),
    # Yellow, green and clear are plain sums.
    ("yellow_sum", [("yellow6-1", 6), ("yellow8-1", 8), ("yellow8-2", 1)], 1, (), cols(yellow=15)),
    ("green_sum", [("green20-1", 20), ("green20-2", 7)], 1, (), cols(green=27)),
    # Mercenary: value x round number, in the green column.
    ("mercenary_round_1", [("mercenary6-1", 4)], 1, (), cols(green=4)),
    ("mercenary_round_5", [("mercenary6-1", 6)], 5, (), cols(green=30)),
    ("mercenary_round_7_with_green", [("mercenary6-1", 4), ("green20-1", 10)], 7, (),
     cols(green=38)),
    ("two_mercenaries_round_10", [("mercenary6-1", 1), ("mercenary6-2", 2)], 10, (),
     cols(green=30)),
    # Cannon: x10 in the pink column only when scored; 0 when saved.
    ("cannon_scored", [("cannon8-1", 7)], 3, ("cannon8-1",), cols(pink=70)),
    ("cannon_saved", [("cannon8-1", 7)], 3, (), cols(pink=0)),
    ("cannon_scored_and_pity", [("cannon8-1", 7), ("pink12-1", 5)], 3, ("cannon8-1",),
     cols(pink=75)),
    ("cannon_saved_and_pity", [("cannon8-1", 7), ("pink12-1", 5)], 3, ("cannon8-2",),
     cols(pink=5)),
    ("two_cannons_one_scored", [("cannon8-1", 3), ("cannon8-2", 8)], 9, ("cannon8-2",),
     cols(pink=80)),
    ("cannon_not_multiplied_by_round", [("cannon8-1", 2)], 10, ("cannon8-1",), cols(pink=20)),
    # Mischief d12 scores in the clear column, with the clear d6.
    ("mischief_clear", [("mischief12-1", 9), ("clear6-1", 3)], 2, (), cols(clear=12)),
    ("two_mischief", [("mischief12-1", 12), ("mischief12-2", 11)], 2, (), cols(clear=23)),
    # Pink pity die: its value.
    ("pity", [("pink12-1", 11)], 4, (), cols(pink=11)),
    ("nothing", [], 1, (), cols()),
]


@pytest.mark.parametrize(("dice", "round_no", "cannons", "expected"),
                         [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_score_dice(dice, round_no, cannons, expected):
    got = score_dice(rolled(*dice), round_no, cannons)
    assert got == expected


def test_sheet_row_totals_62():
    dice = dict(CASES[5][1])
    assert sum(score_dice(rolled(*dice.items()))) == 62


def test_negative_round_total():
    assert sum(score_dice(rolled(("yellow6-1", 1), ("red6-1", -3), ("red6-2", -2)))) == -9


def test_red_multiplier_counts_red_dice_only():
    # blue, purple and clear dice don't count towards the red multiplier
    dice = rolled(("red6-1", 5), ("blue6-1", 3), ("purple8-1", 2), ("clear6-1", 1))
    assert score_dice(dice) == cols(red=5, blue=3, purple=4, clear=1)


def test_glitter_does_not_double_other_columns():
    dice = rolled(("glitter6-1", 2), ("purple8-1", 3), ("green20-1", 5), ("red6-1", 4))
    assert score_dice(dice) == cols(blue=4, purple=6, green=5, red=4)


@pytest.mark.parametrize("round_no", range(1, 11))
def test_score_hand_matches_score_dice(round_no):
    hand = ["mercenary6-1", "cannon8-1", "red6-1", "red8-1", "glitter6-1", "blue12-1",
            "purple12-1", "yellow6-1", "pink12-1", "mischief12-1", "clear6-1", "green20-1"]
    values = {d: BOX[d].faces[(i * 7 + round_no) % BOX[d].sides] for i, d in enumerate(hand)}
    scored = ("cannon8-1",) if round_no % 2 else ()
    expected = score_dice(((BOX[d], values[d]) for d in hand), round_no, scored)
    assert score_hand(hand, values, BOX, round_no, scored) == expected
    assert expected[COLUMN_NAMES.index("green")] == values["green20-1"] + (
        values["mercenary6-1"] * round_no)
