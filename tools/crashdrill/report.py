"""What a crash drill did and found: the counts, the failures and the printed summary."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field


@dataclass(slots=True)
class DrillReport:
    """What a drill did and found."""

    kills: int = 0
    kills_in_commit: int = 0
    """Kills while the child held a transaction open (all writes done, no COMMIT yet)."""
    races: Counter[str] = field(default_factory=Counter)
    """Kills racing a COMMIT, by what the database kept: ``committed`` or ``rolled back``."""
    kinds: Counter[str] = field(default_factory=Counter)
    """Kills by plan kind, and ``startup`` for delay kills before the child's first line."""
    resumes: int = 0
    """Restarts that found an open game and resumed it at the stored version."""
    stuck: int = 0
    """Restarts where the open game waited on a computer seat the service did not play."""
    games_finished: int = 0
    actions_committed: int = 0
    answers: int = 0
    checks_passed: int = 0
    failures: list[str] = field(default_factory=list)
    final_game: int | None = None
    final_status: str | None = None
    seconds: float = 0.0
    spawn_seconds: float = 0.0
    """Time from spawning a child to its first line, summed over every child that printed one."""
    spawns: int = 0

    @property
    def ok(self) -> bool:
        """Every check passed and the final game finished."""
        return not self.failures and self.final_status == "finished"

    def summary(self) -> str:
        kinds = ", ".join(f"{k} {v}" for k, v in sorted(self.kinds.items()))
        races = ", ".join(f"{k} {v}" for k, v in sorted(self.races.items())) or "none"
        per_kill = self.seconds / self.kills if self.kills else 0.0
        start = self.spawn_seconds / self.spawns if self.spawns else 0.0
        lines = [
            f"crash drill: {'PASSED' if self.ok else 'FAILED'}",
            f"  kills            {self.kills} ({kinds})",
            f"  inside a commit  {self.kills_in_commit} (transaction open, rolled back as "
            f"expected); racing a commit: {races}",
            f"  restarts         {self.spawns} (resumed an open game {self.resumes} times; "
            f"stuck on a computer seat {self.stuck} times)",
            f"  games finished   {self.games_finished} (final game {self.final_game}: "
            f"{self.final_status})",
            f"  actions          {self.actions_committed} committed, {self.answers} answers",
            f"  checks           {self.checks_passed} passed, {len(self.failures)} failed",
            f"  time             {self.seconds:.1f}s ({per_kill * 1000:.0f} ms per kill, "
            f"child start-up to first line {start * 1000:.0f} ms)",
        ]
        if self.failures:
            names = Counter(f.split(": ")[1] if f.count(": ") >= 2 else "other"
                            for f in self.failures)
            lines.append("  failed checks    "
                         + ", ".join(f"{k} {v}" for k, v in names.most_common()))
        for failure in self.failures[:10]:
            lines.append(f"  FAIL {failure}")
        if len(self.failures) > 10:
            lines.append(f"  ... and {len(self.failures) - 10} more failures")
        return "\n".join(lines)
