"""The crash drill's parent: kill the child at chosen points, check the database, restart.

``run_drill(kills=200, seed=1, workdir=..., out=sys.stdout)`` starts
``python -m tools.crashdrill.child --hold`` on ``workdir/drill.db`` and, cycle after cycle, picks a
kill point with a generator seeded by ``seed`` (:func:`choose_plan`):

``commit``  on the n-th ``COMMITTING`` line: the child is inside the transaction, every write done,
            COMMIT not issued (it waits for the parent's go-ahead), so the kill always lands
            inside an open transaction; afterwards the game must still be at that version.
``race``    on the n-th ``COMMITTING`` line, give the go-ahead and kill a few hundred
            microseconds later: during SQLite's COMMIT (the WAL append) or just after it.
``answer``  right after the n-th ``ANSWERED`` line.
``delay``   a random time after the child was spawned (0 to 0.5 s): in the interpreter's
            start-up, opening and recovering the database, or anywhere in play.

After each SIGKILL every line the child managed to print is read, then
:func:`tools.crashdrill.checks.check_database` runs, and the next child must resume the open game
at the stored version (``RESUMED <game> <version>``), not start over. Once ``kills`` kills
happened the last child runs without being killed until the current game is over, and the drill
checks it finished with its results.

The parts: :mod:`tools.crashdrill.plan` (the kill points), :mod:`tools.crashdrill.child_process`
(one child, read line by line, killed), :mod:`tools.crashdrill.report` (the counts and the
summary); here, the drill loop, the checks after each kill and the command line.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import BinaryIO, TextIO

from tools.crashdrill.checks import Answer, CheckResult, check_database
from tools.crashdrill.child_process import Child, Cycle
from tools.crashdrill.plan import MAX_DELAY_S, KillKind, KillPlan, choose_plan
from tools.crashdrill.report import DrillReport

__all__ = [
    "DB_NAME",
    "FINAL_TIMEOUT_S",
    "MAX_DELAY_S",
    "SILENCE_S",
    "Child",
    "Cycle",
    "Drill",
    "DrillReport",
    "KillKind",
    "KillPlan",
    "add_arguments",
    "choose_plan",
    "main",
    "run_drill",
    "run_from_args",
]

SILENCE_S = 30.0
"""A child that prints nothing for this long is hung: the drill kills it and fails."""
FINAL_TIMEOUT_S = 300.0
DB_NAME = "drill.db"


class Drill:
    """The state kept across cycles: the last answer of each game, the expected open game."""

    def __init__(self, *, kills: int, seed: int, workdir: Path, out: TextIO, every: int,
                 tolerate_stuck: bool, python: str, child_module: str) -> None:
        self.kills = kills
        self.seed = seed
        self.rng = random.Random(seed)
        self.workdir = workdir
        self.db = workdir / DB_NAME
        self.out = out
        self.every = max(1, every)
        self.tolerate_stuck = tolerate_stuck
        self.python = python
        self.child_module = child_module
        self.report = DrillReport()
        self.answered: dict[int, Answer] = {}
        self.verified: dict[int, str] = {}
        self.last: CheckResult = CheckResult()
        self.started = time.perf_counter()

    # -- one child -----------------------------------------------------------------------

    def spawn(self, *, hold: bool, games: int | None = None) -> Child:
        cmd = [self.python, "-m", self.child_module, "--db", str(self.db),
               "--seed", str(self.seed)]
        if hold:
            cmd.append("--hold")
        if games is not None:
            cmd += ["--games", str(games)]
        self.stderr_mark = os.fstat(self.stderr.fileno()).st_size
        self.report.spawns += 1
        return Child(cmd, self.stderr)

    def fail(self, message: str) -> None:
        self.report.failures.append(f"kill {self.report.kills}: {message}")

    def handle(self, child: Child, cycle: Cycle, line: str) -> None:
        """Record one line of the child (checks on the first line of a restart)."""
        word, *rest = line.split()
        if cycle.first is None:
            cycle.first = line
            self.report.spawn_seconds += time.perf_counter() - child.started
            self.check_resume(line)
        if word == "ANSWERED":
            game, version, mark = int(rest[0]), int(rest[1]), rest[2]
            self.answered[game] = Answer(version, mark)
            cycle.answers += 1
            cycle.holding = None
            self.report.answers += 1
        elif word == "COMMITTING":
            cycle.commits += 1
            cycle.holding = (int(rest[0]), int(rest[1]))
        elif word == "STUCK":
            self.report.stuck += 1
            if not self.tolerate_stuck:
                self.fail(f"stuck: after the restart game {rest[0]} (version {rest[1]}) waits on "
                          f"computer seat {rest[2]}: service.resume_shard() does not play it, so "
                          "the game would hang (the drill moved it on with service.timeout)")
        elif word == "FINISHED":
            cycle.finished.append(int(rest[0]))
        elif word == "DONE":
            cycle.done = True
        elif word not in ("FRESH", "RESUMED"):
            self.fail(f"protocol: unexpected line from the child: {line!r}")

    def check_resume(self, line: str) -> None:
        expected = self.last.open_game
        word, *rest = line.split()
        if expected is None:
            self.check(word == "FRESH", "resume", f"no open game, but the child said {line!r}")
            return
        self.report.resumes += 1
        self.check(
            word == "RESUMED" and rest[:2] == [str(expected.id), str(expected.version)],
            "resume", f"expected RESUMED {expected.id} {expected.version}, got {line!r}",
        )

    def check(self, good: bool, name: str, message: str) -> None:
        if good:
            self.report.checks_passed += 1
        else:
            self.fail(f"{name}: {message}")

    def stderr_tail(self) -> str:
        """The last lines the current child wrote to stderr."""
        with open(self.stderr_path, "rb") as f:
            f.seek(self.stderr_mark)
            text = f.read().decode(errors="replace")
        return " | ".join(text.strip().splitlines()[-4:])

    def cycle(self, plan: KillPlan) -> None:
        """Spawn, kill where ``plan`` says, read what was printed, check the database."""
        child = self.spawn(hold=True)
        cycle = Cycle()
        kind: str = plan.kind
        at_commit: tuple[int, int] | None = None  # the transaction the plan's kill aimed at
        try:
            deadline = child.started + plan.delay if plan.kind == "delay" else None
            while True:
                line = child.line(deadline or time.perf_counter() + SILENCE_S)
                if line is None:
                    if deadline is None:
                        self.fail(f"child: it printed nothing for {SILENCE_S:.0f}s ({plan})")
                    elif cycle.first is None:
                        kind = "startup"
                    break
                if line == "":
                    child.proc.wait()
                    self.fail(f"child: it exited by itself (code {child.proc.returncode}) "
                              f"before the kill ({plan}): {self.stderr_tail()}")
                    break
                self.handle(child, cycle, line)
                word = line.split()[0]
                if word == "COMMITTING":
                    if plan.kind == "commit" and cycle.commits == plan.count:
                        at_commit = cycle.holding
                        break  # kill with the transaction open: no go-ahead
                    child.go()
                    if plan.kind == "race" and cycle.commits == plan.count:
                        at_commit = cycle.holding
                        end = time.perf_counter() + plan.delay
                        while time.perf_counter() < end:
                            pass
                        break
                elif word == "ANSWERED" and plan.kind == "answer" and (
                        cycle.answers == plan.count):
                    break
            for line in child.kill():
                self.handle(child, cycle, line)
        finally:
            child.close()
        self.report.kills += 1
        self.report.kinds[kind] += 1
        self.after_kill(plan, at_commit)

    def after_kill(self, plan: KillPlan, at_commit: tuple[int, int] | None) -> None:
        result = check_database(self.db, self.answered, self.verified)
        self.absorb(result)
        if at_commit is None:
            if plan.kind in ("commit", "race"):
                self.fail(f"plan: the child never reached the commit of {plan}")
            return
        game, version = at_commit
        facts = result.games.get(game)
        stored = None if facts is None else facts.version
        if plan.kind == "commit":
            good = stored == version
            self.check(good, "in-commit", f"killed inside the transaction moving game {game} "
                       f"on from version {version}, yet the stored version is {stored}")
            self.report.kills_in_commit += good
        else:
            committed = stored is not None and stored > version
            self.report.races["committed" if committed else "rolled back"] += 1

    def absorb(self, result: CheckResult) -> None:
        self.last = result
        self.report.checks_passed += result.passed
        for failure in result.failures:
            self.fail(failure)
        self.report.games_finished = result.finished_games
        self.report.actions_committed = result.actions

    def finish(self) -> None:
        """The last child runs to the end of the current game without being killed."""
        open_game = self.last.open_game
        latest = max(self.last.games, default=0)
        target = open_game.id if open_game is not None else latest + 1
        child = self.spawn(hold=False, games=target)
        cycle = Cycle()
        try:
            give_up = time.perf_counter() + FINAL_TIMEOUT_S
            while (line := child.line(give_up)) not in ("", None):
                assert line is not None
                self.handle(child, cycle, line)
            if line is None:
                self.fail(f"final: the last game did not end within {FINAL_TIMEOUT_S:.0f}s")
            child.proc.wait()
            self.check(child.proc.returncode == 0 and cycle.done, "final",
                       f"the last child ended with code {child.proc.returncode} "
                       f"(DONE seen: {cycle.done}): {self.stderr_tail()}")
        finally:
            child.close()
        self.absorb(check_database(self.db, self.answered, self.verified))
        facts = self.last.games.get(target)
        self.report.final_game = target
        self.report.final_status = None if facts is None else facts.status
        self.check(facts is not None and facts.status == "finished" and target in cycle.finished,
                   "final", f"game {target} did not finish: {facts}")

    def progress(self) -> None:
        r = self.report
        self.out.write(
            f"kills {r.kills:>4}/{self.kills}  in commit {r.kills_in_commit:>3}  "
            f"games finished {r.games_finished:>3}  actions {r.actions_committed:>5}  "
            f"checks {r.checks_passed:>6} passed {len(r.failures):>3} failed  "
            f"{time.perf_counter() - self.started:6.1f}s\n"
        )
        self.out.flush()

    def run(self) -> DrillReport:
        self.workdir.mkdir(parents=True, exist_ok=True)
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(f"{self.db}{suffix}").unlink(missing_ok=True)
        with open(self.stderr_path, "ab") as self.stderr:
            while self.report.kills < self.kills:
                self.cycle(choose_plan(self.rng))
                if self.report.kills % self.every == 0:
                    self.progress()
            self.finish()
        self.report.seconds = time.perf_counter() - self.started
        self.out.write(self.report.summary() + "\n")
        self.out.flush()
        return self.report

    stderr: BinaryIO
    stderr_mark = 0

    @property
    def stderr_path(self) -> Path:
        return self.workdir / "child-stderr.log"


def run_drill(*, kills: int, seed: int, workdir: Path, out: TextIO, every: int = 20,
              tolerate_stuck: bool = False, python: str | None = None,
              child_module: str = "tools.crashdrill.child") -> DrillReport:
    """SIGKILL the child ``kills`` times at seeded random points, checking after each kill and
    at the end (see the module docstring). The database is ``workdir/drill.db`` (replaced),
    the children's stderr ``workdir/child-stderr.log``. ``tolerate_stuck`` accepts restarts
    where the game waits on a computer seat (counted in the report, not failed). ``python``
    and ``child_module`` say what to run as the child (the drill's own tests run a broken one).
    """
    return Drill(kills=kills, seed=seed, workdir=workdir, out=out, every=every,
                 tolerate_stuck=tolerate_stuck, python=python or sys.executable,
                 child_module=child_module).run()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``crash-drill`` (``./dev crash-drill``)."""
    parser.add_argument("--kills", type=int, default=200, help="how many SIGKILLs (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="seeds the games and the kill points")
    parser.add_argument("--workdir", type=Path, default=None,
                        help="keep the database and the children's stderr here "
                             "(default: a temporary directory, removed afterwards)")
    parser.add_argument("--every", type=int, default=20,
                        help="print a progress line every N kills")
    parser.add_argument("--tolerate-stuck", action="store_true",
                        help="do not fail when a restarted game waits on a computer seat")


def run_from_args(args: argparse.Namespace, out: TextIO) -> int:
    """Run the drill from parsed :func:`add_arguments` options; 0 if it passed, 1 if not."""
    if args.kills < 0:
        out.write("--kills must be 0 or more\n")
        return 2

    def drill(workdir: Path) -> DrillReport:
        return run_drill(kills=args.kills, seed=args.seed, workdir=workdir, out=out,
                         every=args.every, tolerate_stuck=args.tolerate_stuck)

    if args.workdir is not None:
        report = drill(args.workdir)
    else:
        with tempfile.TemporaryDirectory(prefix="crash-drill-") as tmp:
            report = drill(Path(tmp))
    return 0 if report.ok else 1


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """``python -m tools.crashdrill [--kills N] [--seed S] [--workdir DIR]``."""
    parser = argparse.ArgumentParser(
        prog="./dev crash-drill",
        description="SIGKILL the game service and storage at random points of games, restart, "
                    "and check every time that nothing answered was lost or applied twice.")
    add_arguments(parser)
    return run_from_args(parser.parse_args(argv), out or sys.stdout)
