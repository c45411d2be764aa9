"""``python -m tools.reviewbench``: the CPU time a game review takes, seat by seat.

Plays ``--games`` seeded games (seeds ``--seed`` on) of ``--players`` Normal computer players
with the options of ``--expansions``, then reviews every seat of each as ``/royale review``
does (:func:`bot.rules.review.review_seat`, every decision counted as the seat's own), and
prints the CPU seconds of the mean seat and of the costliest one, and which rules ran.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence
from typing import Any

import bot.rules
from bot.rules.registry import kind_of
from bot.rules.review import review_seat
from bot.sim.runner import ai_seed


def seat_seconds(game: str, players: int, expansions: Sequence[str], seed: int) -> list[float]:
    """Play game ``seed`` and review each of its seats: the CPU seconds of each review."""
    kind = kind_of(game)
    assert kind.reviewer is not None
    rules: dict[str, Any] = {"expansions": list(expansions)} if game == "royale" else {}
    names = [f"p{i}" for i in range(players)]
    state, _ = kind.engine.new_game(names, seed, rules)
    bots = [kind.make_player("normal", ai_seed(seed, i)) for i in range(players)]
    actions = []
    while (seat := kind.engine.current_seat(state)) is not None:
        action = bots[seat].choose(state)
        actions.append((action.to_json(), True))
        kind.engine.apply_in_place(state, action, False)
    seconds = []
    for seat in range(players):
        started = time.process_time()
        review_seat(kind.engine, kind.reviewer, names, seed, rules, actions, seat)
        seconds.append(time.process_time() - started)
    return seconds


def main(argv: Sequence[str] | None = None) -> int:
    """Review the games' seats; print one line."""
    parser = argparse.ArgumentParser(prog="python -m tools.reviewbench")
    parser.add_argument("--game", choices=("royale", "posing"), default="royale")
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--expansions", default="", help="any of mischief,cannon,mercenary")
    args = parser.parse_args(argv)
    expansions = [x for x in args.expansions.split(",") if x]
    seconds = [s for g in range(args.games)
               for s in seat_seconds(args.game, args.players, expansions, args.seed + g)]
    rules = "compiled" if bot.rules.compiled() else "pure Python"
    print(f"{args.game}, {args.players} players, options {','.join(expansions) or 'none'}, "
          f"{args.games} games from seed {args.seed}, {rules} rules: a seat's review takes "
          f"{statistics.mean(seconds):.2f} s of CPU on average, {max(seconds):.2f} s at most")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
