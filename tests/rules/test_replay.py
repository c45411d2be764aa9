"""The replay (bot/rules/replay.py): a finished game's state after each round or turn, rebuilt
from its log by the kind's engine."""

from __future__ import annotations

from typing import Any

import pytest

from bot.rules.registry import POSING, ROYALE, GameKind, kind_of
from bot.rules.replay import ReplayError, replay_steps
from bot.rules.royale.state import Phase
from pictures.charts import running_totals

MAYHEM = {"expansions": ["mischief", "cannon", "mercenary"]}


def played(kind: GameKind[Any, Any], players: int, seed: int,
           options: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The log of a whole game between computer players (as the engine writes it)."""
    names = [f"p{i + 1}" for i in range(players)]
    bots = [kind.make_player("normal", seed + i) for i in range(players)]
    state, events = kind.engine.new_game(names, seed, options or {})
    log = [e.to_log() for e in events]
    while (seat := kind.engine.current_seat(state)) is not None:
        state, events = kind.engine.apply(state, bots[seat].choose(state))
        log.extend(e.to_log() for e in events)
    return log


@pytest.mark.parametrize(("players", "options"), [(2, {}), (4, MAYHEM), (10, MAYHEM)])
def test_a_royale_replay_has_each_round_with_its_scores(players: int,
                                                        options: dict[str, Any]) -> None:
    log = played(ROYALE, players, 40 + players, options)
    frames = replay_steps(ROYALE, log)
    assert [f.step for f in frames] == list(range(1, 11))
    totals = running_totals("royale", log)
    names = log[0]["players"]
    for frame in frames:
        state = frame.state
        assert state.round == frame.step and len(state.sheet) == frame.step
        assert state.totals() == [totals[p][frame.step - 1] for p in names]
        assert frame.events and all(e["round"] == frame.step for e in frame.events)
        scored = [e["player"] for e in frame.events if e["event"] == "score"]
        assert scored == names  # every player's score of the round, in seat order
    assert frames[-1].state.phase is Phase.OVER
    assert frames[-1].state.totals() == [log[-1]["totals"][p] for p in names]
    assert frames[0].state.phase is not Phase.OVER  # each frame keeps its own state


@pytest.mark.parametrize("players", [1, 3])
def test_a_posing_replay_has_each_turn(players: int) -> None:
    log = played(POSING, players, 7)
    frames = replay_steps(POSING, log)
    assert [f.step for f in frames] == list(range(1, 12))
    totals = running_totals("posing", log)
    names = log[0]["players"]
    engine = POSING.engine
    for frame in frames:
        assert engine.totals(frame.state) == [totals[p][frame.step - 1] for p in names]
        assert all(len(filled) == frame.step for filled in frame.state.filled)
        fills = [e for e in frame.events if e["event"] == "fill"]
        assert [e["player"] for e in fills] == names
        assert all(e["turn"] == frame.step for e in frame.events)
    assert engine.current_seat(frames[-1].state) is None


def test_a_log_the_engine_did_not_write_replays_up_to_the_first_refused_decision() -> None:
    log = played(ROYALE, 3, 5)
    picks = [i for i, e in enumerate(log) if e["event"] == "pick" and e["round"] == 4]
    tampered = [dict(e) for e in log]
    tampered[picks[0]]["die"] = "no-such-die"
    frames = replay_steps(ROYALE, tampered)
    assert [f.step for f in frames] == [1, 2, 3, 4]  # round 4 was scored before its draft


def test_a_replay_needs_a_setup_with_its_seed_and_a_kind_with_steps() -> None:
    log = played(ROYALE, 2, 3)
    with pytest.raises(ReplayError):
        replay_steps(ROYALE, log[1:])
    with pytest.raises(ReplayError):
        replay_steps(ROYALE, [{k: v for k, v in log[0].items() if k != "seed"}, *log[1:]])
    no_steps = GameKind(**{**{f: getattr(ROYALE, f) for f in ROYALE.__dataclass_fields__},
                           "progress": None})
    with pytest.raises(ReplayError):
        replay_steps(no_steps, log)
    assert kind_of("royale").progress is not None and kind_of("posing").progress is not None
