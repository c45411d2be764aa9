"""Which implementation of the simulator's fast path runs: the pure-Python module
:mod:`bot.rules.royale.fast` (always there), or an optional mypyc-compiled copy of it.

``./dev compile-fast`` (:mod:`bot.sim.compile_fast`) builds ``bot.rules.royale.fast_compiled``
from ``fast.py`` where mypyc and a C compiler are available; it is never needed. The compiled
copy records the sha256 of the ``fast.py`` it was built from and is used only while that file is
unchanged (and ``fast_tables.py``, which it reads), so an edit is never shadowed by a stale
build.
"""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

COMPILED = "bot.rules.royale.fast_compiled"

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
    """Every usable implementation by name: "python", and "mypyc" when built and fresh."""
    from bot.rules.royale.fast_single import play_random_game, single_games

    found: dict[str, PlayRandomGame] = {"python": play_random_game}
    module, _ = compiled_module()
    if module is not None:
        found["mypyc"] = single_games(module.RandomGames)
    return found


def best() -> tuple[GamesFactory, str]:
    """The :class:`~bot.rules.royale.fast.RandomGames` class to use and a note saying which
    implementation it is.
    """
    module, why = compiled_module()
    if module is not None:
        return module.RandomGames, "fast path compiled with mypyc"
    from bot.rules.royale.fast import RandomGames

    note = "fast path in pure Python" + (f" ({why})" if why != "not compiled" else "")
    return RandomGames, note
