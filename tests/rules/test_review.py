"""The game review's judges are right by construction: on small positions, the option they
call best is the one an exact evaluation prefers, and what they say each option is worth is
its exact expectation. Royale: the last pick of round 9 (round 10's points follow from the
hands alone), against every roll of the dice scored by the engine's own ``score_hand``.
Posing: two open boxes and one roll left, against every re-roll scored by ``score_box`` and
turn-start values rebuilt from scratch (not the optimal table).
"""

from __future__ import annotations

import itertools
import random
from functools import cache
from typing import Any

import pytest

from bot.rules.posing.actions import Fill, Roll
from bot.rules.posing.engine import new_game as new_posing
from bot.rules.posing.optimal import mask_of, turn_plan
from bot.rules.posing.poses import BOX_IDS, POSE_COUNT, score_box
from bot.rules.posing.review import judge as judge_posing
from bot.rules.registry import kind_of
from bot.rules.review import Option, Review, Verdict, review_seat
from bot.rules.royale.actions import Pick
from bot.rules.royale.ai import HeuristicPlayer
from bot.rules.royale.decisions import apply_in_place
from bot.rules.royale.engine import new_game as new_royale
from bot.rules.royale.review import judge as judge_royale
from bot.rules.royale.scoring import score_hand
from bot.rules.royale.state import Phase, RoyaleState


def last_pick_of_round_9(seed: int) -> RoyaleState:
    """A 2-player base game played by the heuristic up to the last pick of round 9, the
    picker's hand cut to three dice (the exact evaluation enumerates every roll)."""
    state, _ = new_royale(["p1", "p2"], seed, keep_events=False)
    players = [HeuristicPlayer(seed), HeuristicPlayer(seed + 1)]
    while not (state.round == 9 and state.phase is Phase.DRAFT and len(state.queue) == 1):
        apply_in_place(state, players[state.queue[0][0]].choose(state), False)
    seat = state.queue[0][0]
    state.hands[seat] = state.hands[seat][:3]
    return state


def exact_round_10(state: RoyaleState, seat: int, die: str) -> float:
    """The expected round-10 points of the hand with ``die``: every roll, scored."""
    hand = [*state.hands[seat], die]
    specs = state.dice.specs
    faces = [specs[d].faces for d in hand]
    total = 0
    count = 0
    for roll in itertools.product(*faces):
        total += sum(score_hand(hand, dict(zip(hand, roll, strict=True)), specs, 10))
        count += 1
    return total / count


@pytest.mark.parametrize("seed", range(1, 13))
def test_royale_best_pick_is_the_exact_best(seed: int) -> None:
    state = last_pick_of_round_9(seed)
    seat = state.queue[0][0]
    so_far = state.totals()[seat]
    exact = {d: so_far + exact_round_10(state, seat, d) for d in state.pool}
    for die in state.pool:
        verdict = judge_royale(state, Pick(seat, die), seed)
        if verdict is None:  # a pool of one kind of die: nothing to choose
            assert len({state.dice.specs[d].label for d in state.pool}) == 1
            continue
        best = max(exact.values())
        assert verdict.chosen.points == pytest.approx(exact[die])
        assert verdict.best.points == pytest.approx(best)
        assert verdict.cost == pytest.approx(best - exact[die])
        best_labels = {state.dice.specs[d].label for d in state.pool
                       if exact[d] == pytest.approx(best)}
        assert verdict.best.what[0] in best_labels


