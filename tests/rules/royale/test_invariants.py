"""Property tests: thousands of seeded random games, checked at every step."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.rules.royale.ai import HeuristicPlayer, RandomPlayer
from bot.rules.royale.dice import EXPANSIONS
from bot.rules.royale.engine import apply_in_place, current_seat, legal_actions, new_game
from bot.rules.royale.events import GameEndEvent, ScoreEvent

from .helpers import names
from .invariants import Tracker, check_log, check_scores, check_state

GAMES = settings(max_examples=300, deadline=None, derandomize=True, database=None,
                 suppress_health_check=[HealthCheck.too_slow])

seeds = st.integers(min_value=0, max_value=2**64 - 1)
player_counts = st.integers(min_value=2, max_value=10)
option_sets = st.sets(st.sampled_from(EXPANSIONS)).map(lambda s: tuple(sorted(s)))


def _play_checked(seed, n, options, player_seed, heuristic=frozenset()):
    s, ev = new_game(names(n), seed, options)
    tracker = Tracker(s)
    tracker.feed(ev)
    check_state(s, tracker)
    bots = [HeuristicPlayer(player_seed + i) if i in heuristic else RandomPlayer(player_seed + i)
            for i in range(n)]
    while (seat := current_seat(s)) is not None:
        action = bots[seat].choose(s)
        assert action in legal_actions(s)
        new = apply_in_place(s, action)
        tracker.feed(new)
        ev += new
        check_state(s, tracker)
    return s, ev


def _check_game(s, ev, n):
    objs = [e.to_log() for e in ev]
    check_log(objs, n, s.expansions)
    check_scores(ev)
    # totals: the state, the score events and game_end agree
    per_player = dict.fromkeys(s.players, 0)
    for e in ev:
        if isinstance(e, ScoreEvent):
            per_player[e.player] += e.total
    end = ev[-1]
    assert isinstance(end, GameEndEvent)
    assert dict(end.totals) == per_player
    assert s.totals() == list(per_player.values())
    assert [sum(s.sheet[r][seat][c] for r in range(10) for c in range(7))
            for seat in range(n)] == s.totals()
    top = max(per_player.values())
    assert list(end.winners) == [p for p, t in per_player.items() if t == top]


@GAMES
@given(seed=seeds, n=player_counts, options=option_sets, player_seed=seeds)
def test_every_step_of_random_games(seed, n, options, player_seed):
    s, ev = _play_checked(seed, n, options, player_seed)
    _check_game(s, ev, n)


@GAMES
@given(seed=seeds, n=player_counts, options=option_sets, player_seed=seeds,
       heuristic=st.sets(st.integers(0, 9)))
def test_every_step_with_heuristic_players(seed, n, options, player_seed, heuristic):
    s, ev = _play_checked(seed, n, options, player_seed, frozenset(heuristic))
    _check_game(s, ev, n)


@settings(GAMES, max_examples=400)
@given(seed=seeds, n=player_counts, options=option_sets, player_seed=seeds)
def test_whole_game_logs(seed, n, options, player_seed):
    """More games, checked on their logs only: order, counts, scores, totals."""
    s, ev = new_game(names(n), seed, options)
    bots = [RandomPlayer(player_seed + i) for i in range(n)]
    while (seat := current_seat(s)) is not None:
        ev += apply_in_place(s, bots[seat].choose(s))
    _check_game(s, ev, n)
