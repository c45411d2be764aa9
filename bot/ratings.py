"""Skill ratings after every finished game: openskill's Plackett-Luce model."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from openskill.models import PlackettLuce

_MODEL = PlackettLuce()

Rating = tuple[float, float]


def default_rating() -> Rating:
    """A new player's (mu, sigma)."""
    r = _MODEL.rating()
    return (float(r.mu), float(r.sigma))


def rate_game(current: Mapping[str, Rating | None], scores: Mapping[str, int]) -> dict[str, Rating]:
    """New ratings of every player of one game, from their scores (higher is better; ties
    share a place). ``current`` holds each player's rating, or None when unrated. Solo games
    rate nobody.
    """
    players = list(scores)
    if len(players) < 2:
        return {}  # a solo game has nobody to be compared with: nobody is rated
    teams = []
    for p in players:
        mu, sigma = current.get(p) or default_rating()
        teams.append([_MODEL.rating(mu=mu, sigma=sigma, name=p)])
    # Plackett-Luce ranks: lower is better, equal ranks are ties.
    ranks = [float(-scores[p]) for p in players]
    rated = _MODEL.rate(teams, ranks=ranks)
    return {p: (float(t[0].mu), float(t[0].sigma)) for p, t in zip(players, rated, strict=True)}


RATING_START: Final = 1000
"""The rating a new player is shown."""
RATING_SCALE: Final = 40
"""Shown rating points per point of the model's ordinal (mu - 3 sigma)."""


def shown_rating(ordinal: float) -> int:
    """The rating players see: a whole number that starts at :data:`RATING_START` for a new
    player (the model's ordinal 0) and is never negative.
    """
    return max(0, round(RATING_START + RATING_SCALE * ordinal))
