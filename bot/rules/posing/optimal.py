"""The optimal Posing Pandas player: the strategy of highest expected final score, exactly.

Posing Pandas scores each player alone (no bonus, no interaction), so the best play for the
expected score depends only on the player's own card. Dynamic programming over
(open boxes, dice showing, rolls left) gives it exactly:

* ``value(open)``: the expected points still to come when a turn starts with the boxes ``open``
  (a bit mask over :data:`~bot.rules.posing.poses.BOX_IDS`); ``value(0) = 0``.
* Within a turn, a roll ``d`` with no roll left is worth
  ``max(points(box, d) + value(open - box))`` over the open boxes; with rolls left it is worth
  the better of that and the best keep's expectation over the re-rolled dice (multinomial odds
  of :mod:`bot.rules.posing.odds`).

The 2,048 turn-start values are the whole table: everything within a turn follows from them in
a few milliseconds, computed on demand and cached per set of open boxes. The six pose boxes are
interchangeable, so a set's value depends only on how many pose boxes are open: the table is
built on first use from 224 sets (under a second).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from operator import mul
from typing import Final, TypeVar

from bot.rules.posing.actions import Fill, PosingAction, Roll
from bot.rules.posing.odds import dice_odds
from bot.rules.posing.poses import BOX_COUNT, BOX_IDS, MAX_ROLLS, POSE_BOXES
from bot.rules.posing.state import PosingState
from bot.rules.rng import Rng

ALL_OPEN: Final = (1 << BOX_COUNT) - 1
"""The mask of a fresh score card (every box open)."""

POSE_MASK: Final = (1 << len(POSE_BOXES)) - 1
"""The bits of the pose boxes (the first six of ``BOX_IDS``)."""

TIE: Final = 1e-9
"""Values closer than this are equal."""

T = TypeVar("T")


def mask_of(open_boxes: Sequence[str]) -> int:
    """The bit mask of a set of open boxes (bit ``i`` is ``BOX_IDS[i]``)."""
    return sum(1 << BOX_IDS.index(box) for box in set(open_boxes))


def boxes_of(mask: int) -> tuple[str, ...]:
    """The open boxes of a mask, in score-card order."""
    return tuple(box for i, box in enumerate(BOX_IDS) if mask >> i & 1)


@dataclass(frozen=True, slots=True)
class TurnPlan:
    """A turn's values for one set of open boxes (rolls and keeps indexed as in ``DiceOdds``)."""

    stop: array[float]
    """Per roll: filling the best box now (its points plus the optimal rest of the game)."""
    keep_values: tuple[array[float], ...]
    """``keep_values[r]``: per keep, the expectation of re-rolling the other dice when ``r``
    more rolls may follow that one."""
    start: float
    """The expected points of this turn and the rest of the game, before its first roll."""


def _expect(finals: tuple[int, ...], odds: tuple[float, ...], values: array[float]) -> float:
    return float(sum(map(mul, odds, map(values.__getitem__, finals))))


def turn_plan(mask: int, value: Callable[[int], float]) -> TurnPlan:
    """The optimal values of a turn with the boxes ``mask`` open, given the turn-start values
    ``value`` of every smaller set of open boxes.
    """
    if not mask & ALL_OPEN or mask & ~ALL_OPEN:
        raise ValueError(f"not a set of open boxes: {mask!r}")
    odds = dice_odds()
    columns = [
        [points + later for points in odds.scores[box]]
        for i, box in enumerate(BOX_IDS)
        if mask >> i & 1
        for later in (value(mask & ~(1 << i)),)
    ]
    stop = array("d", map(max, *columns) if len(columns) > 1 else columns[0])
    keep_values: list[array[float]] = []
    after = stop
    for _ in range(MAX_ROLLS - 1):
        values = array("d", (_expect(*outcome, after) for outcome in odds.outcomes))
        keep_values.append(values)
        get = values.__getitem__
        after = array(
            "d",
            (max(best, *map(get, subs)) for best, subs in zip(stop, odds.sub_keeps, strict=True)),
        )
    start = _expect(*odds.outcomes[odds.keep_index[()]], after)
    return TurnPlan(stop, tuple(keep_values), start)


