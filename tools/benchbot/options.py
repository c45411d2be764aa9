"""The options of the bot benchmarks (kept apart so the command line imports nothing heavy)."""

from __future__ import annotations

from dataclasses import dataclass

WHICH = ("latency", "rest", "memory", "startup", "profile")


@dataclass(frozen=True)
class Options:
    which: tuple[str, ...] = ("latency", "rest", "memory", "startup")
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
    backend: str = "sqlite"
    postgres_url: str | None = None
