"""Replay determinism, JSON round-trips of states and actions, apply without mutation."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.rules.errors import StateFormatError
from bot.rules.posing.actions import Fill, PosingAction, Roll, action_from_json
from bot.rules.posing.engine import ENGINE, apply, apply_in_place, new_game
from bot.rules.posing.state import FORMAT_VERSION, PosingState, state_from_json

from .posing_helpers import logs, names, play

REPLAYS = settings(
    max_examples=25, deadline=None, database=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)


def _through_json(data: dict[str, Any]) -> Any:
    return json.loads(json.dumps(data))


def _replay(
    n: int, seed: int, actions: list[PosingAction]
) -> tuple[PosingState, list[Any], list[dict[str, Any]]]:
    state, events = new_game(names(n), seed)
    states = [state.to_json()]
    for action in actions:
        events += apply_in_place(state, action)
        states.append(state.to_json())
    return state, events, states


@pytest.mark.parametrize("n", [1, 2, 5, 10])
@pytest.mark.parametrize("seed", [0, 99, 2**40 + 7, -5])
def test_same_seed_and_actions_replay_exactly(n: int, seed: int) -> None:
    state, events, actions = play(n, seed, ("heuristic", "random"), ai_seed=seed)
    replayed, events2, states2 = _replay(n, seed, actions)
    _, events3, states3 = _replay(n, seed, actions)
    assert logs(events) == logs(events2) == logs(events3)
    assert events == events2
    assert states2 == states3
    assert state.to_json() == replayed.to_json() == states2[-1]
    assert state == replayed


def test_a_different_seed_gives_a_different_game() -> None:
    one = new_game(names(2), 1)[0]
    two = new_game(names(2), 2)[0]
    assert one.dice != two.dice or one.rng != two.rng


@REPLAYS
@given(
    n=st.integers(min_value=1, max_value=10),
    seed=st.integers(min_value=0, max_value=2**64),
    ai_seed=st.integers(min_value=0, max_value=1000),
)
def test_json_round_trip_at_every_step_continues_identically(
    n: int, seed: int, ai_seed: int
) -> None:
    _, events, actions = play(n, seed, ("random", "heuristic"), ai_seed=ai_seed)
    _, _, straight = _replay(n, seed, actions)

    state, hopped_events = new_game(names(n), seed)
    hopped = [state.to_json()]
    for action in actions:
        state = state_from_json(_through_json(state.to_json()))
        action = action_from_json(_through_json(action.to_json()))
        state, new_events = apply(state, action)
        hopped_events += new_events
        hopped.append(state.to_json())
    assert hopped == straight
    assert logs(hopped_events) == logs(events)
    assert _through_json({"log": logs(events)}) == {"log": logs(events)}


def test_apply_does_not_mutate_and_matches_apply_in_place() -> None:
    state, _, actions = play(3, 11, ("heuristic",))
    current = new_game(names(3), 11)[0]
    for action in actions:
        before = current.to_json()
        new_state, events = apply(current, action)
        assert current.to_json() == before
        in_place = state_from_json(before)
        assert apply_in_place(in_place, action) == events
        assert in_place == new_state
        current = new_state
    assert current == state


def test_copy_is_independent() -> None:
    state = new_game(names(2), 5)[0]
    copy = state.copy()
    apply_in_place(copy, Fill(0, "pose_1"))
    apply_in_place(copy, Roll(1, ()))
    assert state.to_json() == new_game(names(2), 5)[0].to_json()
    assert state.filled == [{}, {}]


def test_state_json_shape() -> None:
    state = new_game(names(2), 5)[0]
    data = state.to_json()
    assert data["kind"] == "posing" and data["format"] == FORMAT_VERSION == 1
    assert data["players"] == names(2) and data["seed"] == 5
    assert ENGINE.state_to_json(state) == data
    assert ENGINE.state_from_json(data) == state


@pytest.mark.parametrize(
    "action", [Roll(0, ()), Roll(3, (0, 4)), Fill(2, "mix_up"), Fill(0, "pose_6")]
)
def test_action_json_round_trip(action: PosingAction) -> None:
    data = _through_json(action.to_json())
    assert action_from_json(data) == action == ENGINE.action_from_json(data)


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {},
        {"type": "roll", "seat": 0},
        {"type": "roll", "seat": "0", "hold": []},
        {"type": "roll", "seat": True, "hold": []},
        {"type": "roll", "seat": 0, "hold": [0, "1"]},
        {"type": "roll", "seat": 0, "hold": [0.0]},
        {"type": "roll", "seat": 0, "hold": "01"},
        {"type": "fill", "seat": 0},
        {"type": "fill", "seat": 0, "box": 3},
        {"type": "pass", "seat": 0},
    ],
)
def test_bad_action_json(data: Any) -> None:
    with pytest.raises(StateFormatError):
        action_from_json(data)


def _spoiled(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = _through_json(new_game(names(3), 8)[0].to_json())
    data.update(changes)
    return data


@pytest.mark.parametrize(
    "changes",
    [
        {"kind": "royale"},
        {"format": FORMAT_VERSION + 1},
        {"seed": "8"},
        {"players": []},
        {"players": ["a", "a", "b"]},
        {"players": ["a", "", "b"]},
        {"rng": "not base64!"},
        {"rng": 5},
        {"seat": 3},
        {"dice": [1, 2, 3, 4]},
        {"dice": [1, 2, 3, 4, 7]},
        {"rolls": 0},
        {"rolls": 4},
        {"filled": [{}, {}]},
        {"filled": [{"yahtzee": 3}, {}, {}]},
        {"filled": [{"pose_1": "3"}, {}, {}]},
        {"filled": [{}, {"pose_1": 3}, {}]},
    ],
)
def test_bad_state_json(changes: dict[str, Any]) -> None:
    with pytest.raises(StateFormatError):
        state_from_json(_spoiled(**changes))


def test_not_a_state() -> None:
    with pytest.raises(StateFormatError):
        state_from_json([])  # type: ignore[arg-type]


def test_finished_state_round_trips() -> None:
    state, _, _ = play(4, 12)
    back = state_from_json(_through_json(state.to_json()))
    assert back == state and ENGINE.current_seat(back) is None
