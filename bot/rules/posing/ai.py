"""Computer players for Posing Pandas.

* :class:`RandomPosingPlayer` ("random") picks uniformly among the legal actions.
* :class:`ExpectedValuePlayer` ("heuristic") plays each turn exactly as the optimal player
  does, but values the boxes left open exactly only once few are left (:data:`EXACT_BOXES`),
  otherwise as the sum of their baselines (:data:`BOX_BASELINES`). Its tables depend only on
  the set of open boxes, so they are built once per set and shared by every player.
* :class:`~bot.rules.posing.optimal.OptimalPosingPlayer` ("optimal") plays the exact optimum
  for the expected score (:mod:`bot.rules.posing.optimal`).

Each player draws its tie-breaks from its own :class:`~bot.rules.rng.Rng`, never the game's.
"""

from __future__ import annotations

from functools import cache
from typing import Final

from bot.rules.posing.actions import PosingAction
from bot.rules.posing.engine import legal_actions
from bot.rules.posing.optimal import (
    TurnPlan,
    boxes_of,
    decide,
    mask_of,
    option_values,
    turn_plan,
)
from bot.rules.posing.poses import (
    ALL_DIFFERENT,
    BOX_IDS,
    MIX_UP,
    POSE_BOXES,
    SET_OF_3,
    SET_OF_4,
    SET_OF_5,
)
from bot.rules.posing.state import PosingState
from bot.rules.rng import Rng

BOX_BASELINES: Final[dict[str, float]] = {
    **dict.fromkeys(POSE_BOXES, 3.42),
    SET_OF_3: 3.72,
    SET_OF_4: 3.13,
    SET_OF_5: 2.68,
    MIX_UP: 4.35,
    ALL_DIFFERENT: 4.72,
}
"""What an open box is worth to the rest of a game: the points still to come are valued as the
sum of the open boxes' baselines (only the differences between boxes matter). Fitted by least
squares to the exact optimal values of every set of 6 or more open boxes (solo play)."""

EXACT_BOXES: Final = 5
"""With this many open boxes or fewer, the rest of the game is valued exactly."""


def _without(boxes: tuple[str, ...], box: str) -> tuple[str, ...]:
    return tuple(b for b in boxes if b != box)


@cache
def _future(boxes: tuple[str, ...]) -> float:
    """The points still to come when a turn starts with ``boxes`` open."""
    if len(boxes) > EXACT_BOXES:
        return sum(BOX_BASELINES[box] for box in boxes)
    return _plan(boxes).start if boxes else 0.0


@cache
def _plan(boxes: tuple[str, ...]) -> TurnPlan:
    """The turn's expected values when ``boxes`` are the open ones: the optimal player's turn
    plan over this player's values of the rest of the game.

    Cached for good: a plan takes about 10 kB and there are only 2047 sets of open boxes.
    """
    return turn_plan(mask_of(boxes), lambda mask: _future(boxes_of(mask)))


class RandomPosingPlayer:
    """Plays a uniformly random legal action."""

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    def choose(self, state: PosingState) -> PosingAction:
        options = legal_actions(state)
        if not options:
            raise ValueError("the game is over: there is nothing to choose")
        return options[self.rng.below(len(options))]


class ExpectedValuePlayer:
    """Holds and fills by expected value (see the module docstring)."""

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    def choose(self, state: PosingState) -> PosingAction:
        if state.is_over:
            raise ValueError("the game is over: there is nothing to choose")
        filled = state.filled[state.seat]
        boxes = tuple(box for box in BOX_IDS if box not in filled)
        options = option_values(state, _plan(boxes), lambda box: _future(_without(boxes, box)))
        return decide(self.rng, options)
