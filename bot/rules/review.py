"""A game's review: each decision of one player judged by the game's strongest player.

A kind's *judge* (:data:`Judge`: :mod:`bot.rules.royale.review`, :mod:`bot.rules.posing.review`)
weighs the option a player chose against the best one it finds, in expected final points.
:func:`review_seat` replays a game through the engine and asks the judge about every decision
the player made themselves. A judge that weighs options by play-outs may let them race
(:func:`race`): the clearly beaten ones are not played in every future.

Everything is deterministic: a decision's judge draws only from a generator seeded with
:func:`decision_seed` (the game's seed and the decision's place in the log).
"""

from __future__ import annotations

import math
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


RACE_FIRST: Final = 4
"""The futures every option of a race is played in before any is dropped."""
RACE_GROWTH: Final = 1.5
"""After each look at the options, the futures played grow by this factor."""
RACE_Z: Final = 2.0
"""An option is dropped when it trails the leader by more than this many standard errors."""
RACE_SPREAD: Final = 1.0
"""The least standard deviation (points) a race assumes of one future's difference."""


def race(count: int, futures: int, sample: Callable[[int, int], float], keep: int,
         first: int = RACE_FIRST, z: float = RACE_Z,
         spread: float = RACE_SPREAD) -> dict[int, float]:
    """The mean of ``sample(option, future)`` over the futures ``0 .. futures - 1`` of each
    of ``count`` options (by index) but those clearly beaten on the way: successive halving
    over paired futures (the ``RACE_*`` constants say when an option is dropped).

    The leader (the highest total so far) is never dropped, nor option ``keep`` (the player's
    choice: a review shows what it was worth, even once it alone is left). The options left have
    all been played in every future, the same ones, so they are worth exactly what a full
    evaluation gives them.
    """
    samples: list[list[float]] = [[] for _ in range(count)]
    live = list(range(count))
    done = 0
    stop = min(futures, max(1, first))
    while True:
        for i in live:
            row = samples[i]
            row.extend(sample(i, j) for j in range(done, stop))
        done = stop
        if done >= futures:
            break
        leader = max(live, key=lambda i: (sum(samples[i]), -i))
        top = samples[leader]
        live = [i for i in live if i in (leader, keep)
                or not _beaten(top, samples[i], z, spread)]
        stop = min(futures, max(done + 1, int(done * RACE_GROWTH)))
    return {i: sum(samples[i]) / done for i in live}


def _beaten(top: Sequence[float], row: Sequence[float], z: float, spread: float) -> bool:
    """Whether ``row`` trails ``top`` (the same futures) by more than ``z`` standard errors."""
    m = len(row)
    diffs = [a - b for a, b in zip(top, row, strict=True)]
    mean = sum(diffs) / m
    var = sum((d - mean) ** 2 for d in diffs) / (m - 1) if m > 1 else 0.0
    return mean > z * max(math.sqrt(var), spread) / math.sqrt(m)


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
