"""SQL for server leaderboards and player statistics, computed from ``results``.

All time reads ``player_totals`` (one row per player and kind, kept in step with ``results`` by
the finishing transaction); a period sums ``results`` through the ``results_leaderboard`` index.
Two orders:

* all time (``since_ms is None``): by conservative rating ``mu - 3 * sigma``, highest first,
  unrated players after rated ones; then wins, average score, games.
* a period (``since_ms`` given, and ``until_ms`` when it has an end: a season gone by):
  ratings cannot be split by time, so by wins in the period, then average score in the
  period, then games.

Ties end on ``player_id`` so pages never overlap. Ratings are always the current ones.
"""

from __future__ import annotations

from .connection import Conn, Row, fetch_all, fetch_value
from .rows import LeaderRow, StatsRow

_AVERAGE = "(1.0 * total_score / games)"
_BY_RATING = (
    "CASE WHEN mu IS NULL THEN 1 ELSE 0 END, (mu - 3 * sigma) DESC,"
    f" wins DESC, {_AVERAGE} DESC, games DESC, player_id"
)
_BY_WINS = f"wins DESC, {_AVERAGE} DESC, games DESC, player_id"

# All time: one row per player from player_totals (kept by results.record_finish).
# Parameters: guild_id, kind, max is_bot (0 leaves computer players out).
_TOTALS = """
    SELECT player_id, games, wins, best_score, total_score, is_bot
    FROM player_totals
    WHERE guild_id = ? AND kind = ? AND is_bot <= ?
"""

# A period: summed from results through the results_leaderboard index (the period's results
# are read first: grouped directly, SQLite would rather walk an index in player order over
# every result of the server to skip the GROUP BY sort).
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
SELECT page.*,
       (SELECT last.display_name FROM results AS last
        WHERE last.guild_id = ? AND last.player_id = page.player_id
        ORDER BY last.finished_ms DESC, last.game_id DESC LIMIT 1) AS display_name
FROM page
ORDER BY {order}
"""
_LEADERBOARD_BY_RATING = _LEADERBOARD.format(agg=_TOTALS, order=_BY_RATING)
_LEADERBOARD_BY_WINS = _LEADERBOARD.format(agg=_PERIOD, order=_BY_WINS)

_COUNT_ALL_TIME = (
    "SELECT COUNT(*) FROM player_totals WHERE guild_id = ? AND kind = ? AND is_bot <= ?"
)
_COUNT_PERIOD = f"SELECT COUNT(DISTINCT player_id) FROM results WHERE {_PERIOD_FILTER}"

_STATS = """
SELECT agg.kind, agg.games, agg.wins, agg.best_score, agg.total_score,
       ratings.mu, ratings.sigma, ratings.games AS rated_games,
       (SELECT last.display_name FROM results AS last
        WHERE last.guild_id = ? AND last.player_id = ?
        ORDER BY last.finished_ms DESC, last.game_id DESC LIMIT 1) AS display_name
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


async def select_leaderboard(
    conn: Conn,
    guild_id: int,
    kind: str,
    *,
    since_ms: int | None,
    until_ms: int | None = None,
    include_bots: bool,
    limit: int,
    offset: int,
) -> list[LeaderRow]:
    """One page of the leaderboard (see the module docstring for the order)."""
    sql = _LEADERBOARD_BY_RATING if since_ms is None else _LEADERBOARD_BY_WINS
    rows = await fetch_all(
        conn,
        sql,
        (
            *_filter_params(guild_id, kind, since_ms, until_ms, include_bots),
            guild_id,
            kind,
            limit,
            offset,
            guild_id,
        ),
    )
    return [_leader(offset + index + 1, row) for index, row in enumerate(rows)]


def _leader(position: int, row: Row) -> LeaderRow:
    return LeaderRow(
        position=position,
        player_id=row["player_id"],
        display_name=row["display_name"],
        is_bot=bool(row["is_bot"]),
        games=row["games"],
        wins=row["wins"],
        best_score=row["best_score"],
        total_score=row["total_score"],
        mu=row["mu"],
        sigma=row["sigma"],
    )


async def count_leaderboard(
    conn: Conn,
    guild_id: int,
    kind: str,
    *,
    since_ms: int | None,
    until_ms: int | None = None,
    include_bots: bool,
) -> int:
    """How many players the leaderboard has (for paging)."""
    sql = _COUNT_ALL_TIME if since_ms is None else _COUNT_PERIOD
    return int(await fetch_value(
        conn, sql, _filter_params(guild_id, kind, since_ms, until_ms, include_bots)))


async def select_stats(
    conn: Conn, guild_id: int, player_id: str, kind: str | None
) -> list[StatsRow]:
    """A player's figures per game kind (one kind if ``kind`` is given), by kind name."""
    rows = await fetch_all(
        conn, _STATS, (guild_id, player_id, guild_id, player_id, guild_id, player_id)
    )
    return [
        StatsRow(
            kind=row["kind"],
            player_id=player_id,
            display_name=row["display_name"],
            games=row["games"],
            wins=row["wins"],
            best_score=row["best_score"],
            total_score=row["total_score"],
            mu=row["mu"],
            sigma=row["sigma"],
            rated_games=row["rated_games"] or 0,
        )
        for row in rows
        if kind is None or row["kind"] == kind
    ]
