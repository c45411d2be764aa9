"""The fast path's lookup tables write exactly what the log writer writes."""

from __future__ import annotations

import json

import pytest

from bot.rules.gamelog import log_lines
from bot.rules.registry import kind_of
from bot.rules.royale.fast_single import play_random_game
from bot.rules.royale.fast_tables import NUM_LOW, NUM_SPAN, game_tail, numbers, wide
from bot.sim.runner import ai_seed, play_game


@pytest.mark.parametrize("value", [NUM_LOW - 1, NUM_LOW, -1, 0, 7, NUM_LOW + NUM_SPAN - 1,
                                   NUM_LOW + NUM_SPAN, 10**6, -(10**6)])
def test_numbers_in_and_out_of_the_table(value: int) -> None:
    table = numbers(',"red":')
    assert wide(table, NUM_LOW, value) == f',"red":{value}'.encode()
    yellow = numbers('"Pända":', 0, 256)
    if value >= 0:
        assert wide(yellow, 0, value) == f'"Pända":{value}'.encode()


@pytest.mark.parametrize("game_id", ["royale-12", "", 'say "hi"', "back\\slash", "tab\there",
                                     "Pända 🐼", "line\u2028sep", "nul\x00", "del\x7f"])
def test_game_tail_is_json(game_id: str) -> None:
    want = ',"game":' + json.dumps(game_id, separators=(",", ":"), ensure_ascii=False) + "}\n"
    assert game_tail(game_id) == want.encode()


def test_an_odd_game_id_gives_the_engine_log() -> None:
    game_id = 'odd "id" \\ Pända\u2028🐼'
    players = ["a", "b", "c"]
    played = play_game(kind_of("royale"), players, 5, ["random"],
                       {"expansions": ["mischief", "cannon", "mercenary"]})
    want = list(log_lines(game_id, played.events))
    _, _, lines = play_random_game(players, 5, ["mischief", "cannon", "mercenary"],
                                   [ai_seed(5, i) for i in range(3)], game_id)
    assert lines == want
