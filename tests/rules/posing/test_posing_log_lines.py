"""Posing Pandas' log lines: each one the JSON of its event's object."""

from __future__ import annotations

from bot.rules.gamelog import dumps_line, log_lines, log_objects
from bot.rules.posing.engine import apply_in_place, current_seat, new_game
from bot.rules.registry import POSING


def test_each_line_is_its_object_as_json() -> None:
    players = ["cpu1", 'Ann "P"', "Zoë\n🐼"]
    state, events = new_game(players, 5)
    bots = [POSING.make_player("random", 10 + i) for i in range(len(players))]
    while (seat := current_seat(state)) is not None:
        events += apply_in_place(state, bots[seat].choose(state))
    assert len(events) > 3 * 11 * 2
    assert list(log_lines("p-5", events)) == [dumps_line(o) for o in log_objects("p-5", events)]
