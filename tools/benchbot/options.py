"""The options of the bot benchmarks (kept apart so the command line imports nothing heavy)."""

from __future__ import annotations

from dataclasses import dataclass

WHICH = ("latency", "rest", "scale", "memory", "startup", "new", "finished", "ratelimit",
         "profile")

RestTable = tuple[int, bool, bool, bool]
"""A game of the REST benchmark: (people, every Mayhem option, in a thread, slow)."""
REST_TABLES: tuple[RestTable, ...] = ((4, False, False, False), (10, True, False, False),
                                      (4, False, True, False), (4, False, False, True))


@dataclass(frozen=True)
class Options:
    which: tuple[str, ...] = ("latency", "rest", "scale", "memory", "startup", "new",
                              "finished", "ratelimit")
    games: int = 50
    resident: int = 200
    traced: int = 10
    players: int = 4
    samples: int = 200
    decisions: int = 10
    bursts: int = 5
    seed: int = 1
    settle_idle: float | None = None
    profile_decisions: int = 200
    new_samples: int = 200
    elsewhere: int = 100_000
    finished: int = 1_000
    people_games: int = 20
    rl_games: int = 10
    rl_moves: int | None = None
    """Stop each rate-limited run after this many moves (None: when the games end)."""
    rest_tables: tuple[RestTable, ...] = REST_TABLES
    scale_games: int = 500
    """Games in progress at once for the ``scale`` benchmark."""
    scale_rounds: int = 1
    """Rounds of one decision per game, paced at one every 5 s per game (``scale``)."""
    scale_samples: int = 200
    """Decisions made one at a time among the ``scale`` games."""
    scale_spread: int = 8
    """Before anything is measured each ``scale`` game makes 0 to ``scale_spread - 1``
    decisions (about a round's), so that the games are at different points of a round, as a
    running bot's are; 0 or 1: every game in step (the round ends all in the same paced round)."""
    scale_backends: tuple[str, ...] = ("sqlite", "postgres")
    backend: str = "sqlite"
    postgres_url: str | None = None
