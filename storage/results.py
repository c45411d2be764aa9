"""SQL for results and ratings: written once, when a game finishes.

:func:`record_finish` runs inside the transaction that commits the game's last action, so the
results, the rating read-modify-write and the action land together or not at all.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from .achievements import record_achievements
from .connection import Conn, Row, execute, execute_many, fetch_all, serialize
from .errors import InvalidData
from .finish import Finish, Rating, ranks
from .rows import GameRow, PlayerRow, RatingRow, ResultRow

RESULT_COLUMNS = (
    "game_id, guild_id, kind, player_id, display_name, is_bot, seat, score, rank, won, finished_ms"
)
_RATING_COLUMNS = "guild_id, kind, player_id, display_name, mu, sigma, games, updated_ms"


def _check_scores(game: GameRow, finish: Finish) -> set[str]:
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


def _check_ratings(game: GameRow, players: set[str], new: dict[str, Rating]) -> None:
    unknown = set(new) - players
    if unknown:
        raise InvalidData(f"game {game.id}: rate() returned non-players {sorted(unknown)}")
    for player, (mu, sigma) in new.items():
        if not (math.isfinite(mu) and math.isfinite(sigma) and sigma >= 0):
            raise InvalidData(f"game {game.id}: bad rating for {player}: {(mu, sigma)}")


async def record_finish(
    conn: Conn, game: GameRow, finish: Finish, now_ms: int
) -> None:
    """Insert the game's results, apply ``finish.rate`` to the server's ratings and keep what
    ``finish.award`` says the players earned (:mod:`storage.achievements`).
    """
    players = _check_scores(game, finish) - set(finish.unrated)
    place = ranks(finish.scores)
    winners = (
        set(finish.winners)
        if finish.winners is not None
        else {p for p, rank in place.items() if rank == 1}
    )
    seats = [p for p in game.players if p.player_id in players]
    await execute_many(
        conn,
        f"INSERT INTO results ({RESULT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                game.id,
                game.guild_id,
                game.kind,
                p.player_id,
                p.display_name,
                int(p.is_bot),
                p.seat,
                finish.scores[p.player_id],
                place[p.player_id],
                int(p.player_id in winners),
                now_ms,
            )
            for p in seats
        ],
    )
    await add_to_totals(
        conn,
        [
            (
                game.guild_id,
                game.kind,
                p.player_id,
                int(p.is_bot),
                int(p.player_id in winners),
                finish.scores[p.player_id],
            )
            for p in seats
        ],
    )
    if finish.rate is not None:
        await _rate(conn, game, finish, players, seats, now_ms)
    await record_achievements(conn, game, finish, now_ms, seats)


async def _rate(conn: Conn, game: GameRow, finish: Finish, players: set[str],
                seats: list[PlayerRow], now_ms: int) -> None:
    assert finish.rate is not None
    # Finishes in one server take turns for the ratings' read-modify-write.
    await serialize(conn, f"ratings:{game.guild_id}:{game.kind}")
    rated = [p.player_id for p in seats]
    found = await select_ratings(conn, game.guild_id, game.kind, rated)
    current: dict[str, Rating | None] = {player: None for player in rated}
    for player, rating in found.items():
        current[player] = (rating.mu, rating.sigma)
    new = {
        player: (float(mu), float(sigma)) for player, (mu, sigma) in finish.rate(current).items()
    }
    _check_ratings(game, players, new)
    names = {p.player_id: p.display_name for p in game.players}
    await execute_many(
        conn,
        f"INSERT INTO ratings ({_RATING_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, 1, ?)"
        " ON CONFLICT (guild_id, kind, player_id) DO UPDATE SET"
        " display_name = excluded.display_name, mu = excluded.mu, sigma = excluded.sigma,"
        " games = ratings.games + 1, updated_ms = excluded.updated_ms",
        [
            (game.guild_id, game.kind, player, names[player], mu, sigma, now_ms)
            for player, (mu, sigma) in new.items()
        ],
    )


_TOTALS_COLUMNS = "guild_id, kind, player_id, is_bot, games, wins, best_score, total_score"


async def add_to_totals(conn: Conn, rows: list[tuple[int, str, str, int, int, int]]) -> None:
    """Add one finished game per ``(guild_id, kind, player_id, is_bot, won, score)`` row to
    ``player_totals`` (in player order, so concurrent PostgreSQL finishes lock rows in the
    same order and never deadlock).
    """
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
        [(g, k, p, b, w, s, s) for g, k, p, b, w, s in sorted(rows)],
    )


async def rebuild_totals(conn: Conn) -> None:
    """Recompute ``player_totals`` from ``results`` (after copying results in bulk)."""
    await execute(conn, "DELETE FROM player_totals")
    await execute(
        conn,
        f"INSERT INTO player_totals ({_TOTALS_COLUMNS})"
        " SELECT guild_id, kind, player_id, MAX(is_bot), COUNT(*), SUM(won), MAX(score),"
        " SUM(score) FROM results GROUP BY guild_id, kind, player_id",
    )


def rating_row(row: Row) -> RatingRow:
    """A ``ratings`` row as a :class:`RatingRow`."""
    return RatingRow(
        guild_id=row["guild_id"],
        kind=row["kind"],
        player_id=row["player_id"],
        display_name=row["display_name"],
        mu=row["mu"],
        sigma=row["sigma"],
        games=row["games"],
        updated_ms=row["updated_ms"],
    )


async def select_ratings(
    conn: Conn, guild_id: int, kind: str, player_ids: Sequence[str]
) -> dict[str, RatingRow]:
    """The current ratings of ``player_ids`` (unrated players are absent)."""
    found: dict[str, RatingRow] = {}
    ids = list(dict.fromkeys(player_ids))
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        marks = ", ".join("?" * len(chunk))
        for row in await fetch_all(
            conn,
            f"SELECT {_RATING_COLUMNS} FROM ratings"
            f" WHERE guild_id = ? AND kind = ? AND player_id IN ({marks})",
            (guild_id, kind, *chunk),
        ):
            found[row["player_id"]] = rating_row(row)
    return found


async def select_results(conn: Conn, game_id: int) -> list[ResultRow]:
    """A finished game's results, best rank first (then seat)."""
    rows = await fetch_all(
        conn,
        f"SELECT {RESULT_COLUMNS} FROM results WHERE game_id = ? ORDER BY rank, seat",
        (game_id,),
    )
    return [result_row(row) for row in rows]


def result_row(row: Row) -> ResultRow:
    """A ``results`` row (every column of :data:`RESULT_COLUMNS`) as a :class:`ResultRow`."""
    return ResultRow(
        game_id=row["game_id"],
        guild_id=row["guild_id"],
        kind=row["kind"],
        player_id=row["player_id"],
        display_name=row["display_name"],
        is_bot=bool(row["is_bot"]),
        seat=row["seat"],
        score=row["score"],
        rank=row["rank"],
        won=bool(row["won"]),
        finished_ms=row["finished_ms"],
    )
