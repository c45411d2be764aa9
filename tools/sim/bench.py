"""``./dev bench``: the speed figures that matter, each saying what it measured.

What is played of each game kind is its registry entry's ``bench``
(:class:`bot.rules.registry.Bench`); the whole-process and the one-process figures are of the
default kind (:func:`bot.rules.registry.default_kind`, Panda Royale). :func:`run_bench` prints
them in order, each headed by what it measures: the whole ``simulate`` process, the engine's
loop in one process, each computer player's decisions, the engine loop of each kind, start-up.

The figures say which rules this process imports (:func:`rules_used`): the compiled ones of an
installed wheel, or the Python source; its subprocesses run with its interpreter and
environment. ``./dev bench`` runs it on the compiled rules where they can be built,
``PANDA_MYPYC=0 ./dev bench`` on the source tree's Python.
"""

from __future__ import annotations

import io
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

import bot.rules
from bot.rules.registry import KINDS, default_kind, kind_of
from bot.sim.runner import ai_seed, play_game
from tools.sim.chunks import default_jobs


def games_per_second(
    game: str, players: int, ai: Sequence[str], options: dict[str, Any], games: int, seed: int
) -> float:
    """Play ``games`` games through the engine loop without keeping events; games per CPU
    second of this process (one core: the engine is single-threaded), best of three runs.
    """
    kind = kind_of(game)
    names = [f"p{i}" for i in range(players)]
    play_game(kind, names, seed - 1, ai, options, keep_events=False)  # warm caches
    best = 0.0
    for _ in range(3):
        started = time.process_time()
        for g in range(games):
            play_game(kind, names, seed + g, ai, options, keep_events=False)
        best = max(best, games / max(time.process_time() - started, 1e-9))
    return best


def loop_per_second(game: str, players: int, games: int, seed: int) -> float:
    """Games/s of ``simulate``'s loop here (``--jobs 1``, random players, no log), best of 3."""
    from tools.sim.simulate import simulate

    best = 0.0
    for _ in range(3):
        result = simulate(game=game, players=players, games=games, seed=seed,
                          ai=["random"], jobs=1, out=io.StringIO())
        best = max(best, games / max(result["elapsed"], 1e-9))
    return best


def _simulate_cmd(players: int, games: int, *, jobs: int | None = None,
                  log: Path | None = None) -> list[str]:
    """The default kind's ``simulate`` command line."""
    cmd = [sys.executable, "-m", "tools.sim", "simulate", "--ai", "random", "--players",
           str(players), "--games", str(games)]
    if jobs is not None:
        cmd += ["--jobs", str(jobs)]
    return [*cmd, "--log", str(log)] if log is not None else cmd


def whole_process_seconds(players: int, games: int, *, jobs: int | None,
                          log: bool) -> float:
    """Wall-clock seconds of one whole ``python -m tools.sim simulate --ai random`` subprocess; with
    ``log``, the log goes to a new temporary file.
    """
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "whole.jsonl" if log else None
        started = time.perf_counter()
        subprocess.run(_simulate_cmd(players, games, jobs=jobs, log=path), check=True,
                       stdout=subprocess.DEVNULL)
        return time.perf_counter() - started


def whole_process_pairs(players: int, games: int, *, jobs: int | None,
                        runs: int = 3) -> list[tuple[float, float]]:
    """``runs`` pairs of whole ``simulate`` subprocesses of ``games`` games, one without and
    one with the log, in turn (so that a busy spell of a shared machine weighs on both): (wall
    seconds without, wall seconds with) for each pair.
    """
    return [(whole_process_seconds(players, games, jobs=jobs, log=False),
             whole_process_seconds(players, games, jobs=jobs, log=True)) for _ in range(runs)]


def whole_process_line(players: int, games: int, jobs: str,
                       pairs: list[tuple[float, float]]) -> str:
    """The bench line of :func:`whole_process_pairs`' runs: medians, and what the log added
    (the median of the pairs, and its range across them: how much the machine moved).
    """
    plain = statistics.median(p for p, _ in pairs)
    logged = statistics.median(w for _, w in pairs)
    adds = sorted(w / p - 1 for p, w in pairs)
    return (f"  {default_kind().name} {players:>2} random players, {jobs}: "
            f"{games / plain:>7.0f} games/s "
            f"without the log, {games / logged:>7.0f} with --log (the log adds "
            f"{100 * statistics.median(adds):.0f} %, median of the pairs, "
            f"{100 * adds[0]:.0f} to {100 * adds[-1]:.0f} % across them)")


