"""What the Posing computer players share: one decision from a turn plan (hold and re-roll, or
fill a box), the best option with ties broken by the player's own seeded generator.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final, Protocol, TypeVar

from bot.rules.posing.actions import Fill, PosingAction, Roll
from bot.rules.posing.odds import dice_odds
from bot.rules.posing.poses import MAX_ROLLS
from bot.rules.posing.state import PosingState
from bot.rules.rng import Rng

TIE: Final = 1e-9
"""Values closer than this are equal."""

T = TypeVar("T")


class TurnValues(Protocol):
    """A turn's values for one set of open boxes (rolls and keeps as in ``DiceOdds``)."""

    @property
    def stop(self) -> Sequence[float]:
        """Per roll: the value of filling the best box now."""
        ...

    @property
    def keep_values(self) -> Sequence[Sequence[float]]:
        """``keep_values[r]``: per keep, the value of re-rolling when ``r`` more rolls follow."""
        ...


def pick_best(rng: Rng, options: list[tuple[float, T]]) -> T:
    """The option of highest value; exact ties are broken by ``rng``."""
    best = max(value for value, _ in options)
    ties = [option for value, option in options if value >= best - TIE]
    return ties[rng.below(len(ties))] if len(ties) > 1 else ties[0]


def hold_for(dice: tuple[int, ...], keep: tuple[int, ...]) -> tuple[int, ...]:
    """The dice indexes that keep the multiset ``keep`` (the first matching dice)."""
    wanted = list(keep)
    hold = []
    for index, face in enumerate(dice):
        if face in wanted:
            wanted.remove(face)
            hold.append(index)
    return tuple(hold)


def decide(rng: Rng, state: PosingState, plan: TurnValues, boxes: Sequence[str],
           future: Callable[[str], float]) -> PosingAction:
    """Re-roll when keeping some dice is worth more than filling now, else fill the box whose
    points plus ``future(box)`` (what the rest of the game is worth without it) is best.
    """
    seat = state.seat
    odds = dice_odds()
    roll = odds.roll_index[tuple(sorted(state.dice))]
    if state.rolls < MAX_ROLLS:
        values = plan.keep_values[MAX_ROLLS - 1 - state.rolls]
        subs = odds.sub_keeps[roll]
        if max(map(values.__getitem__, subs)) > plan.stop[roll] + TIE:
            keep = pick_best(rng, [(values[k], k) for k in subs])
            return Roll(seat, hold_for(state.dice, odds.keeps[keep]))
    return pick_best(rng, [(odds.scores[box][roll] + future(box), Fill(seat, box))
                           for box in boxes])
