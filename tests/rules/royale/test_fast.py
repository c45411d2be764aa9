"""The simulator's fast path plays exactly the engine's game of random players, and writes
exactly the log the engine's events give."""

from __future__ import annotations

from itertools import combinations

import pytest

from bot.rules.gamelog import log_lines
from bot.rules.registry import kind_of
from bot.sim.fastpath import implementations
from bot.sim.runner import ai_seed, play_game

OPTIONS = ("mischief", "cannon", "mercenary")
SUBSETS = [c for k in range(4) for c in combinations(OPTIONS, k)]


@pytest.mark.parametrize("impl", sorted(implementations()))
@pytest.mark.parametrize("options", SUBSETS, ids=lambda o: ",".join(o) or "none")
def test_fast_path_is_the_engine_game(options: tuple[str, ...], impl: str) -> None:
    """The pure-Python fast path, and its mypyc-compiled copy where one was built."""
    play_random_game = implementations()[impl]
    engine = kind_of("royale")
    for n in range(2, 11):
        players = [f"p{i}" for i in range(n)] if n % 2 else [f"Pända \"{i}\"" for i in range(n)]
        for seed in range(7 * n, 7 * n + 4):
            played = play_game(engine, players, seed, ["random"], {"expansions": list(options)})
            want = list(log_lines(f"g-{seed}", played.events))
            totals, winners, lines = play_random_game(
                players, seed, options, [ai_seed(seed, i) for i in range(n)], f"g-{seed}")
            assert lines == want
            assert (totals, winners) == (played.totals, played.winners)
            assert play_random_game(players, seed, options,
                                    [ai_seed(seed, i) for i in range(n)])[:2] == (totals, winners)


def test_a_stale_compiled_copy_is_never_used(monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.sim import fastpath

    monkeypatch.setattr(fastpath, "source_sha256", lambda: "0" * 64)
    assert sorted(fastpath.implementations()) in (["python"], ["python", "python+c"])
    _, note = fastpath.best()
    assert note.startswith("fast path in pure Python")


def test_stale_score_lines_in_c_are_never_used(monkeypatch: pytest.MonkeyPatch) -> None:
    """Built from another ``fast_lines.c``: the fast path writes every line itself."""
    from bot.sim import fastpath

    monkeypatch.setattr(fastpath, "lines_sha256", lambda: "0" * 64)
    assert fastpath.lines_in_c() is None
    assert not any(name.endswith("+c") for name in fastpath.implementations())
    games_class, note = fastpath.best()
    assert "in C" not in note
    games = games_class(["a", "b"], [])
    assert (games.c_score, games.c_token, games.c_draft) == (None, None, None)
