"""What a game's last action carries when it ends the game: scores, winners, rating update."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

Rating = tuple[float, float]
"""``(mu, sigma)``."""

RateFn = Callable[[dict[str, Rating | None]], Mapping[str, Rating]]
"""Gets the current rating of every player of the game (``None`` if unrated), returns the new
ratings of the players to rate (a subset of the game's players, e.g. leaving computer players
out). Called inside the finishing transaction: keep it quick and free of I/O."""

AwardFn = Callable[[Sequence[Mapping[str, Any]], Mapping[str, Sequence[int]]],
                   Mapping[str, Collection[str]]]
"""``award(events, season_times)``: gets the game's whole event log (its last action's events
included) and, for each player with a result, when each of their results in the server's
current season finished (this game's included; nothing without a season); returns the
achievement ids each player earned (players with a result only). Called inside the finishing
transaction, after the results: quick and free of I/O."""


@dataclass(frozen=True, slots=True)
class Finish:
    """The end of a game, committed together with its last action.

    ``scores`` maps every player id of the game to its final total, ranked by :func:`ranks`.
    ``winners`` defaults to every player of rank 1 (ties share the win); pass it to override.
    ``rate``, when given, updates the server's ratings in the same transaction. ``unrated``
    players (a seat a computer played for a person who left) get no result, no totals and no
    rating; they still take their place among the others' ranks. ``award``, when given, keeps
    what the players earned (:data:`AwardFn`) in the same transaction. ``season`` is the
    server's current season (``(start_ms, end_ms)``) whose results ``award`` is told about.
    """

    scores: Mapping[str, int]
    winners: Collection[str] | None = None
    rate: RateFn | None = None
    unrated: Collection[str] = ()
    award: AwardFn | None = None
    season: tuple[int, int] | None = None


def ranks(scores: Mapping[str, int]) -> dict[str, int]:
    """Competition ranking of ``scores``: 1 + the number of players with a higher score (ties
    share a rank, the next one skips: 1, 1, 3).
    """
    ordered = sorted(scores.values(), reverse=True)
    first_at: dict[int, int] = {}
    for index, score in enumerate(ordered):
        first_at.setdefault(score, index + 1)
    return {player: first_at[score] for player, score in scores.items()}