def test_royale_exact_best_with_options_dropped_on_the_way(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The same positions, counting play-outs: the race drops options clearly beaten in the
    first futures (the last pick of round 9 has no luck left: one future tells it all), and
    the verdicts stay exact.
    """
    import bot.rules.royale.review as royale_review

    calls: list[int] = []
    original = royale_review.outcome

    def counting(*args: Any, **kwargs: Any) -> tuple[float, float]:
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(royale_review, "outcome", counting)
    dropped = 0
    for seed in range(1, 13):
        state = last_pick_of_round_9(seed)
        seat = state.queue[0][0]
        so_far = state.totals()[seat]
        exact = {d: so_far + exact_round_10(state, seat, d) for d in state.pool}
        best = max(exact.values())
        for die in state.pool:
            calls.clear()
            verdict = judge_royale(state, Pick(seat, die), seed)
            if verdict is None:
                continue
            options = royale_review.candidates(state, Pick(seat, die), seed)
            dropped += len(calls) < len(options) * royale_review.race_futures(state, len(options))
            assert verdict.chosen.points == pytest.approx(exact[die])
            assert verdict.best.points == pytest.approx(best)
    assert dropped > 0


@cache
def from_scratch(mask: int) -> float:
    return turn_plan(mask, from_scratch).start if mask else 0.0


def exact_posing(dice: tuple[int, ...], open_boxes: list[str]) -> dict[tuple[str, ...], float]:
    """Every option's exact expectation with one roll left: fills, and each hold's re-rolls
    (every outcome) followed by the best fill."""
    mask = mask_of(open_boxes)

    def fill_value(box: str, roll: tuple[int, ...]) -> float:
        return score_box(box, roll) + from_scratch(mask & ~(1 << BOX_IDS.index(box)))

    out: dict[tuple[str, ...], float] = {}
    for box in open_boxes:
        out[("fill", box)] = fill_value(box, dice)
    for size in range(len(dice)):
        for held in itertools.combinations(range(len(dice)), size):
            kept = tuple(dice[i] for i in held)
            total = 0.0
            rolls = list(itertools.product(range(1, POSE_COUNT + 1), repeat=len(dice) - size))
            for rolled in rolls:
                roll = kept + rolled
                total += max(fill_value(box, roll) for box in open_boxes)
            out[("hold", *map(str, sorted(kept)))] = total / len(rolls)
    return out


@pytest.mark.parametrize("seed", range(1, 7))
def test_posing_best_option_is_the_exact_best(seed: int) -> None:
    rng = random.Random(seed)
    state, _ = new_posing(["p1"], seed)
    open_boxes = rng.sample(BOX_IDS, 2)
    state.filled[0] = {box: 0 for box in BOX_IDS if box not in open_boxes}
    state.dice = tuple(rng.randint(1, POSE_COUNT) for _ in range(5))
    state.rolls = 2
    exact = exact_posing(state.dice, open_boxes)
    best = max(exact.values())
    actions = [Fill(0, box) for box in open_boxes] + [
        Roll(0, held) for size in range(5) for held in itertools.combinations(range(5), size)]
    for action in actions:
        verdict = judge_posing(state, action, 0)
        assert verdict is not None
        key = ("fill", action.box) if isinstance(action, Fill) else (
            "hold", *map(str, sorted(state.dice[i] for i in action.hold)))
        assert verdict.chosen.points == pytest.approx(exact[key])
        assert verdict.best.points == pytest.approx(best)
        assert exact[(verdict.best.verb, *verdict.best.what)] == pytest.approx(best)


def test_review_summary() -> None:
    def v(i: int, chosen: float, best: float) -> Verdict:
        return Verdict(i, i + 1, Option("take", ("Red d8",), chosen),
                       Option("take", ("Green d20",), best))

    r = Review(0, (v(0, 10, 10), v(1, 5, 20), v(2, 9, 10), v(3, 0, 30), v(4, 1, 4),
                   v(5, 2, 5)), 2.0)
    assert r.accurate == 2 and r.accuracy == pytest.approx(2 / 6)
    assert [x.index for x in r.costliest()] == [3, 1, 4]  # 30, 15, 3 (then 3 at index 5)
    assert r.lost == pytest.approx(0 + 15 + 1 + 30 + 3 + 3)


@pytest.mark.parametrize(("kind_name", "players", "rules"),
                         [("royale", 3, {"expansions": ["mischief", "cannon", "mercenary"]}),
                          ("posing", 2, {})])
def test_review_of_a_whole_game_is_deterministic_and_only_the_seats(
        kind_name: str, players: int, rules: dict[str, list[str]]) -> None:
    kind = kind_of(kind_name)
    assert kind.reviewer is not None
    tokens = [f"p{i + 1}" for i in range(players)]
    state, _ = kind.engine.new_game(tokens, 77, rules)
    bots = [kind.make_player("easy", i) for i in range(players)]
    actions = []
    while (seat := kind.engine.current_seat(state)) is not None:
        action = bots[seat].choose(state)
        actions.append((action.to_json(), True))
        kind.engine.apply_in_place(state, action, False)
    first = review_seat(kind.engine, kind.reviewer, tokens, 77, rules, actions, 1)
    again = review_seat(kind.engine, kind.reviewer, tokens, 77, rules, actions, 1)
    assert first == again and first.verdicts
    assert all(actions[v.index][0]["seat"] == 1 for v in first.verdicts)
    assert all(v.cost >= 0 for v in first.verdicts)
    # decisions the computer made for the seat are not the player's: not judged
    theirs = [(a, False) for a, _ in actions]
    assert not review_seat(kind.engine, kind.reviewer, tokens, 77, rules, theirs, 1).verdicts
