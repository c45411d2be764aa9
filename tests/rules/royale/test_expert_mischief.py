"""The expert and Mischief: the play-outs count a re-roll's expected cost by the engine's
scoring, the expert aims its mischief where the win is decided, and its Mischief games replay.
"""

from __future__ import annotations

from bot.rules.gamelog import log_lines
from bot.rules.registry import ROYALE
from bot.rules.royale.actions import Mischief
from bot.rules.royale.ai import HeuristicPlayer
from bot.rules.royale.engine import apply_in_place, legal_actions, new_game
from bot.rules.royale.expert import ExpertPlayer
from bot.rules.royale.expert_mischief import mischief_candidates
from bot.rules.royale.expert_playout import play_out, reroll_slope
from bot.rules.royale.state import Phase, RoyaleState
from bot.rules.validate import validate_lines
from bot.sim.runner import play_game

from .helpers import position, start

MISCHIEF = ("mischief",)
HANDS = [
    ["yellow6-1", "mischief12-1"],  # the expert, 300 points so far
    ["yellow6-2", "green20-1"],  # the leader by a little, 296 + this round
    ["yellow6-3", "red8-1", "red8-2", "red8-3", "red8-4"],  # far behind, 100
    ["yellow6-4", "blue6-1"],  # far behind, 150
]
VALUES = {"yellow6-1": 3, "mischief12-1": 12, "yellow6-2": 3, "green20-1": 20,
          "yellow6-3": 3, "red8-1": 8, "red8-2": -1, "red8-3": -1, "red8-4": -1,
          "yellow6-4": 1, "blue6-1": 1}
TOTALS = [300, 296, 100, 150]


def _last_round_mischief() -> RoyaleState:
    """Round 10, the expert's mischief to aim. As the dice show, the leader ends on 319 and the
    expert on 315; a re-roll of the leader's green d20 (20 now, 10.5 on average) most likely
    turns it round, while re-rolling the red d8 of a player 200 points behind costs that player
    most (24 points) but changes nothing.
    """
    sheet = [[[0, 0, 0, 0, 0, t if r == 0 else 0, 0] for t in TOTALS] for r in range(9)]
    s = position(HANDS, MISCHIEF, round_no=10, token=0, sheet=sheet)
    start(s, VALUES)
    assert s.phase is Phase.MISCHIEF and s.queue == [(0, "mischief12-1")]
    return s


def test_the_slope_of_a_reroll_is_the_engines_scoring() -> None:
    s = _last_round_mischief()
    assert reroll_slope(s, "red8-1") == (2, 4)  # red: the sum times four red dice
    assert reroll_slope(s, "green20-1") == (1, 1)
    assert reroll_slope(s, "blue6-1") == (3, 1)
    assert s.values["red8-1"] == 8  # the state's values are left as they were


def test_the_expert_aims_at_the_leader_where_the_heuristic_aims_at_the_most_points() -> None:
    s = _last_round_mischief()
    assert HeuristicPlayer(1).choose(s) == Mischief(0, "red8-1")
    candidates = mischief_candidates(s, HeuristicPlayer(1), 3)
    # The heuristic's target, then the best die of each other player.
    assert candidates == [Mischief(0, "red8-1"), Mischief(0, "green20-1"),
                          Mischief(0, "blue6-1")]
    assert all(c in legal_actions(s) for c in candidates)
    before = s.to_json()
    assert ExpertPlayer(7).choose(s) == Mischief(0, "green20-1")
    assert s.to_json() == before
    # The re-roll counts at its expectation: the leader's 23 points become 3 + 10.5.
    gained, _ = play_out(s, Mischief(0, "green20-1"), 5, HeuristicPlayer(0))
    assert gained[:2] == [15.0, 13.5]


def test_a_mischief_re_roll_in_a_play_out_costs_its_owner_in_expectation() -> None:
    """Over the same futures, every seat's expected points are lower with Mischief counted than
    the same dice would be worth without it, in total: re-rolls are aimed at high dice.
    """
    s, _ = new_game(["a", "b", "c", "d"], 41, MISCHIEF)
    bot = HeuristicPlayer(41)
    while not (s.phase is Phase.DRAFT and s.round == 3):
        apply_in_place(s, bot.choose(s))
    action = bot.choose(s)
    with_mischief = [sum(play_out(s, action, seed, HeuristicPlayer(0))[0]) for seed in range(6)]
    plain = s.clone()
    plain.expansions = ()
    without = [sum(play_out(plain, action, seed, HeuristicPlayer(0))[0]) for seed in range(6)]
    assert sum(with_mischief) < sum(without)


def _mischief_game(seed: int) -> tuple[list[str], list[object]]:
    played = play_game(ROYALE, [f"cpu{i}" for i in range(4)], seed,
                       ["expert", "heuristic", "heuristic", "heuristic"],
                       {"expansions": list(MISCHIEF)})
    return list(log_lines(f"royale-{seed}", played.events)), played.actions


def test_an_expert_mischief_game_replays_exactly_and_validates() -> None:
    lines, actions = _mischief_game(57)
    assert _mischief_game(57) == (lines, actions)
    assert any(isinstance(a, Mischief) for a in actions)
    report = validate_lines(lines)
    assert report.ok  # a log that stops before game_end is not
