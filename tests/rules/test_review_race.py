"""The review's race (:func:`bot.rules.review.race`): options clearly beaten in the first
futures are not played in the others, and nothing else changes: the player's choice and the
leader always play every future, and whoever is left is worth the mean of every future, exactly
what a full evaluation gives them. The Royale judge's figures are the expert's full evaluation
(:func:`bot.rules.royale.expert_search.worth`) of the options it keeps.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.review import RACE_FIRST, decision_seed, race
from bot.rules.rng import Rng
from bot.rules.royale.actions import RoyaleAction
from bot.rules.royale.ai import HeuristicPlayer
from bot.rules.royale.decisions import apply_in_place
from bot.rules.royale.engine import new_game
from bot.rules.royale.expert_search import worth
from bot.rules.royale.review import candidates, judge, race_futures
from bot.rules.royale.state import RoyaleState

tables = st.integers(2, 7).flatmap(lambda count: st.integers(1, 20).flatmap(
    lambda futures: st.tuples(
        st.lists(st.lists(st.floats(-100, 100), min_size=futures, max_size=futures),
                 min_size=count, max_size=count),
        st.integers(0, count - 1), st.integers(0, count - 1))))


@settings(max_examples=300, deadline=None)
@given(tables)
def test_race_keeps_the_choice_and_the_best_in_every_future(
        table: tuple[list[list[float]], int, int]) -> None:
    rows, keep, top = table
    futures = len(rows[0])
    rows[top] = [max(col) + 1.0 for col in zip(*rows, strict=True)]  # best in every future
    asked: list[tuple[int, int]] = []

    def sample(i: int, j: int) -> float:
        asked.append((i, j))
        return rows[i][j]

    points = race(len(rows), futures, sample, keep)
    assert len(asked) == len(set(asked))  # no future played twice
    assert keep in points and top in points
    for i, p in points.items():  # those left: the mean of every future, as a full evaluation
        assert p == pytest.approx(sum(rows[i]) / futures)
    assert max(points.values()) == points[top]


def test_race_drops_the_clearly_beaten_and_keeps_the_close() -> None:
    rows = [[10.0, 12.0] * 8, [11.0, 11.0] * 8, [-50.0] * 16, [-60.0] * 16]
    asked: list[tuple[int, int]] = []

    def sample(i: int, j: int) -> float:
        asked.append((i, j))
        return rows[i][j]

    points = race(4, 16, sample, keep=3)
    assert points[0] == pytest.approx(11.0) and points[1] == pytest.approx(11.0)
    assert 2 not in points  # beaten by 61 points in the first futures: not played on
    assert points[3] == pytest.approx(-60.0)  # the player's choice: every future
    assert sum(i == 2 for i, _ in asked) == RACE_FIRST


def test_race_plays_the_choice_in_every_future_when_it_alone_is_left() -> None:
    rows = [[0.0] * 16, [50.0, 60.0] * 8, [-10.0] * 16]
    asked: list[tuple[int, int]] = []

    def sample(i: int, j: int) -> float:
        asked.append((i, j))
        return rows[i][j]

    assert race(3, 16, sample, keep=1) == {1: pytest.approx(55.0)}
    assert len(asked) == 2 * RACE_FIRST + 16


def mayhem_decisions(seed: int, count: int) -> list[tuple[RoyaleState, RoyaleAction]]:
    """The first ``count`` decisions of seat 0 with a choice in a 4-player Mayhem game."""
    state, _ = new_game(["p1", "p2", "p3", "p4"], seed, ["mischief", "cannon", "mercenary"],
                        keep_events=False)
    players = [HeuristicPlayer(seed + i) for i in range(4)]
    out: list[tuple[RoyaleState, RoyaleAction]] = []
    while len(out) < count:
        action = players[state.queue[0][0]].choose(state)
        if state.queue[0][0] == 0 and len(candidates(state, action, 1)) > 1:
            out.append((state.clone(), action))
        apply_in_place(state, action, False)
    return out


@pytest.mark.parametrize("seed", [3, 4])
def test_royale_verdict_figures_are_the_experts_full_evaluation(seed: int) -> None:
    """The chosen option and the best are worth what the expert's evaluation gives them over
    every future of the decision."""
    for index, (state, action) in enumerate(mayhem_decisions(seed, 8)):
        dseed = decision_seed(seed, index)
        verdict = judge(state, action, dseed)
        assert verdict is not None
        options = candidates(state, action, dseed)
        rng = Rng(dseed)
        seeds = [rng.below(1 << 62) for _ in range(race_futures(state, len(options)))]
        policy = HeuristicPlayer(dseed)
        full = [worth(state, a, seeds, policy)[1] for a in options]
        assert verdict.chosen.points == pytest.approx(full[options.index(action)])
        assert verdict.best.points in [pytest.approx(p) for p in full]
        assert verdict.best.points >= verdict.chosen.points
