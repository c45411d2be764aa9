"""One game at a time through the simulator's fast path, its log as lines: the form the tests
compare with the engine's (:func:`play_random_game`), for either implementation of
:class:`bot.rules.royale.fast.RandomGames` (pure Python or its mypyc-compiled copy).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from bot.rules.royale.fast import RandomGames
from bot.rules.royale.fast_sink import log_buffer, take

_MAX_CACHED: Final = 256  # set-ups kept (a simulation uses one)

PlayRandomGame = Callable[..., tuple[list[int], list[int], list[str]]]


def single_games(games_class: Any, *, native: bool = True) -> PlayRandomGame:
    """:func:`play_random_game` for ``games_class`` (a ``RandomGames`` implementation), writing
    into the log buffer :func:`~bot.rules.royale.fast_sink.log_buffer` gives for ``native``.
    """
    cache: dict[tuple[tuple[str, ...], tuple[str, ...]], Any] = {}

    def play_random_game(
        players: Sequence[str],
        seed: int,
        expansions: Sequence[str],
        ai_seeds: Sequence[int],
        game_id: str | None = None,
    ) -> tuple[list[int], list[int], list[str]]:
        """Play one game where seat ``i`` is a RandomPlayer seeded with ``ai_seeds[i]``.

        Returns each seat's total, the winning seats, and, if ``game_id`` is given, the game's
        log lines (each ending in a newline) exactly as the log writer writes the engine's
        events. The players must be valid (2-10 distinct ids): check a set-up with the engine.
        """
        key = (tuple(players), tuple(expansions))
        games = cache.get(key)
        if games is None:
            if len(cache) >= _MAX_CACHED:
                cache.clear()
            games = cache[key] = games_class(players, expansions)
        out, _ = log_buffer(native=native)
        totals, winners = games.play(seed, ai_seeds, game_id, out)
        # Log lines never hold a raw newline (JSON escapes it inside strings).
        lines = [line + "\n" for line in take(out).decode().split("\n")[:-1]]
        return totals, winners, lines

    return play_random_game


play_random_game: Final = single_games(RandomGames)

__all__ = ["PlayRandomGame", "play_random_game", "single_games"]
