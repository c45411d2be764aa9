"""The options of the bot benchmarks (kept apart so the command line imports nothing heavy)."""

from __future__ import annotations

from dataclasses import dataclass

WHICH = ("latency", "rest", "memory", "startup", "new", "finished", "ratelimit", "profile")


@dataclass(frozen=True)
class Options:
    which: tuple[str, ...] = ("latency", "rest", "memory", "startup", "new", "finished",
                              "ratelimit")
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
    backend: str = "sqlite"
    postgres_url: str | None = None
