"""``python -m bot simulate``: many headless games, the game log, a one-line summary.

Games where every seat is the random computer player of Panda Royale take the fast path
(:class:`bot.rules.royale.fast.RandomGames`: the same games and the same log bytes, without
the engine's per-decision checks; its mypyc-compiled copy if ``./dev compile-fast`` built one,
see :mod:`bot.sim.fastpath`); every other game is played through the engine. The fast path
writes its log into a byte buffer (:mod:`bot.rules.royale.fast_sink`); the engine's games
add their lines to the same buffer. The buffer goes to the file in batches, straight from where
its bytes are: 8 MiB of whole blocks with ``O_DIRECT`` where the file takes it, else about
256 KB a plain write (:mod:`bot.sim.logwriter`). The file reserves its disk space ahead of the
writes where it can (:mod:`bot.sim.logfile`).
"""

from __future__ import annotations

import gc
import math
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from bot.rules.gamelog import log_lines
from bot.rules.registry import kind_of
from bot.rules.royale.fast_sink import log_buffer
from bot.sim.logwriter import open_log
from bot.sim.runner import ai_seeds, play_game


def player_names(kind: str, n: int) -> list[str]:
    """The seats' player ids of a simulated game: cpu1, cpu2, ..."""
    return [f"cpu{i + 1}" for i in range(n)]


def rate_note(*, logged: bool, cpu_rate: float) -> str:
    """What the games/s figure of :func:`simulate` measures (and the same per CPU second)."""
    log = "log writing included" if logged else "no log"
    return (f"wall-clock rate of the game loop, {log}, start-up not counted; "
            f"{cpu_rate:.0f} games per CPU second of the same loop")


def simulate(
    *,
    game: str,
    players: int,
    games: int,
    seed: int,
    ai: Sequence[str],
    expansions: Sequence[str] = (),
    log_path: Path | None = None,
    out: TextIO,
) -> dict[str, Any]:
    """Play ``games`` games (game i uses seed ``seed + i``); write the log; print a summary."""
    kind = kind_of(game)
    options = {"expansions": list(expansions)} if game == "royale" else {}
    names = player_names(game, players)
    wins = dict.fromkeys(ai, 0.0)
    seats = dict.fromkeys(ai, 0)
    points = dict.fromkeys(ai, 0)
    seat_ai = [ai[i % len(ai)] for i in range(players)]
    for name in seat_ai:
        seats[name] += 1
    score_sum = score_count = 0
    single = seat_ai[0] if len(set(seat_ai)) == 1 else None  # one computer player everywhere
    best = -(10**9)
    shared = 0
    events_written = 0
    fast: Any = None
    fast_games: Any = None
    path_note = ""
    if game == "royale" and set(ai) == {"random"}:
        from bot.sim.fastpath import best as best_fast_path

        games_class, note = best_fast_path()
        path_note = f"; {note}"
        kind.engine.new_game(names, seed, options)  # checks the set-up (player count, options)
        fast_games = games_class(names, expansions)
        fast = fast_games.play
    timings: dict[str, list[float]] = {}
    buffer, _ = log_buffer()
    sink = open_log(log_path, buffer) if log_path else None
    logging = sink is not None
    # The fast path allocates no reference cycles: the cyclic collector would only cost time.
    collecting = gc.isenabled() and fast is not None
    if collecting:
        gc.disable()
    started = time.perf_counter()
    cpu_started = time.process_time()
    try:
        for g in range(seed, seed + games):
            game_id = f"{game}-{g}" if logging else None
            if fast is not None:
                totals, winners = fast(g, ai_seeds(g, players), game_id, buffer)
            else:
                played = play_game(kind, names, g, ai, options, keep_events=logging,
                                   timings=timings)
                totals, winners = played.totals, played.winners
                if game_id is not None:
                    lines = list(log_lines(game_id, played.events))
                    buffer.write("".join(lines).encode())
                    events_written += len(lines)
            total = sum(totals)
            score_sum += total
            score_count += len(totals)
            best = max(best, *totals)
            if len(winners) > 1:
                shared += 1
            if single is not None:
                points[single] += total
                wins[single] += 1
            else:
                for i, t in enumerate(totals):
                    points[seat_ai[i]] += t
                for w in winners:
                    wins[seat_ai[w]] += 1 / len(winners)
            if sink is not None and len(buffer) >= sink.take_at:
                sink.drain(buffer)
        if sink is not None:
            sink.finish(buffer)
        if fast is not None:
            events_written += fast_games.lines
    finally:
        if collecting:
            gc.enable()
        if sink is not None:
            sink.close()
    elapsed = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    share = ", ".join(
        f"{name} {100 * wins[name] / games:.1f}% of wins, "
        f"mean {points[name] / (seats[name] * games):.1f} ({seats[name]} seat(s))"
        for name in wins
    ) if games else "no games"
    opts = ",".join(expansions) or "none"
    mean = score_sum / score_count if score_count else 0.0
    log_note = (f"; log {log_path} ({events_written} events, {sink.how})"
                if log_path and sink is not None else "")
    rate = games / elapsed if elapsed > 0 else 0
    cpu_rate = games / cpu if cpu > 0 else 0
    decisions = {name: decision_times(timings[name]) for name in wins if name in timings}
    timing = ", ".join(
        f"{name} mean {d['mean_ms']:.2f} ms p99 {d['p99_ms']:.1f} ms"
        for name, d in decisions.items()
    )
    out.write(
        f"{game}: {games} games, {players} players, options {opts}, seed {seed}: "
        f"mean score {mean:.1f}, best {best if score_count else 0}, shared wins {shared}; {share}; "
        f"{rate:.0f} games/s ({rate_note(logged=logging, cpu_rate=cpu_rate)}{path_note}){log_note}"
        f"{'; decision time ' + timing if timing else ''}\n"
    )
    return {"wins": wins, "mean": mean, "shared": shared, "games": games, "elapsed": elapsed,
            "decisions": decisions}


def decision_times(seconds: list[float]) -> dict[str, float]:
    """The count, mean and 99th percentile (nearest rank) of decision times, in milliseconds."""
    if not seconds:
        return {"count": 0, "mean_ms": 0.0, "p99_ms": 0.0}
    ordered = sorted(seconds)
    rank = max(0, math.ceil(0.99 * len(ordered)) - 1)
    return {"count": len(ordered), "mean_ms": 1000 * sum(ordered) / len(ordered),
            "p99_ms": 1000 * ordered[rank]}
