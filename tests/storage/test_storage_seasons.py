"""Migration 007 on both backends: a server's seasons, the claim of a season's end (once, across
connections), the ratings reset in the claiming transaction, a season's leaderboard window, and
achievements kept by the finishing transaction.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from storage import Finish, InvalidData, Seat, ServerSeason, Storage
from tools.crashdrill.hold import hold_commits

from ..conftest import Backend
from .storage_helpers import T0, play, season_end, seats, started_game

HOUR = 3_600_000


async def finish(db: Storage, channel: int, scores: Mapping[str, int], *, guild: int = 10,
                 now_ms: int = T0 + 100_000, kind: str = "royale", **kw: Any) -> int:
    players = [Seat(seat, pid, f"P{pid}") for seat, pid in enumerate(scores)]
    game = await started_game(db, channel_id=channel, guild_id=guild, players=players,
                              kind=kind)
    done = await play(db, game, 1, deadline_ms=None, now_ms=now_ms,
                      finish=Finish(dict(scores), **kw))
    return done.id


async def test_a_server_s_seasons_round_trip(db: Storage) -> None:
    assert await db.seasons.of_guild(10) == ServerSeason(10)  # no row: no seasons
    await db.settings.set_language(10, "de", T0)
    setting = ServerSeason(10, "quarterly", 77, True, T0)
    await db.seasons.set(setting, T0 + 1)
    assert await db.seasons.of_guild(10) == setting
    assert await db.settings.language(10) == "de"  # the other settings stay
    await db.seasons.set(ServerSeason(11, "monthly", None, False, T0), T0)
    await db.seasons.set(ServerSeason(12), T0)  # a row without seasons
    assert [s.guild_id for s in await db.seasons.seasonal_guilds()] == [10, 11]
    with pytest.raises(Exception):  # noqa: B017 - the CHECK constraint, either backend's error
        await db.seasons.set(ServerSeason(13, "weekly"), T0)


async def test_a_season_s_end_is_claimed_once_and_resets_ratings_once(
        db: Storage, backend: Backend) -> None:
    def rate(current: dict[str, Any]) -> dict[str, tuple[float, float]]:
        return {p: (30.0, 5.0) for p in current}

    await finish(db, 501, {"1": 10, "2": 5}, rate=rate)
    await finish(db, 502, {"1": 10, "2": 5}, guild=11, rate=rate)
    assert len(await db.results.ratings(10, "royale", ["1", "2"])) == 2
    other = await backend.open()  # another process's connection (pool) to the same database
    try:
        claims = await asyncio.gather(*[
            store.seasons.claim_end(10, "2026-01", 0, 10, now_ms=T0, stale_ms=T0 - HOUR,
                                    reset=True)
            for store in (db, other, db, other)])
        assert sorted(claims) == [False, False, False, True]
        assert await db.results.ratings(10, "royale", ["1", "2"]) == {}  # reset with the claim
        # other servers keep theirs
        assert len(await db.results.ratings(11, "royale", ["1", "2"])) == 2
        # New ratings after the reset are not reset again by a later look at the same end.
        await finish(db, 503, {"1": 10, "2": 5}, rate=rate)
        assert not await other.seasons.claim_end(10, "2026-01", 0, 10, now_ms=T0 + 1,
                                                 stale_ms=T0 - HOUR, reset=True)
        # A claim never settled is taken over once it is stale; never twice, never the reset.
        assert await other.seasons.claim_end(10, "2026-01", 0, 10, now_ms=T0 + 2 * HOUR,
                                             stale_ms=T0 + HOUR, reset=True)
        assert not await db.seasons.claim_end(10, "2026-01", 0, 10, now_ms=T0 + 2 * HOUR,
                                              stale_ms=T0 + HOUR, reset=True)
        assert len(await db.results.ratings(10, "royale", ["1", "2"])) == 2
        await other.seasons.settle_end(10, "2026-01", now_ms=T0 + 3 * HOUR, outcome="posted",
                                       channel_id=5, message_id=99)
        end = await season_end(db, 10, "2026-01")
        assert end is not None and (end["outcome"], end["message_id"], end["posted_ms"]) == \
            ("posted", 99, T0 + 3 * HOUR)
        # Settled: nobody takes it over, however old.
        assert not await db.seasons.claim_end(10, "2026-01", 0, 10, now_ms=T0 + 99 * HOUR,
                                              stale_ms=T0 + 98 * HOUR, reset=True)
        # Another season is another claim.
        assert await db.seasons.claim_end(10, "2026-02", 10, 20, now_ms=T0, stale_ms=0,
                                          reset=False)
        assert await season_end(db, 10, "2026-03") is None
    finally:
        await other.close()


async def test_a_season_s_leaderboard_counts_its_window_only(db: Storage) -> None:
    start, end = T0, T0 + 10 * HOUR
    await finish(db, 601, {"1": 9, "2": 1}, now_ms=start - 1)  # before
    await finish(db, 602, {"1": 1, "2": 9}, now_ms=start)  # first millisecond: in
    await finish(db, 603, {"1": 1, "2": 9}, now_ms=end - 1)  # in
    await finish(db, 604, {"1": 9, "2": 1}, now_ms=end)  # the next season's
    board = await db.results.leaderboard(10, "royale", since_ms=start, until_ms=end)
    assert [(r.player_id, r.games, r.wins) for r in board] == [("2", 2, 2), ("1", 2, 0)]
    assert await db.results.leaderboard_count(10, "royale", since_ms=start, until_ms=end) == 2
    open_ended = await db.results.leaderboard(10, "royale", since_ms=start)
    assert [(r.player_id, r.games) for r in open_ended] == [("2", 3), ("1", 3)]


def awarding(earned: Mapping[str, set[str]], seen: list[Any] | None = None) -> Any:
    def award(events: Sequence[Mapping[str, Any]], times: Mapping[str, Sequence[int]]
              ) -> Mapping[str, set[str]]:
        if seen is not None:
            seen.append(([e.get("event") for e in events], {p: sorted(t) for p, t in
                                                              times.items()}))
        return earned
    return award


async def test_achievements_are_kept_by_the_finishing_transaction(db: Storage) -> None:
    seen: list[Any] = []
    first = await finish(db, 701, {"1": 10, "2": 5},
                         award=awarding({"1": {"first_win", "royale_century"}}, seen))
    # the whole log: the start events and every action's events, the last one's too
    assert seen == [(["setup", "token", "pick"], {"1": [], "2": []})]
    rows = await db.achievements.of_player(10, "1")
    assert [(r.achievement, r.game_id) for r in rows] == [("first_win", first),
                                                          ("royale_century", first)]
    # Earned again later: kept as first earned; new ones from the new game.
    second = await finish(db, 702, {"1": 10, "2": 5}, now_ms=T0 + 200_000,
                          award=awarding({"1": {"first_win"}, "2": {"shared_win"}}))
    earned = await db.achievements.of_player(10, "1")
    assert [(r.achievement, r.game_id, r.earned_ms) for r in earned] \
        == [("first_win", first, T0 + 100_000), ("royale_century", first, T0 + 100_000)]
    assert [(r.player_id, r.achievement) for r in await db.achievements.of_game(second)] == \
        [("2", "shared_win")]
    assert await db.achievements.of_player(11, "1") == []  # another server's are its own


async def test_an_award_for_a_stranger_writes_nothing(db: Storage) -> None:
    game = await started_game(db, channel_id=801, players=seats("Ann", "Bob"))
    with pytest.raises(InvalidData, match="without a result"):
        await play(db, game, 1, deadline_ms=None, now_ms=T0 + 5,
                   finish=Finish({"1001": 3, "1002": 4}, unrated=["1002"],
                                 award=awarding({"1002": {"first_win"}})))
    again = await db.games.get(game.id)
    assert again is not None and again.status == "active"  # the last action was not written
    assert await db.results.of_game(game.id) == []


async def test_the_award_sees_the_season_s_results_of_every_finish(db: Storage,
                                                                   backend: Backend) -> None:
    """Two games of one player ending at once (of two kinds: nothing else they write is
    shared), on two connections: each finish counts the other's result once it has committed
    (the server's finishes take turns in a season)."""
    season = (T0, T0 + 100 * HOUR)
    seen: list[Any] = []
    await finish(db, 900, {"1": 1, "2": 2}, now_ms=T0 - 5)  # before the season
    await finish(db, 901, {"1": 1, "2": 2}, now_ms=T0 + 1, season=season,
                 award=awarding({}, seen))
    other = await backend.open()

    async def hold(game_id: int, version: int) -> None:
        if len(seen) == 2:  # the first of the two, about to commit: the other one runs now
            await asyncio.sleep(0.5)

    hold_commits(db, hold)
    try:
        await asyncio.gather(
            finish(db, 902, {"1": 3, "3": 2}, now_ms=T0 + 10, season=season,
                   award=awarding({}, seen)),
            finish(other, 903, {"1": 3, "4": 2}, now_ms=T0 + 20, season=season, kind="posing",
                   award=awarding({}, seen)))
    finally:
        await other.close()
    counts = sorted(len(times["1"]) for _, times in seen)
    assert counts == [1, 2, 3]  # every finish saw those before it, and its own
    assert seen[0][1] == {"1": [T0 + 1], "2": [T0 + 1]}


async def test_migration_007_keeps_a_server_s_settings(backend: Backend) -> None:
    async with await backend.open(migrations=backend.migrations()[:6]) as db:
        await db.settings.set_language(5, "ja", T0)
        await db.settings.set_threads(5, True, T0)
    async with await backend.open() as db:
        assert 7 in db.applied_migrations
        assert await db.settings.language(5) == "ja" and await db.settings.threads(5)
        assert await db.seasons.of_guild(5) == ServerSeason(5)
        assert await db.seasons.seasonal_guilds() == []
