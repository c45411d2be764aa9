"""The expert's play-outs on the engine and its games: the heuristic's own choices, the state
left alone, the same futures for every candidate, and whole games that replay and validate.
"""

from __future__ import annotations

import pytest

from bot.rules.gamelog import log_lines
from bot.rules.registry import ROYALE
from bot.rules.royale.actions import Pass, Pick, Trade
from bot.rules.royale.ai import HeuristicPlayer
from bot.rules.royale.engine import apply_in_place, current_seat, legal_actions, new_game
from bot.rules.royale.expert import ExpertPlayer
from bot.rules.royale.expert_playout import ROUND_PARTS, play_out
from bot.rules.royale.expert_search import choose_best, pick_candidates, trade_candidates
from bot.rules.royale.round_odds import moments
from bot.rules.royale.state import Phase, RoyaleState
from bot.rules.validate import validate_lines
from bot.sim.runner import ai_seed, play_game

from .helpers import ALL_OPTIONS, names


def _decisions(n: int, seed: int, options: tuple[str, ...] = ()) -> list[RoyaleState]:
    """Copies of every decision of a seeded game of heuristic players."""
    s, _ = new_game(names(n), seed, options)
    bot = HeuristicPlayer(seed)
    out = []
    while current_seat(s) is not None:
        out.append(s.clone())
        apply_in_place(s, bot.choose(s))
    return out


def test_a_play_out_leaves_the_state_alone_and_counts_every_round_left() -> None:
    s = next(x for x in _decisions(4, 3) if x.phase is Phase.TRADE and x.round == 2)
    before = s.to_json()
    action = HeuristicPlayer(1).choose(s)
    gained, spread = play_out(s, action, 5, HeuristicPlayer(0))
    assert s.to_json() == before
    # Rounds 3 to 10 counted for every seat: at least a yellow d6's 3.5 points each round.
    assert all(g >= 8 * 3.5 for g in gained) and all(v > 0 for v in spread)


def test_the_last_pick_of_round_9_counts_round_10_only() -> None:
    s = next(x for x in _decisions(3, 4) if x.phase is Phase.DRAFT and x.round == 9
             and len(x.queue) == 1)
    pick = Pick(s.queue[0][0], s.pool[0])
    gained, spread = play_out(s, pick, 1, HeuristicPlayer(0))
    table = ROUND_PARTS[10]
    want = [moments([table[d] for d in (*hand, *([pick.die] if seat == pick.seat else []))])
            for seat, hand in enumerate(s.hands)]
    assert gained == pytest.approx([m for m, _ in want])
    assert spread == pytest.approx([v for _, v in want])


def test_the_same_future_gives_the_same_play_out() -> None:
    s = next(x for x in _decisions(4, 8, ALL_OPTIONS) if x.phase is Phase.DRAFT
             and x.round == 4)
    action = Pick(s.queue[0][0], s.pool[0])
    runs = [play_out(s, action, 17, HeuristicPlayer(seed)) for seed in (1, 2)]
    assert runs[0] == runs[1]  # the policy is reseeded from the future's seed
    assert play_out(s, action, 18, HeuristicPlayer(1)) != runs[0]


def test_candidates_are_the_heuristics_best_and_legal() -> None:
    checked = {Phase.DRAFT: 0, Phase.TRADE: 0}
    for s in _decisions(4, 11)[::3]:
        legal = legal_actions(s)
        heuristic = HeuristicPlayer(2)
        if s.phase is Phase.DRAFT:
            cands = pick_candidates(s, 5)
            gains = dict(zip(s.pool, HeuristicPlayer.pick_gains(s, s.queue[0][0]), strict=True))
            assert gains[cands[0].die] == max(gains.values())  # type: ignore[union-attr]
        elif s.phase is Phase.TRADE:
            cands = trade_candidates(s, heuristic, 3)
            assert cands[0] == heuristic.choose(s)
            assert Pass(s.queue[0][0]) in cands and len(cands) <= 4
            assert all(isinstance(c, Pass | Trade) for c in cands)
        else:
            continue
        checked[s.phase] += 1
        assert all(c in legal for c in cands) and len(set(cands)) == len(cands)
        assert choose_best(s, cands, [1, 2], HeuristicPlayer(3)) in cands
    assert checked[Phase.DRAFT] > 5 and checked[Phase.TRADE] > 2


def test_a_choice_depends_on_the_state_only_not_on_earlier_choices() -> None:
    decisions = _decisions(4, 23)
    states = ([s for s in decisions if s.phase is Phase.TRADE][:4]
              + [s for s in decisions if s.phase is Phase.DRAFT][::6][:8])
    forward = ExpertPlayer(ai_seed(23, 1), futures=2)
    backward = ExpertPlayer(ai_seed(23, 1), futures=2)
    ahead = [forward.choose(s) for s in states]
    assert [backward.choose(s) for s in reversed(states)] == list(reversed(ahead))
    assert any(s.phase is Phase.TRADE for s in states)


def _expert_game(seed: int) -> tuple[list[str], list[object]]:
    played = play_game(ROYALE, [f"cpu{i}" for i in range(4)], seed,
                       ["heuristic", "expert", "heuristic", "heuristic"])
    return list(log_lines(f"royale-{seed}", played.events)), played.actions


def test_an_expert_game_is_the_same_every_time_and_its_log_validates() -> None:
    lines, actions = _expert_game(31)
    assert _expert_game(31) == (lines, actions)
    report = validate_lines(lines)
    assert report.ok  # a log that stops before game_end is not
    # Replayed from the seed and the decisions, the game logs the same bytes.
    s, events = new_game([f"cpu{i}" for i in range(4)], 31)
    for a in actions:
        events += apply_in_place(s, a)  # type: ignore[arg-type]
    assert list(log_lines("royale-31", events)) == lines
