"""Replay determinism, JSON round-trips of states and actions, apply without mutation."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.rules.errors import StateFormatError
from bot.rules.royale.actions import Cannon, Mischief, Pass, Pick, Trade, action_from_json
from bot.rules.royale.ai import RandomPlayer
from bot.rules.royale.dice import EXPANSIONS
from bot.rules.royale.engine import (
    ENGINE,
    apply,
    apply_in_place,
    current_seat,
    legal_actions,
    new_game,
)
from bot.rules.royale.state import FORMAT_VERSION, state_from_json

from .helpers import ALL_OPTIONS, logs, names, play

REPLAYS = settings(max_examples=150, deadline=None, derandomize=True, database=None,
                   suppress_health_check=[HealthCheck.too_slow])


def _through_json(obj):
    return json.loads(json.dumps(obj))


def _replay(n, seed, options, actions):
    s, ev = new_game(names(n), seed, options)
    states = [s.to_json()]
    for a in actions:
        ev += apply_in_place(s, a)
        states.append(s.to_json())
    return s, ev, states


CONFIGS = [(2, ()), (4, ALL_OPTIONS), (7, ("mischief",)), (10, ("cannon", "mercenary")),
           (3, ALL_OPTIONS)]


@pytest.mark.parametrize(("n", "options"), CONFIGS)
@pytest.mark.parametrize("seed", [0, 12345, 2**40 + 7])
def test_same_seed_and_actions_replay_exactly(n, options, seed):
    s1, ev1, actions = play(n, seed, options, heuristic=(0,))
    s2, ev2, states2 = _replay(n, seed, options, actions)
    _, ev3, states3 = _replay(n, seed, options, actions)
    assert logs(ev1) == logs(ev2) == logs(ev3)
    assert states2 == states3
    assert s1.to_json() == s2.to_json() == states2[-1]
    assert s1 == s2


def test_a_different_seed_gives_a_different_game():
    _, ev1, _ = play(4, 1)
    _, ev2, _ = play(4, 2)
    assert logs(ev1) != logs(ev2)


def _step_checks(s, action):
    """JSON round-trip, apply vs apply_in_place, and no mutation, on one step."""
    before = s.to_json()
    # the state read back from JSON is the same state and continues identically
    copy = state_from_json(_through_json(before))
    assert copy == s
    assert copy.to_json() == before
    assert legal_actions(copy) == legal_actions(s)
    # apply leaves its input untouched
    nxt, ev = apply(s, action)
    assert s.to_json() == before
    assert nxt is not s
    ev_copy = apply_in_place(copy, action)
    assert logs(ev_copy) == logs(ev)
    assert copy.to_json() == nxt.to_json()
    # the new state shares no mutable part with the old one
    if nxt.hands[0]:
        nxt.hands[0].pop()
    nxt.values["zzz"] = 1
    nxt.queue.append((0, "x"))
    assert s.to_json() == before
    # every legal action, and the chosen one, round-trips through JSON
    for a in [action, *legal_actions(s)]:
        assert action_from_json(_through_json(a.to_json())) == a
    return ev


def _play_with_step_checks(n, seed, options, player_seed):
    s, ev = new_game(names(n), seed, options)
    bots = [RandomPlayer(player_seed + i) for i in range(n)]
    actions = []
    while (seat := current_seat(s)) is not None:
        a = bots[seat].choose(s)
        actions.append(a)
        ev += _step_checks(s, a)
        apply_in_place(s, a)
    return s, ev, actions


@pytest.mark.parametrize(("n", "options"), CONFIGS)
def test_json_round_trip_at_every_step(n, options):
    s, ev, actions = _play_with_step_checks(n, 99, options, 7)
    # the events gathered through apply() are the game: replaying gives them again
    _, ev2, _ = _replay(n, 99, options, actions)
    assert logs(ev2) == logs(ev)
    final = state_from_json(_through_json(s.to_json()))
    assert final == s and current_seat(final) is None


@REPLAYS
@given(seed=st.integers(0, 2**64 - 1), n=st.integers(2, 10),
       options=st.sets(st.sampled_from(EXPANSIONS)).map(lambda x: tuple(sorted(x))),
       player_seed=st.integers(0, 2**32))
def test_round_trip_and_replay_property(seed, n, options, player_seed):
    s, ev, actions = _play_with_step_checks(n, seed, options, player_seed)
    s2, ev2, _ = _replay(n, seed, options, actions)
    assert logs(ev2) == logs(ev)
    assert s2.to_json() == s.to_json()


@pytest.mark.parametrize("action", [
    Mischief(1, "red6-1"), Cannon(0, "cannon8-2", True), Cannon(3, "cannon8-1", False),
    Trade(2, "clear6-1", 0, "mischief12-3"), Pass(9), Pick(4, "green20-10"),
])
def test_action_round_trip(action):
    data = _through_json(action.to_json())
    assert action_from_json(data) == action
    assert ENGINE.action_from_json(data) == action


@pytest.mark.parametrize("data", [
    {}, {"type": "dance", "seat": 0}, {"type": "pass"}, {"type": "pass", "seat": "0"},
    {"type": "pass", "seat": True}, {"type": "pick", "seat": 0, "die": 3},
    {"type": "cannon", "seat": 0, "die": "cannon8-1", "score": 1},
    {"type": "trade", "seat": 0, "give": "clear6-1", "target": 1},
    {"type": "mischief", "seat": 1.5, "die": "red6-1"},
    "pass", None,
])
def test_bad_action_json(data):
    with pytest.raises(StateFormatError):
        action_from_json(data)


def _state_json():
    s, _ = new_game(names(3), 1, ALL_OPTIONS)
    return s.to_json()


@pytest.mark.parametrize("damage", [
    lambda d: d.update(game_kind="posing"),
    lambda d: d.update(format=FORMAT_VERSION + 1),
    lambda d: d.pop("hands"),
    lambda d: d.update(hands=d["hands"][:2]),
    lambda d: d.update(phase="lunch"),
    lambda d: d.update(rng="not base64!"),
    lambda d: d.update(round="ten"),
    lambda d: d.update(queue=[[0]]),
])
def test_damaged_state_json(damage):
    data = _state_json()
    damage(data)
    with pytest.raises(StateFormatError):
        state_from_json(data)


def test_state_json_is_plain_json():
    data = _state_json()
    assert data["format"] == FORMAT_VERSION and data["game_kind"] == "royale"
    assert _through_json(data) == data
    assert ENGINE.state_to_json(ENGINE.state_from_json(data)) == data
