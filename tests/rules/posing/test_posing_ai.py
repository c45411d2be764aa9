"""The computer players: legal moves only, deterministic by seed, and the strong one is strong."""

from __future__ import annotations

import pytest

from bot.rules.posing.actions import Fill, Roll
from bot.rules.posing.ai import ExpectedValuePlayer, RandomPosingPlayer
from bot.rules.posing.engine import ENGINE, new_game
from bot.rules.posing.poses import BOX_IDS
from bot.rules.posing.state import PosingState
from bot.rules.registry import POSING

from .posing_helpers import names, play


@pytest.mark.parametrize("ai", ["random", "heuristic"])
@pytest.mark.parametrize(("n", "seed"), [(1, 0), (2, 1), (4, 2), (10, 3)])
def test_only_legal_actions(ai: str, n: int, seed: int) -> None:
    state, _, _ = play(n, seed, (ai,), ai_seed=seed, check_legal=True)
    assert ENGINE.current_seat(state) is None


def test_mixed_table_only_legal_actions() -> None:
    for seed in range(20):
        play(3, seed, ("heuristic", "random"), ai_seed=seed, check_legal=True)


def test_make_player() -> None:
    assert isinstance(POSING.make_player("random", 1), RandomPosingPlayer)
    assert isinstance(POSING.make_player("heuristic", 1), ExpectedValuePlayer)
    with pytest.raises(ValueError, match="no computer player called 'genius'"):
        POSING.make_player("genius", 1)


@pytest.mark.parametrize("ai", ["random", "heuristic"])
def test_deterministic_given_the_seed(ai: str) -> None:
    first = play(2, 77, (ai,), ai_seed=5)
    again = play(2, 77, (ai,), ai_seed=5)
    assert first[2] == again[2]
    assert first[0] == again[0]


def test_the_players_do_not_touch_the_game_generator() -> None:
    state, _ = new_game(names(1), 4)
    before = state.to_json()
    for player in (RandomPosingPlayer(1), ExpectedValuePlayer(1)):
        player.choose(state)
        assert state.to_json() == before


def test_nothing_to_choose_after_the_game() -> None:
    state, _, _ = play(1, 9)
    for player in (RandomPosingPlayer(1), ExpectedValuePlayer(1)):
        with pytest.raises(ValueError):
            player.choose(state)


def _solo(state: PosingState, dice: tuple[int, ...], rolls: int, open_boxes: set[str]) -> None:
    state.dice = dice
    state.rolls = rolls
    state.filled[0] = {box: 0 for box in BOX_IDS if box not in open_boxes}


def test_the_strong_player_takes_obvious_points() -> None:
    state, _ = new_game(names(1), 1)
    player = ExpectedValuePlayer(0)
    _solo(state, (4, 4, 4, 4, 4), 1, set(BOX_IDS))
    assert player.choose(state) == Fill(0, "set_of_5")
    _solo(state, (2, 3, 4, 5, 6), 1, {"all_different", "pose_1"})
    assert player.choose(state) == Fill(0, "all_different")
    # last box, last roll: fill it whatever the dice
    _solo(state, (1, 2, 3, 4, 6), 3, {"set_of_5"})
    assert player.choose(state) == Fill(0, "set_of_5")
    # only Set of 5 left and four alike: keep them and roll the odd one
    _solo(state, (6, 6, 2, 6, 6), 1, {"set_of_5"})
    assert player.choose(state) == Roll(0, (0, 1, 3, 4))


def _average(ai: str, games: int) -> float:
    total = 0
    for seed in range(games):
        state, _, _ = play(1, 10_000 + seed, (ai,), ai_seed=seed)
        total += ENGINE.totals(state)[0]
    return total / games


def test_the_strong_player_beats_the_random_player() -> None:
    strong = _average("heuristic", 300)
    weak = _average("random", 300)
    # Measured: about 35 against about 6.3 (the optimal solo expectation is 35.14).
    assert strong > 33.5
    assert weak < 10
    assert strong > weak + 20
