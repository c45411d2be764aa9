"""Which implementation of the simulator's fast path runs: the pure-Python module
:mod:`bot.rules.royale.fast` (always there), or an optional mypyc-compiled copy of it.

``./dev compile-fast`` (:mod:`bot.sim.compile_fast`) builds ``bot.rules.royale.fast_compiled``
from ``fast.py`` where mypyc and a C compiler are available; it is never needed. The compiled
copy records the sha256 of the ``fast.py`` it was built from and is used only while that file is
unchanged (and ``fast_tables.py``, which it reads), so an edit is never shadowed by a stale
build. The same holds for ``fast_lines``, the round's score lines written in C, built with it.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

COMPILED = "bot.rules.royale.fast_compiled"
LINES = "bot.rules.royale.fast_lines"
LINES_SOURCE = "fast_lines.c"

PlayRandomGame = Callable[..., tuple[list[int], list[int], list[str]]]

GamesFactory = Callable[[Sequence[str], Sequence[str]], Any]
"""``RandomGames(players, expansions)``: an object whose ``play(seed, ai_seeds, game_id, out)``
plays one game, its log written into ``out``, a buffer from
:func:`bot.rules.royale.fast_sink.log_buffer` (see :class:`bot.rules.royale.fast.RandomGames`)."""


SOURCES = ("fast.py", "fast_write.py", "fast_tables.py", "fast_sink.py")
"""The files of bot/rules/royale/ a compiled copy depends on: fast.py and fast_write.py are
compiled, they read fast_tables.py's classes (which stay pure Python) by their attributes, and
fast_sink.py says which of librt's writers their byte stores are."""


def source_sha256(folder: Path | None = None) -> str:
    """The sha256 of :data:`SOURCES` as they are now (in ``folder``, by default the package's)."""
    if folder is None:
        from bot.rules.royale import fast

        folder = Path(fast.__file__).parent
    digest = hashlib.sha256()
    for name in SOURCES:
        digest.update((folder / name).read_bytes())
    return digest.hexdigest()


def lines_sha256(folder: Path | None = None) -> str:
    """The sha256 of :data:`LINES_SOURCE` as it is now (in ``folder``, by default the
    package's).
    """
    if folder is None:
        from bot.rules.royale import fast

        folder = Path(fast.__file__).parent
    return hashlib.sha256((folder / LINES_SOURCE).read_bytes()).hexdigest()


def lines_in_c() -> Any:
    """The module ``fast_lines`` (the busiest log lines, in C) if it was built from
    ``fast_lines.c`` as it is now and the log buffer is librt's ``BytesWriter`` (the only one it
    writes into), else None (the fast path then writes every line itself).
    """
    from bot.rules.royale import fast_sink

    if fast_sink.BytesWriter is None:
        return None
    try:
        module = importlib.import_module(LINES)
    except ImportError:
        return None
    try:
        fresh = getattr(module, "SOURCE_SHA256", None) == lines_sha256()
    except OSError:  # an installed copy without its C source: nothing says it is current
        fresh = False
    if not fresh:
        return None
    return module


def compiled_module() -> tuple[Any, str]:
    """The compiled copy and "" if it can be used, else None and why not."""
    try:
        module = importlib.import_module(COMPILED)
    except ImportError:
        return None, "not compiled"
    if getattr(module, "SOURCE_SHA256", None) != source_sha256():
        return None, "the compiled copy is stale: run ./dev compile-fast again"
    return module, ""


def implementations() -> dict[str, PlayRandomGame]:
    """Every usable implementation by name: "python", and "mypyc" when built and fresh; each
    also with "+c" (the busiest lines written by ``fast_lines``) where that is built and fresh.
    """
    from bot.rules.royale.fast import RandomGames
    from bot.rules.royale.fast_single import play_random_game, single_games

    found: dict[str, PlayRandomGame] = {"python": play_random_game}
    module, _ = compiled_module()
    if module is not None:
        found["mypyc"] = single_games(module.RandomGames)
    lines = lines_in_c()
    if lines is not None:
        for name, games_class in [("python", RandomGames),
                                  *([("mypyc", module.RandomGames)] if module else [])]:
            found[f"{name}+c"] = single_games(
                functools.partial(games_class, lines_in_c=lines))
    return found


def best() -> tuple[GamesFactory, str]:
    """The :class:`~bot.rules.royale.fast.RandomGames` class to use (with the log lines in C
    where they are built) and a note saying which implementation it is.
    """
    module, why = compiled_module()
    if module is not None:
        games_class, note = module.RandomGames, "fast path compiled with mypyc"
    else:
        from bot.rules.royale.fast import RandomGames

        games_class = RandomGames
        note = "fast path in pure Python" + (f" ({why})" if why != "not compiled" else "")
    lines = lines_in_c()
    if lines is None:
        return games_class, note
    return functools.partial(games_class, lines_in_c=lines), f"{note}, busiest log lines in C"
