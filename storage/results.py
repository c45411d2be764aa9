"""``db.results``: what finished games leave, results, totals and ratings, and the leaderboards
and figures read from them (:class:`ResultRecords`).

A game's end is one transaction: :func:`record_finish` runs inside the one that commits the
game's last action (:meth:`storage.games.GameRecords.commit_action` with a :class:`Finish`), so
the results, the totals, the ratings' read-modify-write, the achievements and the action land
together or not at all.

Leaderboards (their orders: storage/README.md, "Leaderboards"): all time (``since_ms is
None``) read from ``player_totals``; a period (``since_ms``, and ``until_ms`` when it has an
end: a season gone by) summed from ``results`` through the ``results_leaderboard`` index.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from .achievements import record_achievements
from .connection import (
    Conn,
    Row,
    execute,
    execute_many,
    fetch_all,
    fetch_value,
    in_chunks,
    serialize,
)
from .errors import InvalidData
from .finish import Finish, RateFn, Rating, ranks
from .rows import Game, GameResult, LeaderEntry, PlayerStats, RatingRow, Seat, from_row
from .runner import C, Records

RESULT_COLUMNS = (
    "game_id, guild_id, kind, player_id, display_name, is_bot, seat, score, rank, won, finished_ms"
)
RATING_COLUMNS = "guild_id, kind, player_id, display_name, mu, sigma, games, updated_ms"
_TOTALS_COLUMNS = "guild_id, kind, player_id, is_bot, games, wins, best_score, total_score"


def result_row(row: Row) -> GameResult:
    """A ``results`` row (every column of :data:`RESULT_COLUMNS`) as a :class:`GameResult`."""
    return from_row(GameResult, row, is_bot=bool(row["is_bot"]), won=bool(row["won"]))


# -- the finish ------------------------------------------------------------------------------


def _check_scores(game: Game, finish: Finish) -> set[str]:
    players = set(game.player_ids)
    if set(finish.scores) != players:
        raise InvalidData(
            f"game {game.id}: scores are for {sorted(finish.scores)}, players are {sorted(players)}"
        )
    for player, score in finish.scores.items():
        if not isinstance(score, int) or isinstance(score, bool):
            raise InvalidData(f"game {game.id}: score of {player} is not an int: {score!r}")
    if finish.winners is not None and not set(finish.winners) <= players:
        raise InvalidData(f"game {game.id}: winners {sorted(finish.winners)} are not all players")
    return players


async def record_finish(conn: Conn, game: Game, finish: Finish, now_ms: int,
                        events: Sequence[Mapping[str, Any]]) -> None:
    """Insert the game's results, add them to the players' totals, apply ``finish.rate`` to
    the server's ratings and keep what ``finish.award`` says the players earned from
    ``events``, the game's whole log (:mod:`storage.achievements`).
    """
    players = _check_scores(game, finish) - set(finish.unrated)
    place = ranks(finish.scores)
    winners = (set(finish.winners) if finish.winners is not None
               else {p for p, rank in place.items() if rank == 1})
    seats = [p for p in game.players if p.player_id in players]
    await execute_many(
        conn, f"INSERT INTO results ({RESULT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(game.id, game.guild_id, game.kind, p.player_id, p.display_name, int(p.is_bot),
          p.seat, finish.scores[p.player_id], place[p.player_id], int(p.player_id in winners),
          now_ms) for p in seats])
    # In player order: concurrent PostgreSQL finishes lock the rows in the same order.
    await execute_many(
        conn,
        f"INSERT INTO player_totals ({_TOTALS_COLUMNS}) VALUES (?, ?, ?, ?, 1, ?, ?, ?)"
        " ON CONFLICT (guild_id, kind, player_id) DO UPDATE SET"
        " is_bot = CASE WHEN excluded.is_bot > player_totals.is_bot"
        " THEN excluded.is_bot ELSE player_totals.is_bot END,"
        " games = player_totals.games + 1, wins = player_totals.wins + excluded.wins,"
        " best_score = CASE WHEN excluded.best_score > player_totals.best_score"
        " THEN excluded.best_score ELSE player_totals.best_score END,"
        " total_score = player_totals.total_score + excluded.total_score",
        sorted((game.guild_id, game.kind, p.player_id, int(p.is_bot),
                int(p.player_id in winners), finish.scores[p.player_id],
                finish.scores[p.player_id]) for p in seats))
    if finish.rate is not None:
        await _rate(conn, game, finish.rate, players, seats, now_ms)
    await record_achievements(conn, game, finish, now_ms, seats, events)


async def _rate(conn: Conn, game: Game, rate: RateFn, players: set[str],
                seats: list[Seat], now_ms: int) -> None:
    # Finishes in one server take turns for the ratings' read-modify-write.
    await serialize(conn, f"ratings:{game.guild_id}:{game.kind}")
    rated = [p.player_id for p in seats]
    found = await select_ratings(conn, game.guild_id, game.kind, rated)
    current: dict[str, Rating | None] = {player: None for player in rated}
    for player, rating in found.items():
        current[player] = (rating.mu, rating.sigma)
    new = {player: (float(mu), float(sigma)) for player, (mu, sigma) in rate(current).items()}
    unknown = set(new) - players
    if unknown:
        raise InvalidData(f"game {game.id}: rate() returned non-players {sorted(unknown)}")
    for player, (mu, sigma) in new.items():
        if not (math.isfinite(mu) and math.isfinite(sigma) and sigma >= 0):
            raise InvalidData(f"game {game.id}: bad rating for {player}: {(mu, sigma)}")
    names = {p.player_id: p.display_name for p in game.players}
    await execute_many(
        conn,
        f"INSERT INTO ratings ({RATING_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, 1, ?)"
        " ON CONFLICT (guild_id, kind, player_id) DO UPDATE SET"
        " display_name = excluded.display_name, mu = excluded.mu, sigma = excluded.sigma,"
        " games = ratings.games + 1, updated_ms = excluded.updated_ms",
        [(game.guild_id, game.kind, player, names[player], mu, sigma, now_ms)
         for player, (mu, sigma) in new.items()])


async def rebuild_totals(conn: Conn) -> None:
    """Recompute ``player_totals`` from ``results`` (after copying results in bulk)."""
    await execute(conn, "DELETE FROM player_totals")
    await execute(
        conn,
        f"INSERT INTO player_totals ({_TOTALS_COLUMNS})"
        " SELECT guild_id, kind, player_id, MAX(is_bot), COUNT(*), SUM(won), MAX(score),"
        " SUM(score) FROM results GROUP BY guild_id, kind, player_id",
    )


async def select_ratings(
    conn: Conn, guild_id: int, kind: str, player_ids: Sequence[str]
) -> dict[str, RatingRow]:
    """The current ratings of ``player_ids`` (unrated players are absent)."""
    found: dict[str, RatingRow] = {}
    for marks, chunk in in_chunks(player_ids):
        for row in await fetch_all(
            conn,
            f"SELECT {RATING_COLUMNS} FROM ratings"
            f" WHERE guild_id = ? AND kind = ? AND player_id IN ({marks})",
            (guild_id, kind, *chunk),
        ):
            found[row["player_id"]] = from_row(RatingRow, row)
    return found


# -- the leaderboards (see the module docstring) -----------------------------------------------

_AVERAGE = "(1.0 * total_score / games)"
_BY_RATING = (
    "CASE WHEN mu IS NULL THEN 1 ELSE 0 END, (mu - 3 * sigma) DESC,"
    f" wins DESC, {_AVERAGE} DESC, games DESC, player_id"
)
_BY_WINS = f"wins DESC, {_AVERAGE} DESC, games DESC, player_id"

# All time. Parameters: guild_id, kind, max is_bot (0 leaves computer players out).
_TOTALS = """
    SELECT player_id, games, wins, best_score, total_score, is_bot
    FROM player_totals
    WHERE guild_id = ? AND kind = ? AND is_bot <= ?
