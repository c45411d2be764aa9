"""python -m tools.reviewbench: every seat of every game reviewed, the line says what ran."""

from __future__ import annotations

import pytest

from tools import reviewbench


def test_every_seat_is_reviewed_and_timed() -> None:
    seconds = reviewbench.seat_seconds("posing", 3, [], 5)
    assert len(seconds) == 3 and all(s >= 0 for s in seconds)


def test_the_line_names_the_game_the_options_and_the_rules(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert reviewbench.main(["--game", "posing", "--games", "2", "--players", "2"]) == 0
    line = capsys.readouterr().out
    assert line.startswith("posing, 2 players, options none, 2 games from seed 1, "
                           "pure Python rules: a seat's review takes ")
    assert " s of CPU on average, " in line and line.rstrip().endswith(" s at most")
