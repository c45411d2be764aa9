"""The expert's lean base-game play-outs and its games: the heuristic's exact rules, every die
kept, the same futures for every candidate, and whole games that replay and validate.
"""

from __future__ import annotations

import pytest

from bot.rules.gamelog import log_lines
from bot.rules.registry import ROYALE
from bot.rules.royale.actions import Pass, Pick, Trade
from bot.rules.royale.ai import HeuristicPlayer
from bot.rules.royale.engine import apply_in_place, current_seat, legal_actions, new_game
from bot.rules.royale.expert import ExpertPlayer
from bot.rules.royale.expert_futures import Future, dice_of
from bot.rules.royale.expert_playout import (
    Start,
    heuristic_pick,
    heuristic_trade,
    pick_gain,
    play_out,
)
from bot.rules.royale.expert_search import (
    choose_best,
    pick_candidates,
    start_of,
    trade_candidates,
)
from bot.rules.royale.state import Phase, RoyaleState
from bot.rules.validate import validate_lines
from bot.sim.runner import ai_seed, play_game

from .helpers import names


def _decisions(n: int, seed: int) -> list[RoyaleState]:
    """Copies of every decision of a seeded base game of heuristic players."""
    s, _ = new_game(names(n), seed)
    bot = HeuristicPlayer(seed)
    out = []
    while current_seat(s) is not None:
        out.append(s.clone())
        apply_in_place(s, bot.choose(s))
    return out


def test_lean_rules_choose_what_the_heuristic_chooses() -> None:
    # The same trade (target and die's worth) or pass; a pick of the same worth (the heuristic
    # draws lots between equal picks, the lean rule takes the first).
    checked = {Phase.DRAFT: 0, Phase.TRADE: 0}
    for seed in range(4):
        n = 2 + seed
        for s in _decisions(n, seed):
            dice = dice_of(s.dice)
            st = start_of(s, dice)
            seat = s.queue[0][0]
            a = HeuristicPlayer(seed).choose(s)
            if s.phase is Phase.DRAFT:
                assert isinstance(a, Pick)
                got = heuristic_pick(dice, st.hands[seat], st.pool)
                assert dice.ids[got] in s.pool
                hand = st.hands[seat]
                assert pick_gain(dice.parts, hand, got) == pytest.approx(
                    pick_gain(dice.parts, hand, dice.index[a.die]))
            else:
                give = next(d for d in st.hands[seat] if dice.giveable[d] and d not in st.given)
                trade = heuristic_trade(dice, st.hands, seat, give, 10 - s.round, st.totals)
                if isinstance(a, Pass):
                    assert trade is None
                else:
                    assert isinstance(a, Trade) and trade is not None
                    assert trade[0] == a.target
                    assert dice.parts[trade[1]] == dice.parts[dice.index[a.take]]
            checked[s.phase] += 1
    assert checked[Phase.DRAFT] > 50 and checked[Phase.TRADE] > 10


def test_a_play_out_keeps_every_die_and_ends_with_full_hands() -> None:
    s = next(x for x in _decisions(4, 3) if x.phase is Phase.TRADE and x.round == 2)
    dice = dice_of(s.dice)
    st = start_of(s, dice)
    held = sum(len(h) for h in st.hands) + sum(st.bag)
    gained, spread = play_out(Future(dice, 5), st)
    assert sum(len(h) for h in st.hands) + sum(st.bag) == held
    # The sums kept along the way are the hands' own.
    fresh = Start(st.hands, st.bag, [], set(), False, [], 10, 0, [], [], dice)
    assert st.hs == [pytest.approx(h) for h in fresh.hs]
    assert st.ms == [pytest.approx(m) for m in fresh.ms]
    # Every draft up to round 9 gives every seat a die: 10 dice at least in round 10.
    assert min(len(h) for h in st.hands) >= 10
    assert all(g > 0 for g in gained) and all(v > 0 for v in spread)


def test_a_future_draws_the_same_dice_whoever_asks_first() -> None:
    dice = dice_of(new_game(names(4), 1)[0].dice)
    a, b = Future(dice, 9), Future(dice, 9)
    first = (a.uniforms(3), a.order(3), a.reroll(3, 1))
    assert (b.uniforms(3), b.order(3), b.reroll(3, 1)) == first
    assert sorted(a.order(4)) == list(range(len(dice.ids))) and a.order(4) != a.order(3)


def test_the_same_future_gives_the_same_play_out() -> None:
    s = next(x for x in _decisions(4, 8) if x.phase is Phase.DRAFT and x.round == 4)
    dice = dice_of(s.dice)
    runs = [play_out(Future(dice, 17), start_of(s, dice)) for _ in range(2)]
    assert runs[0] == runs[1]


def test_search_choices_are_candidates_and_legal() -> None:
    for s in _decisions(4, 11)[::7]:
        dice = dice_of(s.dice)
        if s.phase is Phase.DRAFT:
            cands = pick_candidates(s, dice, 5)
        else:
            cands = trade_candidates(s, dice, 3)
            assert cands[-1] != cands[0] or len(cands) == 1
        legal = legal_actions(s)
        assert all(c in legal for c in cands)
        assert choose_best(s, cands, [1, 2, 3], 2, 2, 0.5) in cands


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
    assert report.ok and report.games[0].complete
    # Replayed from the seed and the decisions, the game logs the same bytes.
    s, events = new_game([f"cpu{i}" for i in range(4)], 31)
    for a in actions:
        events += apply_in_place(s, a)  # type: ignore[arg-type]
    assert list(log_lines("royale-31", events)) == lines
