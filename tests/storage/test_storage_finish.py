"""Finishing a game: results and ratings in the same transaction as the last action."""

from __future__ import annotations

import pytest

from storage import (
    Finish,
    Game,
    GameStatus,
    InvalidData,
    NotActive,
    Rating,
    Seat,
    StaleVersion,
    Storage,
)
from storage.finish import ranks

from ..conftest import Backend
from .storage_helpers import T0, new_game, play, seats, started_game


@pytest.mark.parametrize(
    ("scores", "expected"),
    [
        ({"a": 10}, {"a": 1}),
        ({"a": 5, "b": 9, "c": 7}, {"b": 1, "c": 2, "a": 3}),
        ({"a": 9, "b": 9, "c": 3}, {"a": 1, "b": 1, "c": 3}),
        ({"a": -2, "b": 4, "c": 4, "d": -2, "e": 0}, {"b": 1, "c": 1, "e": 3, "a": 4, "d": 4}),
        ({}, {}),
    ],
)
def test_ranks_share_ties_and_skip(scores: dict[str, int], expected: dict[str, int]) -> None:
    assert ranks(scores) == expected


def plus_one(current: dict[str, Rating | None]) -> dict[str, Rating]:
    """Everyone's mu goes up by one from 25 (unrated) and sigma shrinks a little."""
    return {
        player: ((old or (25.0, 8.0))[0] + 1.0, (old or (25.0, 8.0))[1] - 0.5)
        for player, old in current.items()
    }


async def finish_game(db: Storage, game: Game, finish: Finish, step: int = 9) -> Game:
    return await play(db, game, step, deadline_ms=T0, now_ms=T0 + 100_000, finish=finish)


async def test_finish_writes_results_and_ratings_with_the_last_action(db: Storage) -> None:
    game = await play(db, await started_game(db, players=seats("Ann", "Bob", "Cat", "Dan")), 1)
    seen: list[dict[str, Rating | None]] = []

    def rate(current: dict[str, Rating | None]) -> dict[str, Rating]:
        seen.append(dict(current))
        return plus_one(current)

    scores = {"1001": 30, "1002": 41, "1003": 41, "1004": -3}
    done = await finish_game(db, game, Finish(scores, rate=rate))
    assert done.status == "finished" and not done.is_open
    assert done.finished_ms == T0 + 100_000
    assert done.deadline_ms is None  # a finished game waits for nobody
    assert done.version == game.version + 1
    assert [a.seq for a in await db.games.action_log(game.id)] == [1, 2]

    results = await db.results.of_game(game.id)
    assert [(r.player_id, r.score, r.rank, r.won) for r in results] == [
        ("1002", 41, 1, True),
        ("1003", 41, 1, True),
        ("1001", 30, 3, False),
        ("1004", -3, 4, False),
    ]
    assert all((r.guild_id, r.kind, r.finished_ms) == (10, "royale", T0 + 100_000) for r in results)
    assert {r.player_id: (r.seat, r.display_name) for r in results}["1004"] == (3, "Dan")

    assert seen == [{"1001": None, "1002": None, "1003": None, "1004": None}]
    ratings = await db.results.ratings(10, "royale", ["1001", "1002", "1003", "1004", "nobody"])
    assert set(ratings) == {"1001", "1002", "1003", "1004"}
    assert (ratings["1001"].mu, ratings["1001"].sigma, ratings["1001"].games) == (26.0, 7.5, 1)
    assert ratings["1001"].ordinal == 26.0 - 3 * 7.5

    # A second game: rate() sees the stored ratings, and games counts up.
    seen.clear()
    renamed = [
        Seat(0, "1001", "Ann"),
        Seat(1, "1002", "Bob"),
        Seat(2, "1003", "Zoe"),
    ]
    second = await started_game(db, players=renamed)
    await finish_game(db, second, Finish({"1001": 1, "1002": 2, "1003": 3}, rate=rate))
    assert seen == [{"1001": (26.0, 7.5), "1002": (26.0, 7.5), "1003": (26.0, 7.5)}]
    ratings = await db.results.ratings(10, "royale", ["1001", "1003"])
    assert (ratings["1001"].mu, ratings["1001"].games) == (27.0, 2)
    assert ratings["1003"].display_name == "Zoe"  # the latest name
    assert await db.results.ratings(10, "posing", ["1001"]) == {}  # per kind
    assert await db.results.ratings(11, "royale", ["1001"]) == {}  # per server


async def test_no_action_is_accepted_after_the_end(db: Storage) -> None:
    game = await started_game(db)
    done = await finish_game(db, game, Finish({"1001": 1, "1002": 2, "1003": 3}))
    with pytest.raises(NotActive):
        await play(db, done, 10)
    with pytest.raises(NotActive):
        await finish_game(db, done, Finish({"1001": 1, "1002": 2, "1003": 3}))
    assert len(await db.results.of_game(game.id)) == 3


async def test_winners_and_unrated_players_can_be_chosen(db: Storage) -> None:
    game = await started_game(db, players=seats("Ann", bots=2))
    scores = {"1001": 10, "cpu:1": 10, "cpu:2": 12}

    def humans_only(current: dict[str, Rating | None]) -> dict[str, Rating]:
        return {p: r for p, r in plus_one(current).items() if not p.startswith("cpu:")}

    await finish_game(db, game, Finish(scores, winners=["1001"], rate=humans_only))
    results = {r.player_id: r for r in await db.results.of_game(game.id)}
    assert [results[p].won for p in ("1001", "cpu:1", "cpu:2")] == [True, False, False]
    assert [results[p].rank for p in ("1001", "cpu:1", "cpu:2")] == [2, 2, 1]
    assert results["cpu:1"].is_bot and not results["1001"].is_bot
    assert set(await db.results.ratings(10, "royale", ["1001", "cpu:1", "cpu:2"])) == {"1001"}


