"""Seeded games played by computer players: realistic inputs for the pictures."""

from __future__ import annotations

from collections.abc import Sequence

from bot.rules.posing import engine as posing_engine
from bot.rules.posing.state import PosingState
from bot.rules.registry import POSING, ROYALE
from bot.rules.royale import engine as royale_engine
from bot.rules.royale.state import Phase, RoyaleState

ALL_EXPANSIONS = ("mischief", "cannon", "mercenary")


def names(n: int) -> list[str]:
    """Player names of different lengths, one of them with accents and an emoji."""
    base = ["Ada", "Bartholomew Longname", "Chloé 🐼", "Dev", "Eun-ji", "Farouk",
            "Gwen", "Hiroshi", "Ines", "Jo"]
    return base[:n]


def royale_game(
    n: int, seed: int, expansions: Sequence[str] = ALL_EXPANSIONS, until_round: int = 11,
    phase: Phase | None = None,
) -> RoyaleState:
    """A seeded game of ``n`` random players, played until ``until_round`` begins (and, with
    ``phase``, until that phase of it) or until the end."""
    state, _ = royale_engine.new_game([f"p{i}" for i in range(n)], seed, expansions)
    players = [ROYALE.make_player("random", seed * 100 + i) for i in range(n)]
    while state.phase is not Phase.OVER:
        if state.round >= until_round and (phase is None or state.phase is phase):
            break
        seat = royale_engine.current_seat(state)
        assert seat is not None
        royale_engine.apply_in_place(state, players[seat].choose(state))
    return state


def posing_game(n: int, seed: int, turns: int | None = None) -> PosingState:
    """A seeded game of Posing Pandas between heuristic players, ``turns`` decisions long
    (to the end when None)."""
    state, _ = posing_engine.new_game([f"p{i}" for i in range(n)], seed)
    players = [POSING.make_player("heuristic", seed * 100 + i) for i in range(n)]
    done = 0
    while not state.is_over and (turns is None or done < turns):
        seat = posing_engine.current_seat(state)
        assert seat is not None
        posing_engine.apply_in_place(state, players[seat].choose(state))
        done += 1
    return state