class _Timed:
    """A computer player whose ``choose`` calls are counted and timed (CPU time)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.seconds = 0.0
        self.calls = 0

    def choose(self, state: Any) -> Any:
        started = time.process_time()
        action = self.inner.choose(state)
        self.seconds += time.process_time() - started
        self.calls += 1
        return action


def _timer_overhead(samples: int = 20_000) -> float:
    """What one timed interval of :class:`_Timed` measures when nothing runs in it."""
    clock = time.process_time
    total = 0.0
    for _ in range(samples):
        started = clock()
        total += clock() - started
    return total / samples


def decisions_per_second(game: str, ai: str, players: int, games: int, seed: int,
                         options: dict[str, Any]) -> float:
    """Decisions per CPU second inside ``ai``'s ``choose``, over ``games`` whole games with
    ``options`` (after one warm-up game: computer players keep caches), the timer's own cost
    subtracted.
    """
    kind = kind_of(game)
    engine = kind.engine
    names = [f"p{i}" for i in range(players)]
    seconds = 0.0
    calls = 0
    for g in range(seed - 1, seed + games):
        state, _ = engine.new_game(names, g, options)
        bots = [_Timed(kind.make_player(ai, ai_seed(g, i))) for i in range(players)]
        while (seat := engine.current_seat(state)) is not None:
            engine.apply_in_place(state, bots[seat].choose(state))
        if g >= seed:
            seconds += sum(b.seconds for b in bots)
            calls += sum(b.calls for b in bots)
    return calls / max(seconds - calls * _timer_overhead(), 1e-9)


def startup_seconds(runs: int = 5) -> tuple[float, float]:
    """Best wall-clock time of ``python -m tools.sim simulate --games 1`` (random players) as a
    subprocess, and of a bare ``python -c pass``, in seconds.
    """
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    cmds = ([sys.executable, "-m", "tools.sim", "simulate", "--games", "1", "--ai", "random"],
            [sys.executable, "-c", "pass"])
    best = [float("inf"), float("inf")]
    for _ in range(runs):
        for i, cmd in enumerate(cmds):
            started = time.perf_counter()
            subprocess.run(cmd, check=True, env=env, stdout=subprocess.DEVNULL)
            best[i] = min(best[i], time.perf_counter() - started)
    return best[0], best[1]


def rules_used() -> str:
    """Which rules this process runs, and from where."""
    where = Path(str(bot.rules.__file__)).parent
    return f"{'compiled by mypyc' if bot.rules.compiled() else 'pure Python'} ({where})"


def _options(options: Mapping[str, Sequence[str]]) -> dict[str, Any]:
    """A bench entry's rule options as the engine takes them."""
    return {name: list(values) for name, values in options.items()}


def run_bench(*, games: int, seed: int, out: TextIO, only: str | None = None,
              startup: bool = True) -> list[str]:
    """Print the figures, one line each; return the lines. Without ``startup``, the figures
    that need a subprocess (whole process, pure-Python loop, start-up) are left out. ``only``:
    the figures of one game kind.
    """
    lines: list[str] = []

    def say(line: str) -> None:
        out.write(line + "\n")
        out.flush()
        lines.append(line)

    kinds = [(k, k.bench) for k in KINDS.values()
             if k.bench is not None and only in (None, k.name)]
    main = default_kind()
    rules = f"rules: {rules_used()}"
    if main.bench is not None and only in (None, main.name):
        if startup:
            count = 5 * games
            jobs = default_jobs()
            say(f"whole process: python -m tools.sim simulate --ai random --games {count}, "
                f"{main.title}, no options, wall clock (start-up, every process and the log's "
                f"writing included), median of 3 alternating pairs; {rules}; the log to a new "
                f"temporary file")
            for n in main.bench.players:
                for label, j in ((f"--jobs default ({jobs})", None), ("--jobs 1", 1)):
                    say(whole_process_line(n, count, label,
                                           whole_process_pairs(n, count, jobs=j)))
        count = 2 * games
        say(f"the engine in one process: the loop of simulate --jobs 1 --ai random, no log, "
            f"wall clock, start-up not counted, best of 3 ({count} games); {rules}")
        for n in main.bench.players:
            gps = loop_per_second(main.name, n, count, seed)
            say(f"  {main.name} {n:>2} random players: {gps:>9.0f} games/s")
    say("computer players: decisions per CPU second inside choose() only (timer cost "
        "subtracted), every seat the same player, with every rule option, after a warm-up game")
    for kind, bench in kinds:
        for ai in bench.ai:
            count = max(5, games // (20 if ai != "random" else 10))
            n = bench.decision_players
            dps = decisions_per_second(kind.name, ai, n, count, seed,
                                       _options(bench.option_sets[-1]))
            say(f"  {kind.name} {ai:<9} {dps:>11.0f} decisions/s  ({count} games of {n} players)")
    say(f"engine loop (play_game: every decision through apply_in_place, no events kept): games "
        f"per CPU second, best of 3; {rules}")
    for kind, bench in kinds:
        for options in bench.option_sets:
            for ai in bench.ai:
                for n in bench.players:
                    # Slow configurations get fewer games so the whole bench stays short.
                    count = max(20, games // (n if ai != "random" else 1) // 3)
                    gps = games_per_second(kind.name, n, [ai], _options(options), count, seed)
                    shown = ",".join(v for values in options.values() for v in values)
                    label = f"{kind.name} {n:>2} players {ai:<9} options {shown or 'none':<25}"
                    say(f"  {label} {gps:>9.0f} games/s  ({count} games)")
    if startup:
        whole, bare = startup_seconds()
        say(f"start-up: python -m tools.sim simulate --games 1 --ai random, whole process "
            f"(interpreter, imports, one game), wall clock, best of 5: {whole * 1000:.0f} ms "
            f"(a bare interpreter: {bare * 1000:.0f} ms)")
    return lines
