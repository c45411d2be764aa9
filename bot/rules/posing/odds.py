"""Dice arithmetic for the computer players: sorted rolls, kept dice and the odds between them.

Five pose dice have 252 distinct sorted rolls; a player may keep any sub-multiset of them
(462 multisets of 0 to 5 dice in all). Re-rolling the other dice turns a keep into one of a
few rolls, each with a multinomial probability. Everything is indexed once and shared.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations, combinations_with_replacement
from math import factorial, prod

from bot.rules.posing.poses import BOX_IDS, DICE_COUNT, POSE_COUNT, score_box


@dataclass(frozen=True, slots=True)
class DiceOdds:
    """Indexed rolls and keeps, how keeps become rolls, and every box's points per roll."""

    rolls: tuple[tuple[int, ...], ...]
    """Every sorted roll of the five dice."""
    roll_index: dict[tuple[int, ...], int]
    keeps: tuple[tuple[int, ...], ...]
    """Every sorted multiset of 0 to 5 kept dice."""
    keep_index: dict[tuple[int, ...], int]
    outcomes: tuple[tuple[tuple[int, ...], tuple[float, ...]], ...]
    """Per keep: the rolls (indexes) re-rolling the other dice can give, and their odds."""
    sub_keeps: tuple[tuple[int, ...], ...]
    """Per roll: the keeps a re-roll can hold (every sub-multiset but the roll itself)."""
    scores: dict[str, tuple[int, ...]]
    """Per box: its points for each roll."""


def _ways(rolled: tuple[int, ...]) -> int:
    """In how many orders the dice ``rolled`` can come up."""
    return factorial(len(rolled)) // prod(factorial(rolled.count(f)) for f in set(rolled))


@cache
def dice_odds() -> DiceOdds:
    """The shared tables (built on first use, in a few tens of milliseconds)."""
    faces = range(1, POSE_COUNT + 1)
    rolls: tuple[tuple[int, ...], ...] = tuple(combinations_with_replacement(faces, DICE_COUNT))
    roll_index = {roll: i for i, roll in enumerate(rolls)}
    keeps = tuple(
        keep
        for size in range(DICE_COUNT + 1)
        for keep in combinations_with_replacement(faces, size)
    )
    keep_index = {keep: i for i, keep in enumerate(keeps)}
    outcomes = []
    for keep in keeps:
        free = DICE_COUNT - len(keep)
        rolled_sets = list(combinations_with_replacement(faces, free))
        finals = tuple(roll_index[tuple(sorted(keep + rolled))] for rolled in rolled_sets)
        odds = tuple(_ways(rolled) / POSE_COUNT**free for rolled in rolled_sets)
        outcomes.append((finals, odds))
    sub_keeps = tuple(
        tuple(
            sorted(
                {keep_index[sub] for size in range(DICE_COUNT) for sub in combinations(roll, size)}
            )
        )
        for roll in rolls
    )
    scores = {box: tuple(score_box(box, roll) for roll in rolls) for box in BOX_IDS}
    return DiceOdds(rolls, roll_index, keeps, keep_index, tuple(outcomes), sub_keeps, scores)
