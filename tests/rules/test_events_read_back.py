"""Every event the engines log reads back from its log object as the same event: the Discord
layer shows a round's events as the engine's types, also after a restart (from storage)."""

from __future__ import annotations

import pytest

from bot.rules.posing.events import event_from_log as posing_event
from bot.rules.registry import kind_of
from bot.rules.royale.events import event_from_log as royale_event
from bot.sim.runner import play_game


@pytest.mark.parametrize(("players", "options", "seed"), [
    (2, {}, 1), (4, {"expansions": ["mischief", "cannon", "mercenary"]}, 2),
    (10, {"expansions": ["mischief", "cannon", "mercenary"]}, 3),
    (5, {"expansions": ["mercenary"]}, 4)])
def test_royale_events_read_back(players: int, options: dict[str, object], seed: int) -> None:
    names = [f"p{i + 1}" for i in range(players)]
    played = play_game(kind_of("royale"), names, seed, ["heuristic"], options)
    kinds = set()
    for event in played.events:
        logged = event.to_log()
        kinds.add(logged["event"])
        again = royale_event(logged)
        assert type(again) is type(event) and again.to_log() == logged
    assert {"setup", "token", "score", "pick", "draft_return", "game_end"} <= kinds


def test_posing_events_read_back() -> None:
    names = ["p1", "cpu:1", "p3"]
    played = play_game(kind_of("posing"), names, 5, ["optimal", "random"])
    for event in played.events:
        logged = event.to_log()
        again = posing_event(logged, tuple(names))
        assert type(again) is type(event) and again.to_log() == logged
        assert getattr(again, "seat", None) == getattr(event, "seat", None)


def test_an_unknown_object_is_refused() -> None:
    with pytest.raises(ValueError, match="not a Panda Royale event"):
        royale_event({"event": "dance"})
    with pytest.raises(ValueError, match="not a Posing Pandas event"):
        posing_event({"event": "dance"}, ("p1",))
