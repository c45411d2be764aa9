"""Illegal actions raise a readable domain error and leave the state exactly as it was."""

from __future__ import annotations

import pytest

from bot.rules.errors import GameOver, IllegalAction, NotYourTurn
from bot.rules.posing.actions import Fill, PosingAction, Roll
from bot.rules.posing.engine import ENGINE, apply, apply_in_place, check, new_game
from bot.rules.posing.state import PosingState

from .posing_helpers import names, play


def _two_players() -> PosingState:
    state, _ = new_game(names(2), seed=42)
    return state


def _refused(
    state: PosingState, action: PosingAction, error: type[IllegalAction], *words: str
) -> str:
    """Assert both apply paths refuse ``action`` with ``error`` and leave ``state`` alone."""
    before = state.to_json()
    snapshot = state.copy()
    with pytest.raises(IllegalAction) as caught:
        apply(state, action)
    assert type(caught.value) is error
    message = caught.value.message
    assert message == str(caught.value)
    assert message[0].isupper() and message.endswith("."), message
    for word in words:
        assert word in message, message
    with pytest.raises(error):
        apply_in_place(state, action)
    with pytest.raises(error):
        check(state, action)
    assert state.to_json() == before
    assert state == snapshot
    return message


def test_a_fourth_roll() -> None:
    state = _two_players()
    apply_in_place(state, Roll(0, (0, 1)))
    apply_in_place(state, Roll(0, ()))
    assert state.rolls == 3 and ENGINE.rolls_left(state) == 0
    _refused(state, Roll(0, (1,)), IllegalAction, "already rolled 3 times", "fill a box")
    assert all(isinstance(a, Fill) for a in ENGINE.legal_actions(state))


def test_refilling_a_box() -> None:
    state = _two_players()
    apply_in_place(state, Fill(0, "set_of_4"))
    apply_in_place(state, Fill(1, "pose_1"))
    message = _refused(state, Fill(0, "set_of_4"), IllegalAction)
    assert message == "You have already filled Set of 4."
    assert Fill(0, "set_of_4") not in ENGINE.legal_actions(state)


def test_an_unknown_box() -> None:
    _refused(_two_players(), Fill(0, "yahtzee"), IllegalAction, "no box", "yahtzee")


@pytest.mark.parametrize("hold", [(5,), (-1,), (0, 1, 7), (0, 2, -3)])
def test_holding_a_die_that_does_not_exist(hold: tuple[int, ...]) -> None:
    _refused(_two_players(), Roll(0, hold), IllegalAction, "1 to 5")


@pytest.mark.parametrize("hold", [(0, 0), (1, 2, 1), (4, 4, 4, 4)])
def test_holding_a_die_twice(hold: tuple[int, ...]) -> None:
    _refused(_two_players(), Roll(0, hold), IllegalAction, "only once")


@pytest.mark.parametrize("hold", [(0, 1, 2, 3, 4), (4, 3, 2, 1, 0)])
def test_holding_every_die(hold: tuple[int, ...]) -> None:
    _refused(_two_players(), Roll(0, hold), IllegalAction, "nothing to roll", "fill a box")


@pytest.mark.parametrize("hold", [(True,), ("1",), (1.0,)])
def test_holding_something_that_is_not_a_die_index(hold: tuple[object, ...]) -> None:
    _refused(_two_players(), Roll(0, hold), IllegalAction, "1 to 5")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "action", [Roll(1, ()), Fill(1, "pose_2"), Roll(7, ()), Fill(-1, "mix_up")]
)
def test_wrong_seat(action: PosingAction) -> None:
    message = _refused(_two_players(), action, NotYourTurn, "not your turn", "Bamboo")
    assert message == "It is not your turn: it is Bamboo's turn."


def test_not_an_action() -> None:
    _refused(_two_players(), "roll", IllegalAction)  # type: ignore[arg-type]


@pytest.mark.parametrize("action", [Roll(0, ()), Roll(0, (1, 2)), Fill(0, "pose_1"), Roll(5, ())])
def test_any_action_after_the_game_is_over(action: PosingAction) -> None:
    state, _, _ = play(1, seed=3)
    assert ENGINE.current_seat(state) is None
    assert ENGINE.legal_actions(state) == []
    _refused(state, action, GameOver, "over")


def test_the_seat_order_is_kept() -> None:
    state = _two_players()
    apply_in_place(state, Fill(0, "pose_3"))
    _refused(state, Fill(0, "pose_4"), NotYourTurn, "Mochi")
