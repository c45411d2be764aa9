"""``python -m bot bench``: the speed figures that matter, each saying what it measured.

1. ``simulate`` games/s, Panda Royale, 4 and 10 random players, without and with the log: the
   loop of ``python -m bot simulate`` (the same code), CPU time of this process, start-up not
   counted, best of three runs. With the log, lines go to a temporary file.
2. Decisions/s of each computer player: the time spent inside its ``choose`` only (the engine's
   own work between decisions is not counted; the timer's own cost is subtracted), CPU time,
   every seat played by that player, after one warm-up game (players keep caches).
3. Games/s of the engine loop (``play_game``: every decision through ``apply_in_place``, no
   events kept) for each game, computer player and option set, CPU time, best of three.
4. Start-up: wall-clock time of a whole ``python -m bot simulate --games 1`` subprocess (the
   interpreter, the imports, one game), best of five, beside a bare interpreter's.
5. Whole process: ``python -m bot simulate --ai random`` as a subprocess, 4 and 10 players,
   without and with ``--log`` (a new file each time), its CPU time (user + system, start-up
   and writing included): games per CPU second, median of five, and what the log adds: the
   median of five side-by-side pairs (one run without, one with, in turn, so that a busy
   spell of a shared machine weighs on both) and its range across them, with the system time
   of the runs with the log (mostly the kernel writing the file).
"""

from __future__ import annotations

import io
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from bot.rules.registry import kind_of
from bot.sim.runner import ai_seed, play_game

ALL_OPTIONS = ("mischief", "cannon", "mercenary")


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


def simulate_per_second(players: int, games: int, seed: int, *, log: bool) -> float:
    """Games per CPU second of ``simulate``'s loop (random players, Panda Royale, no options),
    best of three runs; with ``log`` the game log goes to a temporary file.
    """
    from bot.sim.simulate import simulate

    best = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.jsonl" if log else None
        simulate(game="royale", players=players, games=1, seed=seed - 1, ai=["random"],
                 log_path=path, out=io.StringIO())  # warm caches
        for _ in range(3):
            started = time.process_time()
            simulate(game="royale", players=players, games=games, seed=seed, ai=["random"],
                     log_path=path, out=io.StringIO())
            best = max(best, games / max(time.process_time() - started, 1e-9))
    return best


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


def decisions_per_second(game: str, ai: str, players: int, games: int, seed: int) -> float:
    """Decisions per CPU second inside ``ai``'s ``choose``, over ``games`` whole games (after
    one warm-up game: computer players keep caches), the timer's own cost subtracted.
    """
    kind = kind_of(game)
    engine = kind.engine
    names = [f"p{i}" for i in range(players)]
    options: dict[str, Any] = {"expansions": list(ALL_OPTIONS)} if game == "royale" else {}
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
    """Best wall-clock time of ``python -m bot simulate --games 1`` (random players) as a
    subprocess, and of a bare ``python -c pass``, in seconds.
    """
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    cmds = ([sys.executable, "-m", "bot", "simulate", "--games", "1", "--ai", "random"],
            [sys.executable, "-c", "pass"])
    best = [float("inf"), float("inf")]
    for _ in range(runs):
        for i, cmd in enumerate(cmds):
            started = time.perf_counter()
            subprocess.run(cmd, check=True, env=env, stdout=subprocess.DEVNULL)
            best[i] = min(best[i], time.perf_counter() - started)
    return best[0], best[1]


def whole_process_pairs(players: int, games: int, runs: int = 5
                        ) -> list[tuple[float, float, float]]:
    """``runs`` pairs of whole ``python -m bot simulate --ai random`` subprocesses of ``games``
    games, one without and one with the log, in turn: (CPU seconds without, CPU seconds with,
    system seconds with) for each pair.
    """
    pairs = []
    for _ in range(runs):
        plain = whole_process_times(players, games, log=False)[0]
        logged, system = whole_process_times(players, games, log=True)
        pairs.append((plain, logged, system))
    return pairs


def whole_process_times(players: int, games: int, *, log: bool) -> tuple[float, float]:
    """CPU seconds (user + system) and system seconds of one whole ``simulate`` subprocess."""
    cmd = [sys.executable, "-m", "bot", "simulate", "--ai", "random", "--players", str(players),
           "--games", str(games)]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "whole.jsonl"
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([*cmd, "--log", str(path)] if log else cmd, check=True,
                       stdout=subprocess.DEVNULL)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    system = after.ru_stime - before.ru_stime
    return after.ru_utime - before.ru_utime + system, system


