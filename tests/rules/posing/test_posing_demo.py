"""The terminal demo: a whole game turn by turn, then the score card."""

from __future__ import annotations

import io
import re

import pytest

from bot.rules.errors import InvalidSetup
from bot.rules.posing.poses import BOX_NAMES
from bot.sim.demo_posing import run_posing_demo


def _demo(players: int, seed: int, ai: str) -> str:
    out = io.StringIO()
    run_posing_demo(players=players, seed=seed, ai=ai, out=out)
    return out.getvalue()


@pytest.mark.parametrize(("players", "ai"), [(1, "heuristic"), (3, "random"), (10, "heuristic")])
def test_demo_prints_every_turn_and_the_card(players: int, ai: str) -> None:
    text = _demo(players, 5, ai)
    turns = re.findall(
        r"^\w+ \(seat (\d+)\) turn (\d+): rolled \[.*\] -> filled (.+) for (\d+)$",
        text,
        flags=re.MULTILINE,
    )
    assert len(turns) == players * 11
    assert [int(seat) for seat, *_ in turns[:players]] == list(range(1, players + 1))
    card = text.split("Final score card\n")[1]
    for name in BOX_NAMES.values():
        assert re.search(rf"^{re.escape(name)} +\|", card, flags=re.MULTILINE), name
    assert re.search(r"^Total +\|", card, flags=re.MULTILINE)
    assert "Winner" in card
    assert text == _demo(players, 5, ai)


def test_demo_names_the_first_player_bamboo() -> None:
    assert "Bamboo (seat 1) turn 1: rolled [" in _demo(2, 1, "heuristic")


def test_demo_refuses_bad_player_counts() -> None:
    for players in (0, 11):
        with pytest.raises(InvalidSetup):
            _demo(players, 1, "random")
