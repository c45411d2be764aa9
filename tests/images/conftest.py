"""Seeded engine states shared by the picture tests (played once per test session)."""

from __future__ import annotations

import pytest

from bot.rules.posing.state import PosingState
from bot.rules.royale.engine import apply_in_place, legal_actions
from bot.rules.royale.state import Phase, RoyaleState

from .games import posing_game, royale_game


@pytest.fixture(scope="session")
def finished_royale() -> dict[int, RoyaleState]:
    """Finished games with every Mayhem option for 2, 4 and 10 players."""
    return {n: royale_game(n, seed=7) for n in (2, 4, 10)}


@pytest.fixture(scope="session")
def late_royale() -> dict[int, RoyaleState]:
    """Games with every Mayhem option at the start of round 10 (the largest hands) for 2, 5
    and 10 players."""
    return {n: royale_game(n, seed=13, until_round=10) for n in (2, 5, 10)}


@pytest.fixture(scope="session")
def drafting_royale() -> RoyaleState:
    """A 4-player game in the draft of round 4, after at least one pick."""
    state = royale_game(4, seed=11, until_round=4, phase=Phase.DRAFT)
    assert state.phase is Phase.DRAFT and state.round == 4
    apply_in_place(state, legal_actions(state)[0])
    assert state.phase is Phase.DRAFT and state.round == 4
    return state


@pytest.fixture(scope="session")
def finished_posing() -> dict[int, PosingState]:
    """Finished games of Posing Pandas for 1, 4 and 10 players."""
    return {n: posing_game(n, seed=5) for n in (1, 4, 10)}