def _alike(mask: int) -> int:
    """The set of the same value as ``mask``: its open pose boxes moved to the first ones."""
    return (1 << (mask & POSE_MASK).bit_count()) - 1 | mask & ~POSE_MASK


@cache
def table() -> tuple[float, ...]:
    """The turn-start values, indexed by mask (built on first use)."""
    values = {0: 0.0}

    def value(mask: int) -> float:
        return values[_alike(mask)]

    for mask in sorted({_alike(m) for m in range(1, ALL_OPEN + 1)}, key=int.bit_count):
        values[mask] = turn_plan(mask, value).start
    return tuple(map(value, range(ALL_OPEN + 1)))


def value(mask: int) -> float:
    """The expected points still to come when a turn starts with ``mask`` open."""
    return table()[mask]


@cache
def plan(mask: int) -> TurnPlan:
    """The optimal turn plan of ``mask``, cached (about 10 kB per set)."""
    return turn_plan(mask, value)


def hold_for(dice: tuple[int, ...], keep: tuple[int, ...]) -> tuple[int, ...]:
    """The dice indexes that keep the multiset ``keep`` (the first matching dice)."""
    wanted = list(keep)
    hold = []
    for index, face in enumerate(dice):
        if face in wanted:
            wanted.remove(face)
            hold.append(index)
    return tuple(hold)


def option_values(state: PosingState, plan: TurnPlan,
                  future: Callable[[str], float]) -> list[tuple[float, PosingAction]]:
    """Every option of the seat that must decide, with its value: each open box's fill (its
    points plus ``future(box)``, what the rest of the game is worth without it) in score-card
    order, then, while a roll is left, each hold (the expectation of re-rolling the others, from
    ``plan``) in the order of ``DiceOdds.sub_keeps``.
    """
    seat = state.seat
    odds = dice_odds()
    roll = odds.roll_index[tuple(sorted(state.dice))]
    filled = state.filled[seat]
    out: list[tuple[float, PosingAction]] = [
        (odds.scores[box][roll] + future(box), Fill(seat, box))
        for box in BOX_IDS if box not in filled
    ]
    if state.rolls < MAX_ROLLS:
        values = plan.keep_values[MAX_ROLLS - 1 - state.rolls]
        out.extend((values[keep], Roll(seat, hold_for(state.dice, odds.keeps[keep])))
                   for keep in odds.sub_keeps[roll])
    return out


def pick_best(rng: Rng, options: Sequence[tuple[float, T]]) -> T:
    """The option of highest value; exact ties are broken by ``rng``."""
    best = max(value for value, _ in options)
    ties = [option for value, option in options if value >= best - TIE]
    return ties[rng.below(len(ties))] if len(ties) > 1 else ties[0]


def decide(rng: Rng, options: Sequence[tuple[float, PosingAction]]) -> PosingAction:
    """Re-roll when some hold of ``options`` (:func:`option_values`) is worth more than the best
    fill, else fill the best box: the decision every computer player of Posing makes.
    """
    fills = [(v, a) for v, a in options if isinstance(a, Fill)]
    holds = [(v, a) for v, a in options if isinstance(a, Roll)]
    if holds and max(v for v, _ in holds) > max(v for v, _ in fills) + TIE:
        return pick_best(rng, holds)
    return pick_best(rng, fills)


def optimal_options(state: PosingState) -> list[tuple[float, PosingAction]]:
    """:func:`option_values` of the optimal play, for the seat that must decide."""
    mask = mask_of([box for box in BOX_IDS if box not in state.filled[state.seat]])
    return option_values(state, plan(mask), lambda box: value(mask & ~(1 << BOX_IDS.index(box))))


class OptimalPosingPlayer:
    """Holds and fills to maximise the expected final score (see the module docstring)."""

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    def choose(self, state: PosingState) -> PosingAction:
        if state.is_over:
            raise ValueError("the game is over: there is nothing to choose")
        return decide(self.rng, optimal_options(state))
