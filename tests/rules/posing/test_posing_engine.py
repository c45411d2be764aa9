"""Setting up, the flow of turns, the events' log objects and the helpers a UI needs."""

from __future__ import annotations

from typing import Any

import pytest

from bot.rules.api import Engine
from bot.rules.errors import InvalidSetup
from bot.rules.posing.actions import Fill, Roll
from bot.rules.posing.engine import (
    ENGINE,
    PosingEngine,
    apply_in_place,
    empty_boxes,
    new_game,
    totals,
)
from bot.rules.posing.events import FillEvent, GameEndEvent, RollEvent, SetupEvent
from bot.rules.posing.poses import BOX_IDS, score_all
from bot.rules.registry import kind_of

from .posing_helpers import names


def test_engine_protocol() -> None:
    engine: Engine = ENGINE
    assert engine.kind == "posing"
    assert isinstance(ENGINE, PosingEngine)
    assert kind_of("posing").engine is ENGINE
    for name in Engine.__dict__:
        if not name.startswith("_") and name != "kind":
            assert callable(getattr(ENGINE, name)), name


def test_setup_and_the_automatic_first_roll() -> None:
    state, events = ENGINE.new_game(names(3), 2024)
    assert [type(e) for e in events] == [SetupEvent, RollEvent]
    assert events[0].to_log() == {
        "event": "setup",
        "game_kind": "posing",
        "seed": 2024,
        "players": names(3),
    }
    roll = events[1].to_log()
    assert roll == {
        "event": "roll",
        "player": "Bamboo",
        "turn": 1,
        "roll": 1,
        "held": [],
        "faces": list(state.dice),
    }
    assert ENGINE.current_seat(state) == 0
    assert len(state.dice) == 5
    assert state.rolls == 1 and ENGINE.rolls_left(state) == 2
    assert state.turn == 1
    assert state.filled[0] == {} and totals(state)[0] == 0
    assert empty_boxes(state, 0) == list(BOX_IDS)
    assert ENGINE.box_points(state) == score_all(state.dice)


def test_a_roll_keeps_the_held_dice() -> None:
    state, _ = new_game(names(1), 6)
    before = state.dice
    [event] = apply_in_place(state, Roll(0, (3, 1)))
    assert isinstance(event, RollEvent)
    assert event.to_log()["held"] == [1, 3] and event.roll == 2 and event.turn == 1
    assert state.dice[1] == before[1] and state.dice[3] == before[3]
    assert event.faces == state.dice and state.rolls == 2


def test_a_fill_passes_the_dice_on() -> None:
    state, _ = new_game(names(2), 6)
    dice = state.dice
    points = score_all(dice)["set_of_3"]
    fill, roll = apply_in_place(state, Fill(0, "set_of_3"))
    assert fill.to_log() == {
        "event": "fill",
        "player": "Bamboo",
        "turn": 1,
        "box": "set_of_3",
        "faces": list(dice),
        "points": points,
    }
    assert isinstance(roll, RollEvent)
    assert (roll.player, roll.turn, roll.roll, roll.held) == ("Mochi", 1, 1, ())
    assert ENGINE.current_seat(state) == 1 and state.rolls == 1
    assert state.filled[0] == {"set_of_3": points}
    assert "set_of_3" not in empty_boxes(state, 0)
    assert "set_of_3" in ENGINE.box_points(state)  # Mochi's card is still empty
    apply_in_place(state, Fill(1, "pose_2"))
    assert ENGINE.current_seat(state) == 0 and state.turn == 2
    assert "set_of_3" not in ENGINE.box_points(state)


def test_solo_turns_follow_each_other() -> None:
    state, _ = new_game(["solo"], 1)
    for turn in range(1, 12):
        assert state.turn == turn and ENGINE.current_seat(state) == 0
        events = apply_in_place(state, Fill(0, BOX_IDS[turn - 1]))
        assert isinstance(events[0], FillEvent) and events[0].turn == turn
    assert isinstance(events[-1], GameEndEvent)
    assert ENGINE.current_seat(state) is None
    assert ENGINE.box_points(state) == {} and ENGINE.rolls_left(state) == 0


def test_tied_totals_share_the_win() -> None:
    state, _ = new_game(["Ann", "Ben"], 1)
    state.filled = [
        dict.fromkeys(BOX_IDS, 0) | {"pose_1": 10},
        dict.fromkeys(BOX_IDS[:-1], 0) | {"pose_1": 7},
    ]
    state.seat, state.dice, state.rolls = 1, (6, 3, 4, 5, 2), 2
    fill, end = apply_in_place(state, Fill(1, "all_different"))
    assert fill.to_log()["points"] == 5
    assert end.to_log() == {
        "event": "game_end",
        "totals": {"Ann": 10, "Ben": 12},
        "winners": ["Ben"],
    }

    state, _ = new_game(["Ann", "Ben"], 1)
    state.filled = [
        dict.fromkeys(BOX_IDS, 0) | {"pose_1": 10},
        dict.fromkeys(BOX_IDS[:-1], 0) | {"pose_1": 10},
    ]
    state.seat, state.dice, state.rolls = 1, (6, 6, 4, 5, 2), 3
    _, end = apply_in_place(state, Fill(1, "all_different"))
    assert end.to_log()["winners"] == ["Ann", "Ben"]
    assert ENGINE.winners(state) == [0, 1] and ENGINE.totals(state) == [10, 10]


@pytest.mark.parametrize(
    ("players", "seed", "options", "words"),
    [
        ([], 1, None, "1 to 10 players"),
        ([*names(10), "Extra"], 1, None, "1 to 10 players"),
        ("Bamboo", 1, None, "1 to 10 players"),
        (["Ann", "Ann"], 1, None, "one seat"),
        (["Ann", ""], 1, None, "name"),
        (["Ann"], "1", None, "seed"),
        (["Ann"], 1.5, None, "seed"),
        (["Ann"], 1, {"mischief": True}, "no options"),
    ],
)
def test_bad_setups(players: Any, seed: Any, options: Any, words: str) -> None:
    with pytest.raises(InvalidSetup, match=words):
        new_game(players, seed, options)


def test_ten_players_and_empty_options() -> None:
    state, _ = new_game(names(10), 1, {})
    assert len(state.players) == 10
