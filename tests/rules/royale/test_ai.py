"""The computer players."""

from __future__ import annotations

import pytest

from bot.rules.registry import ROYALE
from bot.rules.royale.actions import Cannon
from bot.rules.royale.ai import (
    HeuristicPlayer,
    RandomPlayer,
    cannon_value,
    hand_parts,
    mercenary_value,
    parts_value,
)
from bot.rules.royale.engine import ENGINE, apply_in_place, current_seat, legal_actions, new_game
from bot.rules.royale.state import Phase

from .helpers import ALL_OPTIONS, BOX, logs, names, play, position, start


@pytest.mark.parametrize("seed", range(24))
def test_players_only_choose_legal_actions(seed):
    n = 2 + seed % 9
    s, _ = new_game(names(n), seed, ALL_OPTIONS)
    bots = [HeuristicPlayer(seed + i) if (i + seed) % 2 else RandomPlayer(seed + i)
            for i in range(n)]
    phases = set()
    while (seat := current_seat(s)) is not None:
        action = bots[seat].choose(s)
        assert action in legal_actions(s)
        phases.add(s.phase)
        apply_in_place(s, action)
    assert s.phase is Phase.OVER
    assert Phase.DRAFT in phases


def test_every_decision_kind_is_exercised():
    phases: set[Phase] = set()
    for seed in range(10):
        s, _ = new_game(names(6), seed, ALL_OPTIONS)
        bot = HeuristicPlayer(seed)
        while current_seat(s) is not None:
            phases.add(s.phase)
            action = bot.choose(s)
            assert action in legal_actions(s)
            apply_in_place(s, action)
    assert phases == {Phase.MISCHIEF, Phase.CANNON, Phase.TRADE, Phase.DRAFT}


def _win_share(options):
    share = 0.0
    for seed in range(200):
        hseat = seed % 4
        s, _, _ = play(4, 70000 + seed, options, heuristic=(hseat,))
        winners = ENGINE.winners(s)
        if hseat in winners:
            share += 1 / len(winners)
    return share / 200


@pytest.mark.parametrize("options", [(), ALL_OPTIONS])
def test_heuristic_beats_random_players(options):
    assert _win_share(options) > 0.40


def test_players_are_reproducible():
    a = play(5, 11, ALL_OPTIONS, heuristic=(1, 3))
    b = play(5, 11, ALL_OPTIONS, heuristic=(1, 3))
    assert a[2] == b[2] and logs(a[1]) == logs(b[1])
    c = play(5, 11, ALL_OPTIONS, player_seed=12, heuristic=(1, 3))
    assert c[2] != a[2]


def test_make_player():
    assert isinstance(ROYALE.make_player("random", 1), RandomPlayer)
    assert isinstance(ROYALE.make_player("heuristic", 1), HeuristicPlayer)
    assert isinstance(ROYALE.make_player("heuristic", 2), HeuristicPlayer)
    with pytest.raises(ValueError, match="no computer player called 'genius'"):
        ROYALE.make_player("genius", 1)


def test_cannon_value():
    assert cannon_value(0) == 0
    assert cannon_value(1) == pytest.approx(45.0)  # mean of 10..80
    values = [cannon_value(k) for k in range(11)]
    assert values == sorted(values) and values[-1] < 80


def test_mercenary_value():
    values = [mercenary_value(r) for r in range(1, 11)]
    assert values[-1] == pytest.approx(3.5 * 10)
    # round 9: 9 x 3.5 now, and 10 x 3.5 if the Captain (1 in 6) spares it
    assert values[-2] == pytest.approx(31.5 + 35 * 5 / 6)


def hand_value(dice, next_round):
    """The expected points ``dice`` will score from ``next_round`` to the end of the game."""
    return parts_value(hand_parts(dice, next_round), next_round)


def test_hand_value():
    assert hand_value([BOX["green20-1"]], 11) == 0
    assert hand_value([BOX["green20-1"]], 10) == pytest.approx(10.5)
    assert hand_value([BOX["purple8-1"]], 10) == pytest.approx(9.0)
    # a glitter die doubles the blue dice
    assert hand_value([BOX["blue6-1"], BOX["glitter6-1"]], 10) == pytest.approx(14.0)
    # pity dice are not the player's to keep
    assert hand_value([BOX["pink12-1"]], 5) == 0


def test_heuristic_fires_a_cannon_in_the_last_round():
    hands = [["yellow6-1", "cannon8-1"], ["yellow6-2"]]
    s = position(hands, ("cannon",), round_no=10, token=0)
    start(s, {"yellow6-1": 6, "cannon8-1": 1, "yellow6-2": 1})
    assert HeuristicPlayer(0).choose(s) == Cannon(0, "cannon8-1", True)


def test_heuristic_saves_a_low_cannon_early_and_fires_an_eight():
    hands = [["yellow6-1", "cannon8-1", "cannon8-2"], ["yellow6-2"]]
    s = position(hands, ("cannon",), round_no=2, token=0)
    start(s, {"yellow6-1": 6, "cannon8-1": 1, "cannon8-2": 8, "yellow6-2": 1})
    bot = HeuristicPlayer(0)
    assert bot.choose(s) == Cannon(0, "cannon8-1", False)
    apply_in_place(s, bot.choose(s))
    assert bot.choose(s) == Cannon(0, "cannon8-2", True)


def test_random_player_trades_exactly_like_an_index_into_legal_actions() -> None:
    """RandomPlayer draws trades without listing them; the choice must be the one
    ``legal_actions()[index]`` gives for the same draw."""
    from bot.rules.rng import Rng
    from bot.rules.royale.ai import RandomPlayer
    from bot.rules.royale.engine import apply_in_place, current_seat, legal_actions, new_game
    from bot.rules.royale.state import Phase

    seen = 0
    for seed in range(40):
        state, _ = new_game([f"p{i}" for i in range(5)], seed, ("mischief", "cannon"))
        player = RandomPlayer(seed)
        while current_seat(state) is not None:
            if state.phase is Phase.TRADE:
                twin = Rng(0)
                twin._r.setstate(player.rng._r.getstate())
                actions = legal_actions(state)
                expected = actions[twin.below(len(actions))]
                assert player.choose(state) == expected
                seen += 1
                apply_in_place(state, expected)
            else:
                apply_in_place(state, player.choose(state))
    assert seen > 100