"""

# A period: the period's results are read first (grouped directly, SQLite would rather walk an
# index in player order over every result of the server to skip the GROUP BY sort).
# Parameters: guild_id, kind, since_ms, until_ms (excluded), max is_bot.
_PERIOD_FILTER = ("guild_id = ? AND kind = ? AND finished_ms >= ? AND finished_ms < ?"
                  " AND is_bot <= ?")
_NO_END = 2**62
"""``until_ms`` of a period that has not ended (any finish time is before it)."""
_PERIOD = f"""
    WITH recent AS MATERIALIZED (
        SELECT player_id, won, score, is_bot FROM results WHERE {_PERIOD_FILTER}
    )
    SELECT player_id, COUNT(*) AS games, SUM(won) AS wins, MAX(score) AS best_score,
           SUM(score) AS total_score, MAX(is_bot) AS is_bot
    FROM recent
    GROUP BY player_id
"""

_LAST_NAME = """(SELECT last.display_name FROM results AS last
        WHERE last.guild_id = ? AND last.player_id = {player}
        ORDER BY last.finished_ms DESC, last.game_id DESC LIMIT 1) AS display_name"""
"""A player's most recent name in the server."""

_LEADERBOARD = """
WITH agg AS ({agg}),
rated AS (
    SELECT agg.player_id, agg.games, agg.wins, agg.best_score, agg.total_score, agg.is_bot,
           ratings.mu, ratings.sigma
    FROM agg
    LEFT JOIN ratings
           ON ratings.guild_id = ? AND ratings.kind = ? AND ratings.player_id = agg.player_id
),
page AS (
    SELECT * FROM rated ORDER BY {order} LIMIT ? OFFSET ?
)
SELECT page.*, {name}
FROM page
ORDER BY {order}
"""
_LEADERBOARD_BY_RATING = _LEADERBOARD.format(
    agg=_TOTALS, order=_BY_RATING, name=_LAST_NAME.format(player="page.player_id"))
