"""Where the crash drill's SIGKILLs land: the kill plans and the seeded choice among them.

The four kinds (``commit``, ``race``, ``answer``, ``delay``) are described in
:mod:`tools.crashdrill.drill`; :func:`choose_plan` draws the next one.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal

KillKind = Literal["commit", "race", "answer", "delay"]

MAX_DELAY_S = 0.5


@dataclass(frozen=True, slots=True)
class KillPlan:
    """Where one cycle's SIGKILL lands."""

    kind: KillKind
    count: int = 0
    """The n-th COMMITTING (commit, race) or ANSWERED (answer) line of the cycle."""
    delay: float = 0.0
    """Seconds after the go-ahead (race) or after the spawn (delay)."""

    def __str__(self) -> str:
        if self.kind == "delay":
            return f"delay {self.delay * 1000:.0f}ms"
        if self.kind == "race":
            return f"race commit #{self.count} +{self.delay * 1e6:.0f}us"
        return f"{self.kind} #{self.count}"


def choose_plan(rng: random.Random) -> KillPlan:
    """The next kill point: 35% inside a commit, 15% racing a commit, 30% after an answer,
    20% after a random delay from the spawn.
    """
    r = rng.random()
    if r < 0.35:
        return KillPlan("commit", rng.randint(1, 30))
    if r < 0.50:
        return KillPlan("race", rng.randint(1, 30), rng.uniform(0.0, 0.003))
    if r < 0.80:
        return KillPlan("answer", rng.randint(1, 12))
    return KillPlan("delay", delay=rng.uniform(0.0, MAX_DELAY_S))
