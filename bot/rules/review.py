"""A game's review: each decision of one player judged by the game's strongest player.

A kind's *judge* (:class:`Judge`: :mod:`bot.rules.royale.review`, :mod:`bot.rules.posing.review`)
takes the state a decision was made in and the action made, and returns a :class:`Verdict`:
what the chosen option was worth (the player's expected final score) against the best option
it found, each named in plain values (:class:`Option`) the Discord layer puts into words.
:func:`review_seat` replays a game from its seed and its action log through the engine and asks
the judge about every decision the player made themselves.

Everything is deterministic: a decision's judge draws only from a generator seeded with
:func:`decision_seed` (the game's seed and the decision's place in the log).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from bot.rules.api import Engine

_SEED_RANGE: Final = 1 << 62
COSTLIEST: Final = 3
"""How many of the costliest decisions a review names."""


@dataclass(frozen=True, slots=True)
class Option:
    """One option of a decision, in plain values: ``verb`` says what it does (Royale:
    ``take``, ``trade``, ``pass``, ``mischief``, ``fire``, ``save``; Posing: ``hold``,
    ``fill``), ``what`` its objects (die labels, a seat's player, a box id, poses held), and
    ``points`` the deciding player's expected final score with it.
    """

    verb: str
    what: tuple[str, ...]
    points: float


@dataclass(frozen=True, slots=True)
class Verdict:
    """One decision judged: the option chosen against the best one found."""

    index: int
    """The decision's place in the game's action log (0 is the first action)."""
    round: int
    """Its round (Royale) or turn (Posing)."""
    chosen: Option
    best: Option

    @property
    def cost(self) -> float:
        """The expected points the choice gave away (0 when it was the best)."""
        return max(0.0, self.best.points - self.chosen.points)


@dataclass(frozen=True, slots=True)
class Review:
    """A player's decisions in one game, judged."""

    seat: int
    verdicts: tuple[Verdict, ...]
    margin: float
    """A decision within this many expected points of the best counts as accurate."""

    @property
    def accurate(self) -> int:
        """How many decisions were within :attr:`margin` of the best."""
        return sum(v.cost <= self.margin for v in self.verdicts)

    @property
    def accuracy(self) -> float:
        """The share of accurate decisions (1.0 with no decision to judge)."""
        return self.accurate / len(self.verdicts) if self.verdicts else 1.0

    @property
    def lost(self) -> float:
        """The expected points all the decisions gave away together."""
        return sum(v.cost for v in self.verdicts)

    def costliest(self, k: int = COSTLIEST) -> list[Verdict]:
        """The ``k`` decisions that cost most (those beyond the margin only), costliest first;
        equal costs in game order.
        """
        worse = [v for v in self.verdicts if v.cost > self.margin]
        return sorted(worse, key=lambda v: (-v.cost, v.index))[:k]


Judge = Callable[[Any, Any, int], Verdict | None]
"""``judge(state, action, seed)``: the verdict on ``action`` made in ``state`` (the decision's
index is filled in by :func:`review_seat`), or None when there was nothing to choose."""


@dataclass(frozen=True, slots=True)
class Reviewer:
    """A game kind's judge and the margin its reviews count as accurate."""

    judge: Judge
    margin: float


def decision_seed(game_seed: int, index: int) -> int:
    """The seed of the judge's generator for decision ``index`` of a game."""
    return (game_seed * 1_000_003 + index * 7_919 + 1) % _SEED_RANGE


def review_seat(engine: Engine[Any, Any], reviewer: Reviewer, players: Sequence[str],
                seed: int, rules: Mapping[str, Any],
                actions: Sequence[tuple[Mapping[str, Any], bool]], seat: int) -> Review:
    """Replay a game (its ``players``, ``seed`` and rule options, then its logged actions as
    JSON, each with whether its player made it themselves) and judge every action ``seat``
    made themselves (not the computer's for them).
    """
    state, _ = engine.new_game(list(players), seed, dict(rules))
    verdicts: list[Verdict] = []
    for index, (data, own) in enumerate(actions):
        action = engine.action_from_json(data)
        if own and action.seat == seat:
            v = reviewer.judge(state, action, decision_seed(seed, index))
            if v is not None:
                verdicts.append(Verdict(index, v.round, v.chosen, v.best))
        engine.apply_in_place(state, action, False)
    return Review(seat, tuple(verdicts), reviewer.margin)