_LEADERBOARD_BY_WINS = _LEADERBOARD.format(
    agg=_PERIOD, order=_BY_WINS, name=_LAST_NAME.format(player="page.player_id"))

_COUNT_ALL_TIME = (
    "SELECT COUNT(*) FROM player_totals WHERE guild_id = ? AND kind = ? AND is_bot <= ?"
)
_COUNT_PERIOD = f"SELECT COUNT(DISTINCT player_id) FROM results WHERE {_PERIOD_FILTER}"

_STATS = f"""
SELECT agg.kind, agg.games, agg.wins, agg.best_score, agg.total_score,
       ratings.mu, ratings.sigma, ratings.games AS rated_games,
       {_LAST_NAME.format(player='?')}
FROM (
    SELECT kind, COUNT(*) AS games, SUM(won) AS wins, MAX(score) AS best_score,
           SUM(score) AS total_score
    FROM results
    WHERE guild_id = ? AND player_id = ?
    GROUP BY kind
) AS agg
LEFT JOIN ratings
       ON ratings.guild_id = ? AND ratings.kind = agg.kind AND ratings.player_id = ?
ORDER BY agg.kind
"""


def _filter_params(
    guild_id: int, kind: str, since_ms: int | None, until_ms: int | None, include_bots: bool
) -> tuple[int | str, ...]:
    if since_ms is None:
        return (guild_id, kind, int(include_bots))
    until = _NO_END if until_ms is None else until_ms
    return (guild_id, kind, since_ms, until, int(include_bots))


class ResultRecords(Records[C]):
    """Reading finished games' results, ratings, leaderboards and player figures."""

    async def of_game(self, game_id: int) -> list[GameResult]:
        """A finished game's results, best rank first (then seat); empty if it did not
        finish.
        """
        rows = await self._db.read(lambda conn: fetch_all(
            conn, f"SELECT {RESULT_COLUMNS} FROM results WHERE game_id = ? ORDER BY rank, seat",
            (game_id,)))
        return [result_row(row) for row in rows]

    async def ratings(
        self, guild_id: int, kind: str, player_ids: Sequence[str]
    ) -> dict[str, RatingRow]:
        """Current ratings of these players in this server (unrated players are absent)."""
        return await self._db.read(lambda conn: select_ratings(conn, guild_id, kind, player_ids))

    async def leaderboard(
        self,
        guild_id: int,
        kind: str,
        *,
        since_ms: int | None = None,
        until_ms: int | None = None,
        limit: int = 10,
        offset: int = 0,
        include_bots: bool = False,
    ) -> list[LeaderEntry]:
        """One page of the server's leaderboard for a game kind (results with
        ``since_ms <= finished_ms < until_ms`` for a period; see the module). Computer players
        are left out unless ``include_bots``.
        """
        if limit < 0 or offset < 0:
            raise InvalidData("limit and offset must not be negative")
        sql = _LEADERBOARD_BY_RATING if since_ms is None else _LEADERBOARD_BY_WINS
        params = (*_filter_params(guild_id, kind, since_ms, until_ms, include_bots),
                  guild_id, kind, limit, offset, guild_id)
        rows = await self._db.read(lambda conn: fetch_all(conn, sql, params))
        return [from_row(LeaderEntry, row, position=offset + index, is_bot=bool(row["is_bot"]))
                for index, row in enumerate(rows, start=1)]

    async def leaderboard_count(
        self, guild_id: int, kind: str, *, since_ms: int | None = None,
        until_ms: int | None = None, include_bots: bool = False
    ) -> int:
        """How many players :meth:`leaderboard` ranks with these filters (for paging)."""
        sql = _COUNT_ALL_TIME if since_ms is None else _COUNT_PERIOD
        params = _filter_params(guild_id, kind, since_ms, until_ms, include_bots)
        return int(await self._db.read(lambda conn: fetch_value(conn, sql, params)))

    async def player_stats(
        self, guild_id: int, player_id: str, kind: str | None = None
    ) -> list[PlayerStats]:
        """A player's figures in this server, one row per game kind played (by kind name; of
        ``kind`` only if given).
        """
        rows = await self._db.read(lambda conn: fetch_all(
            conn, _STATS, (guild_id, player_id, guild_id, player_id, guild_id, player_id)))
        return [from_row(PlayerStats, row, player_id=player_id, rated_games=row["rated_games"] or 0)
                for row in rows if kind is None or row["kind"] == kind]