async def test_a_solo_game_finishes_without_ratings(db: Storage) -> None:
    game = await started_game(db, kind="posing", players=seats("Solo"))
    await finish_game(db, game, Finish({"1001": 187}))
    [result] = await db.results.of_game(game.id)
    assert (result.kind, result.score, result.rank, result.won) == ("posing", 187, 1, True)
    assert await db.results.ratings(10, "posing", ["1001"]) == {}


@pytest.mark.parametrize(
    ("finish", "error"),
    [
        (Finish({"1001": 1, "1002": 2}), InvalidData),  # a player missing
        (Finish({"1001": 1, "1002": 2, "1003": 3, "9": 4}), InvalidData),  # a stranger
        (Finish({"1001": 1, "1002": 2, "1003": 2.5}), InvalidData),  # type: ignore[dict-item]
        (Finish({"1001": 1, "1002": 2, "1003": 3}, winners=["9"]), InvalidData),
        (
            Finish({"1001": 1, "1002": 2, "1003": 3}, rate=lambda cur: {"9": (1.0, 1.0)}),
            InvalidData,
        ),
        (
            Finish({"1001": 1, "1002": 2, "1003": 3}, rate=lambda cur: {"1001": (1.0, -1.0)}),
            InvalidData,
        ),
        (
            Finish({"1001": 1, "1002": 2, "1003": 3}, rate=lambda cur: 1 / 0),  # type: ignore[arg-type, return-value]
            ZeroDivisionError,
        ),
    ],
)
async def test_a_failed_finish_writes_nothing(
    db: Storage, finish: Finish, error: type[Exception]
) -> None:
    # Ratings from an earlier game must survive untouched too.
    first = await started_game(db)
    await finish_game(db, first, Finish({"1001": 5, "1002": 6, "1003": 7}, rate=plus_one))
    ratings_before = await db.results.ratings(10, "royale", ["1001", "1002", "1003"])

    game = await play(db, await started_game(db), 1)
    log_before = await db.games.action_log(game.id)
    with pytest.raises(error):
        await finish_game(db, game, finish)
    assert await db.games.get(game.id) == game
    assert await db.games.action_log(game.id) == log_before
    assert await db.results.of_game(game.id) == []
    assert await db.results.ratings(10, "royale", ["1001", "1002", "1003"]) == ratings_before
    assert await db.results.leaderboard_count(10, "royale") == 3
    assert sum(row.games for row in await db.results.leaderboard(10, "royale")) == 3

    # The game is still playable and can finish properly afterwards.
    done = await finish_game(db, game, Finish({"1001": 1, "1002": 2, "1003": 3}))
    assert done.status == "finished"


async def test_a_stale_finish_writes_nothing_and_does_not_rate(db: Storage) -> None:
    game = await play(db, await started_game(db), 1)
    calls: list[object] = []

    def rate(current: dict[str, Rating | None]) -> dict[str, Rating]:
        calls.append(current)
        return plus_one(current)

    with pytest.raises(StaleVersion):
        await db.games.commit_action(
            game.id,
            game.version - 1,
            action={},
            actor="1001",
            events=[{"event": "game_end"}],
            state={"over": True},
            deadline_ms=None,
            now_ms=T0,
            finish=Finish({"1001": 1, "1002": 2, "1003": 3}, rate=rate),
        )
    assert calls == []
    assert await db.games.get(game.id) == game
    assert await db.results.of_game(game.id) == []
    assert await db.results.ratings(10, "royale", ["1001"]) == {}


async def test_the_finish_is_invisible_until_committed(db: Storage, backend: Backend) -> None:
    """Inside rate() the transaction is open: another connection still sees the game active,
    without the last action, results or ratings; afterwards it sees all of them at once."""
    game = await play(db, await started_game(db), 1)

    def peek() -> tuple[str, int, int, int]:
        [(status,)] = backend.query("SELECT status FROM games WHERE id = ?", (game.id,))
        [(actions,)] = backend.query("SELECT COUNT(*) FROM actions WHERE game_id = ?", (game.id,))
        [(results,)] = backend.query("SELECT COUNT(*) FROM results WHERE game_id = ?", (game.id,))
        [(rated,)] = backend.query("SELECT COUNT(*) FROM ratings")
        return status, actions, results, rated

    during: list[tuple[str, int, int, int]] = []

    def rate(current: dict[str, Rating | None]) -> dict[str, Rating]:
        during.append(peek())
        return plus_one(current)

    await finish_game(db, game, Finish({"1001": 1, "1002": 2, "1003": 3}, rate=rate))
    assert during == [("active", 1, 0, 0)]
    assert peek() == ("finished", 2, 3, 3)


async def test_cancelled_games_write_no_results(db: Storage) -> None:
    lobby = await new_game(db, channel_id=1)
    active = await play(db, await started_game(db, channel_id=2), 1)
    await db.games.end(lobby.id, GameStatus.CANCELLED, "cancelled", T0)
    await db.games.end(active.id, GameStatus.CANCELLED, "cancelled", T0)
    assert await db.results.of_game(lobby.id) == []
    assert await db.results.of_game(active.id) == []
    assert await db.results.leaderboard(10, "royale") == []
    assert await db.results.leaderboard_count(10, "royale") == 0
    assert await db.results.player_stats(10, "1001") == []
    assert await db.results.ratings(10, "royale", ["1001", "1002", "1003"]) == {}
