"""Ratings: openskill Plackett-Luce from the final scores."""

from __future__ import annotations

from bot.ratings import default_rating, rate_game


def test_winner_goes_up_loser_goes_down() -> None:
    new = rate_game({"a": None, "b": None}, {"a": 300, "b": 200})
    mu0, sigma0 = default_rating()
    assert new["a"][0] > mu0 > new["b"][0]
    assert new["a"][1] < sigma0 and new["b"][1] < sigma0


def test_ties_are_rated_equally() -> None:
    new = rate_game({"a": None, "b": None, "c": None}, {"a": 10, "b": 10, "c": 3})
    assert abs(new["a"][0] - new["b"][0]) < 1e-9
    assert new["c"][0] < new["a"][0]


def test_upset_moves_more_than_expected_result() -> None:
    strong, weak = (35.0, 3.0), (15.0, 3.0)
    expected = rate_game({"s": strong, "w": weak}, {"s": 2, "w": 1})
    upset = rate_game({"s": strong, "w": weak}, {"s": 1, "w": 2})
    assert upset["w"][0] - weak[0] > expected["s"][0] - strong[0] > 0


def test_solo_games_rate_nobody() -> None:
    assert rate_game({"a": None}, {"a": 30}) == {}
