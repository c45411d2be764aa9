"""The fast path writes the same log into either log buffer, and take() empties it."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.rules.gamelog import log_lines
from bot.rules.registry import kind_of
from bot.rules.royale.fast import RandomGames
from bot.rules.royale.fast_single import single_games
from bot.rules.royale.fast_sink import ByteBuffer, log_buffer, take
from bot.sim.runner import ai_seed, play_game


def test_both_buffers_hold_the_engine_log() -> None:
    native = single_games(RandomGames)
    pieces = single_games(RandomGames, native=False)
    for n, options in ((3, ()), (6, ("mischief", "cannon", "mercenary"))):
        players = [f"p{i}" for i in range(n)]
        for seed in range(4):
            played = play_game(kind_of("royale"), players, seed, ["random"],
                               {"expansions": list(options)})
            want = list(log_lines(f"g-{seed}", played.events))
            seeds = [ai_seed(seed, i) for i in range(n)]
            assert native(players, seed, options, seeds, f"g-{seed}")[2] == want
            assert pieces(players, seed, options, seeds, f"g-{seed}")[2] == want


def test_take_returns_what_was_written_and_empties_the_buffer() -> None:
    for native in (True, False):
        buffer, take_at = log_buffer(native=native)
        assert take_at > 0 and len(buffer) == 0
        buffer.write(b"ab")
        buffer.write(b"c\n")
        assert take(buffer) == b"abc\n"
        assert len(buffer) == 0 and take(buffer) == b""
        buffer.write(b"d")
        assert take(buffer) == b"d"
    assert isinstance(log_buffer(native=False)[0], ByteBuffer)


def test_simulate_log_without_librt_is_the_same(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Where mypy's runtime library is missing (so no compiled copy either), simulate writes
    the same log bytes from the bytearray."""
    from bot.rules.royale import fast_sink
    from bot.sim import fastpath
    from bot.sim.simulate import simulate

    def run(name: str) -> bytes:
        log = tmp_path / name
        simulate(game="royale", players=5, games=30, seed=9, ai=["random"],
                 expansions=["mischief", "mercenary"], log_path=log, out=io.StringIO())
        return log.read_bytes()

    want = run("native.jsonl")
    monkeypatch.setattr(fast_sink, "BytesWriter", None)
    monkeypatch.setattr(fastpath, "compiled_module", lambda: (None, "not compiled"))
    assert isinstance(fast_sink.log_buffer()[0], ByteBuffer)
    assert run("pieces.jsonl") == want
    assert want.count(b"\n") > 30 * 50
