"""The optimal Posing Pandas player and its table, against fresh and brute-force sums."""

from __future__ import annotations

import subprocess
import sys
from functools import cache
from itertools import combinations, product

import pytest

from bot.rules.posing.actions import Fill, Roll
from bot.rules.posing.ai import ExpectedValuePlayer, RandomPosingPlayer
from bot.rules.posing.engine import ENGINE, new_game
from bot.rules.posing.optimal import (
    ALL_OPEN,
    OptimalPosingPlayer,
    boxes_of,
    mask_of,
    table,
    turn_plan,
    value,
)
from bot.rules.posing.poses import BOX_COUNT, BOX_IDS, score_box
from bot.rules.registry import POSING, kind_of

from .posing_helpers import names, play


def _brute_force_one_box(box: str) -> float:
    """The best expected points of a turn with only ``box`` open, by enumerating every ordered
    outcome of every re-roll (independent of the odds tables)."""

    @cache
    def showing(dice: tuple[int, ...], rolls_left: int) -> float:
        best = float(score_box(box, dice))
        if rolls_left:
            for size in range(5):
                for kept in combinations(dice, size):
                    best = max(best, rolling(tuple(sorted(kept)), rolls_left))
        return best

    @cache
    def rolling(kept: tuple[int, ...], rolls_left: int) -> float:
        outcomes = list(product(range(1, 7), repeat=5 - len(kept)))
        return sum(showing(tuple(sorted(kept + o)), rolls_left - 1)
                   for o in outcomes) / len(outcomes)

    return rolling((), 3)


@pytest.mark.parametrize("box", ["pose_1", "set_of_5", "mix_up", "all_different", "set_of_3"])
def test_one_open_box_is_the_brute_force_expectation(box: str) -> None:
    assert value(mask_of([box])) == pytest.approx(_brute_force_one_box(box), abs=1e-9)


def test_closed_forms() -> None:
    # Keep every die showing the pose: each die shows it by the third roll with 1 - (5/6)^3.
    assert value(mask_of(["pose_3"])) == pytest.approx(5 * (1 - (5 / 6) ** 3), abs=1e-12)
    # Five alike within three rolls, the classic 4.6%, is worth 10 points.
    assert value(mask_of(["set_of_5"])) == pytest.approx(0.46029, abs=1e-5)


@cache
def _from_scratch(mask: int) -> float:
    """A set's value by the Bellman equation over every smaller set (no symmetry assumed)."""
    return turn_plan(mask, _from_scratch).start if mask else 0.0


def test_table_matches_a_fresh_computation_of_small_sets() -> None:
    small = [m for m in range(1, ALL_OPEN + 1) if m.bit_count() <= 3]
    assert len(small) == 11 + 55 + 165
    for mask in small:
        assert table()[mask] == pytest.approx(_from_scratch(mask), abs=1e-9), boxes_of(mask)


def test_table_satisfies_the_bellman_equation() -> None:
    """Every size of open set, the full card included: one step from the table's own values,
    on sets whose pose boxes are not the first ones (the table computes those by symmetry)."""
    masks = [ALL_OPEN, *(ALL_OPEN & ~(1 << i) for i in range(BOX_COUNT)),
             *(m for m in range(1, ALL_OPEN + 1, 97))]
    for mask in masks:
        assert turn_plan(mask, value).start == pytest.approx(value(mask), abs=1e-9), \
            boxes_of(mask)


def test_known_values() -> None:
    """Values of the table once shipped as a generated module (built without symmetry)."""
    old = {1: 2.1064814814814756, 32: 2.1064814814814787, 64: 2.229585810089922,
           63: 16.511600097823013, 0b10110100101: 16.32822373627601, 1024: 2.625694680389026,
           ALL_OPEN - 1: 31.65104833082634, ALL_OPEN: 35.14199806797282}
    for mask, known in old.items():
        assert value(mask) == pytest.approx(known, abs=1e-12), boxes_of(mask)


def test_pose_boxes_are_interchangeable_and_more_open_boxes_are_worth_more() -> None:
    for mask in range(1, ALL_OPEN + 1, 7):
        poses = mask & 63
        swapped = mask & ~63 | int(f"{poses:06b}"[::-1], 2)  # pose 1 <-> 6, 2 <-> 5, 3 <-> 4
        assert value(swapped) == value(mask)
        for i in range(BOX_COUNT):
            if mask >> i & 1:
                assert value(mask) > value(mask & ~(1 << i)), boxes_of(mask)


def test_optimal_expected_score() -> None:
    assert value(ALL_OPEN) == pytest.approx(35.142, abs=1e-3)
    assert len(table()) == 2**BOX_COUNT and table()[0] == 0.0


def test_masks_and_boxes() -> None:
    assert mask_of(BOX_IDS) == ALL_OPEN
    assert boxes_of(mask_of(["set_of_4", "pose_2"])) == ("pose_2", "set_of_4")
    with pytest.raises(ValueError):
        turn_plan(0, value)


@pytest.mark.parametrize(("n", "seed"), [(1, 0), (3, 1), (10, 2)])
def test_optimal_player_only_legal_actions(n: int, seed: int) -> None:
    state, _, _ = play(n, seed, ("optimal",), ai_seed=seed, check_legal=True)
    assert ENGINE.current_seat(state) is None


def test_optimal_player_is_deterministic_and_leaves_the_game_alone() -> None:
    assert play(2, 5, ("hard",), ai_seed=3)[2] == play(2, 5, ("hard",), ai_seed=3)[2]
    state, _ = new_game(names(1), 4)
    before = state.to_json()
    OptimalPosingPlayer(1).choose(state)
    assert state.to_json() == before


def test_optimal_player_takes_obvious_points() -> None:
    state, _ = new_game(names(1), 1)
    player = OptimalPosingPlayer(0)
    state.dice, state.rolls = (4, 4, 4, 4, 4), 1
    assert player.choose(state) == Fill(0, "set_of_5")
    state.dice, state.rolls = (6, 6, 2, 6, 6), 1
    state.filled[0] = {box: 0 for box in BOX_IDS if box != "set_of_5"}
    assert player.choose(state) == Roll(0, (0, 1, 3, 4))


def test_levels_and_names() -> None:
    assert isinstance(POSING.make_player("hard", 1), OptimalPosingPlayer)
    assert isinstance(POSING.make_player("optimal", 1), OptimalPosingPlayer)
    assert isinstance(POSING.make_player("normal", 1), ExpectedValuePlayer)
    assert isinstance(POSING.make_player("easy", 1), RandomPosingPlayer)
    assert kind_of("posing").levels["hard"] == "optimal"
    assert kind_of("royale").levels["hard"] == "expert"


def test_the_table_is_not_built_by_imports() -> None:
    code = ("import bot.rules.posing.ai, bot.rules.posing.optimal as o, bot.rules.royale.ai; "
            "print(o.table.cache_info().currsize)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "0"