def whole_process_cpu(players: int, games: int, *, log: bool, runs: int = 3) -> float:
    """Median CPU time (user + system) of a whole ``python -m bot simulate --ai random``
    subprocess of ``games`` games; with ``log``, the log goes to a new temporary file.
    """
    return statistics.median(whole_process_times(players, games, log=log)[0]
                             for _ in range(runs))


def run_bench(*, games: int, seed: int, out: TextIO, only: str | None = None,
              startup: bool = True) -> list[str]:
    """Print the figures, one line each; return the lines."""
    lines: list[str] = []

    def say(line: str) -> None:
        out.write(line + "\n")
        out.flush()
        lines.append(line)

    if only in (None, "royale"):
        say("simulate (python -m bot simulate --ai random, Panda Royale, no options): games per "
            "CPU second of the game loop, start-up not counted, best of 3")
        for n in (4, 10):
            count = max(20, games // (1 if n <= 4 else 2))
            for log in (False, True):
                gps = simulate_per_second(n, count, seed, log=log)
                what = "with the log (JSON Lines to a file)" if log else "without the log"
                say(f"  royale {n:>2} random players, {what:<36} {gps:>9.0f} games/s  "
                    f"({count} games)")
    say("computer players: decisions per CPU second inside choose() only (timer cost "
        "subtracted), every seat the same player, royale with every option, after a warm-up game")
    decision_configs = [("royale", "random", 4), ("royale", "heuristic", 4),
                        ("posing", "random", 4), ("posing", "heuristic", 4)]
    for game, ai, n in decision_configs:
        if only not in (None, game):
            continue
        count = max(5, games // (20 if ai == "heuristic" else 10))
        dps = decisions_per_second(game, ai, n, count, seed)
        say(f"  {game} {ai:<9} {dps:>11.0f} decisions/s  ({count} games of {n} players)")

    configs: list[tuple[str, int, str, tuple[str, ...]]] = []
    if only in (None, "royale"):
        option_sets: tuple[tuple[str, ...], ...] = ((), ALL_OPTIONS)
        for opts in option_sets:
            for ai in ("random", "heuristic"):
                for n in (4, 10):
                    configs.append(("royale", n, ai, opts))
    if only in (None, "posing"):
        for ai in ("random", "heuristic"):
            for n in (1, 4):
                configs.append(("posing", n, ai, ()))
    say("engine loop (play_game: every decision through apply_in_place, no events kept): games "
        "per CPU second, best of 3")
    for game, n, ai, opts in configs:
        # Slow configurations get fewer games so the whole bench stays short.
        count = max(20, games // (n if ai == "heuristic" else 1) // 3)
        options: dict[str, Any] = {"expansions": list(opts)} if game == "royale" else {}
        gps = games_per_second(game, n, [ai], options, count, seed)
        label = f"{game} {n:>2} players {ai:<9} options {','.join(opts) or 'none':<25}"
        say(f"  {label} {gps:>9.0f} games/s  ({count} games)")
    if startup:
        whole, bare = startup_seconds()
        say(f"start-up: python -m bot simulate --games 1 --ai random, whole process "
            f"(interpreter, imports, one game), wall clock, best of 5: {whole * 1000:.0f} ms "
            f"(a bare interpreter: {bare * 1000:.0f} ms)")
    if startup and only in (None, "royale"):
        count = 5 * games
        say(f"whole process: python -m bot simulate --ai random --games {count}, Panda Royale, "
            f"no options, CPU time of the process (user + system: start-up and log writing "
            f"included), median of 5 alternating runs; the log to a new temporary file")
        for n in (4, 10):
            say(whole_process_line(n, count, whole_process_pairs(n, count)))
    return lines


def whole_process_line(players: int, games: int, pairs: list[tuple[float, float, float]]
                       ) -> str:
    """The bench line of :func:`whole_process_pairs`' runs: medians, and what the log added in
    the pair where it added least and most (how much the machine moved meanwhile).
    """
    plain = statistics.median(p for p, _, _ in pairs)
    logged = statistics.median(w for _, w, _ in pairs)
    adds = sorted(w / p - 1 for p, w, _ in pairs)
    system = statistics.median(k for _, _, k in pairs)
    return (f"  royale {players:>2} random players: {games / plain:>7.0f} games/s without the "
            f"log, {games / logged:>7.0f} with --log (the log adds "
            f"{100 * statistics.median(adds):.0f} %, median of the pairs, "
            f"{100 * adds[0]:.0f} to {100 * adds[-1]:.0f} % across them; system time with the "
            f"log {1e6 * system / games:.0f} us a game)")
