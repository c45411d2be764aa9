"""``python -m tools.expertbench``: the expert against three heuristic players.

Game ``g`` (seeds ``seed`` .. ``seed + games - 1``) seats the expert at seat ``g % 4`` (the
seat rotates), the heuristic elsewhere; every computer player is seeded as ``simulate`` seeds
it. Prints the expert's win share, its mean points and its decision times (wall clock).
Expert settings are given as ``name=value`` (the :class:`ExpertPlayer` keywords).
"""

from __future__ import annotations

import argparse
import math
import sys
import time

from bot.rules.royale.ai import HeuristicPlayer
from bot.rules.royale.engine import ENGINE, apply_in_place, current_seat, new_game
from bot.rules.royale.expert import ExpertPlayer
from bot.sim.runner import ai_seed


def main(argv: list[str] | None = None) -> int:
    """Play the games, print one line."""
    parser = argparse.ArgumentParser(prog="python -m tools.expertbench")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--fixed-seat", action="store_true", help="the expert always at seat 0")
    parser.add_argument("--expansions", default="", help="any of mischief,cannon,mercenary")
    parser.add_argument("settings", nargs="*", help="ExpertPlayer keywords: name=value")
    args = parser.parse_args(argv)
    kw: dict[str, object] = {}
    for item in args.settings:
        name, _, value = item.partition("=")
        kw[name] = float(value) if "." in value else int(value)
    n = args.players
    expansions = tuple(x for x in args.expansions.split(",") if x)
    share = 0.0
    points = 0
    times: list[float] = []
    clock = time.perf_counter
    started = clock()
    for g in range(args.seed, args.seed + args.games):
        me = 0 if args.fixed_seat else g % n
        s, _ = new_game([f"cpu{i + 1}" for i in range(n)], g, expansions, keep_events=False)
        bots: list[ExpertPlayer | HeuristicPlayer] = [
            ExpertPlayer(ai_seed(g, i), **kw) if i == me else HeuristicPlayer(ai_seed(g, i))  # type: ignore[arg-type]
            for i in range(n)]
        while (seat := current_seat(s)) is not None:
            if seat == me:
                t0 = clock()
                a = bots[seat].choose(s)
                times.append(clock() - t0)
            else:
                a = bots[seat].choose(s)
            apply_in_place(s, a)
        winners = ENGINE.winners(s)
        if me in winners:
            share += 1 / len(winners)
        points += ENGINE.totals(s)[me]
    games = args.games
    times.sort()
    p99 = times[max(0, math.ceil(0.99 * len(times)) - 1)] if times else 0.0
    mean = sum(times) / len(times) if times else 0.0
    se = math.sqrt(share / games * (1 - share / games) / games)
    sys.stdout.write(
        f"expert {' '.join(args.settings) or '(defaults)'}: {games} games from seed {args.seed}"
        f" ({args.expansions or 'base game'})"
        f" ({'seat 0' if args.fixed_seat else 'rotating seat'}): "
        f"{100 * share / games:.1f}% of wins (+-{100 * se:.1f}), mean {points / games:.1f}; "
        f"decisions {len(times)}, mean {1000 * mean:.2f} ms, p99 {1000 * p99:.1f} ms; "
        f"{clock() - started:.0f} s\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
