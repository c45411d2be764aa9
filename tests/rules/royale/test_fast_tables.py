"""The fast path's lookup tables write exactly what the log writer writes."""

from __future__ import annotations

import json

import pytest

from bot.rules.gamelog import log_lines
from bot.rules.registry import kind_of
from bot.rules.royale.fast_single import play_random_game
from bot.rules.royale.fast_tables import game_tail, numbers, wide
from bot.sim.runner import ai_seed, play_game


@pytest.mark.parametrize("value", [-401, -400, -1, 0, 7, 63, 64, 10**6, -(10**6)])
def test_numbers_in_and_out_of_the_table(value: int) -> None:
    table = numbers(',"red":', -400, 464)
    assert wide(table, -400, value) == f',"red":{value}'.encode()
    rerolls = numbers('"Pända":', 0, 64)
    if value >= 0:
        assert wide(rerolls, 0, value) == f'"Pända":{value}'.encode()


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


def _writers() -> list[tuple[str, object]]:
    """``number`` and ``columns`` in pure Python, and compiled where a build is in use."""
    from bot.rules.royale import fast_write
    from bot.sim.fastpath import compiled_module

    found: list[tuple[str, object]] = [("python", fast_write)]
    if compiled_module()[0] is not None:
        import importlib

        found.append(("mypyc", importlib.import_module("bot.rules.royale.fast_write_compiled")))
    return found


@pytest.mark.parametrize("native", [True, False], ids=["BytesWriter", "pieces"])
def test_numbers_written_digit_by_digit_read_as_str_writes_them(native: bool) -> None:
    from bot.rules.royale.fast_sink import log_buffer, take

    values = [*range(-120, 1200), 9999, 10**6, -(10**6), 2**40]
    # the compiled writers take only a BytesWriter (see fast_sink)
    for _, module in _writers() if native else _writers()[:1]:
        out, _ = log_buffer(native=native)
        for v in values:
            module.number(out, v)  # type: ignore[attr-defined]
            out.write(b",")
        assert take(out) == "".join(f"{v}," for v in values).encode()
        out.write(b"{")
        module.columns(out, 1, 22, 333, 0, -4, 4444, 12, 5000)  # type: ignore[attr-defined]
        assert take(out) == (b'{,"columns":{"yellow":1,"purple":22,"blue":333,"red":0,'
                             b'"green":-4,"clear":4444,"pink":12},"total":5000')


@pytest.mark.parametrize("native", [True, False], ids=["BytesWriter", "pieces"])
def test_a_score_lines_dice_and_closing_bracket(native: bool) -> None:
    from bot.rules.royale.dice import dice_for
    from bot.rules.royale.fast_sink import log_buffer, take
    from bot.rules.royale.fast_tables import LogPieces

    options = ("cannon", "mercenary", "mischief")
    pieces = LogPieces(("a", "b", "c", "d"), options, dice_for(4, options))
    opened_next = [b"," + piece for piece in pieces.opened]
    values = [0] * len(pieces.die)
    for _, module in _writers() if native else _writers()[:1]:
        out, _ = log_buffer(native=native)
        for v in range(-20, 40):
            for hand in ([], [3], [0, 5, 7, 11]):
                for k, d in enumerate(hand):
                    values[d] = v + k  # each die its own value
                out.write(b"[")
                module.dice(out, hand, values, pieces.opened,  # type: ignore[attr-defined]
                            opened_next)
                want = b",".join(pieces.die[d][:-1] + f',"value":{v + k}}}'.encode()
                                 for k, d in enumerate(hand))
                assert take(out) == b"[" + want + b"]", (v, hand)
