"""Seasons and achievements through the service, on both backends: the UTC calendar of seasons,
``/settings season``'s rules, the ends found on a given clock and claimed once (two services on
one database: two processes), the podium, the season leaderboards, and the achievements kept at
each finish equal to those recomputed from every stored log.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from bot.errors import NotAllowed, UserError
from bot.rules.achievements import FIRST_WIN, REGULAR
from bot.service import GameService, Person, Place, Seasons, StatsService, season_at
from bot.service.achievements import recompute
from bot.service.season_calendar import SeasonWindow, next_boundary_ms
from tests.services import privacy_of, seasons_of, servers_of

from ..conftest import Backend
from .play import play_to_end

GUILD = 40
ALICE, BOB, CAROL = Person(401, "alice"), Person(402, "bob"), Person(403, "carol")


def ms(*args: int) -> int:
    return int(dt.datetime(*args, tzinfo=dt.UTC).timestamp() * 1000)  # type: ignore[misc]


class Clock:
    def __init__(self, now: int) -> None:
        self.now = now

    def __call__(self) -> int:
        return self.now


# ---------------------------------------------------------------------- the calendar


@pytest.mark.parametrize(("length", "when", "key", "start", "end"), [
    ("monthly", ms(2026, 1, 1), "2026-01", ms(2026, 1, 1), ms(2026, 2, 1)),
    ("monthly", ms(2026, 1, 31, 23, 59, 59) + 999, "2026-01", ms(2026, 1, 1), ms(2026, 2, 1)),
    ("monthly", ms(2026, 2, 1), "2026-02", ms(2026, 2, 1), ms(2026, 3, 1)),
    ("monthly", ms(2024, 2, 29, 12), "2024-02", ms(2024, 2, 1), ms(2024, 3, 1)),
    ("monthly", ms(2026, 12, 31, 23), "2026-12", ms(2026, 12, 1), ms(2027, 1, 1)),
    ("quarterly", ms(2026, 1, 1), "2026-Q1", ms(2026, 1, 1), ms(2026, 4, 1)),
    ("quarterly", ms(2026, 3, 31, 23, 59), "2026-Q1", ms(2026, 1, 1), ms(2026, 4, 1)),
    ("quarterly", ms(2026, 8, 15), "2026-Q3", ms(2026, 7, 1), ms(2026, 10, 1)),
    ("quarterly", ms(2026, 12, 1), "2026-Q4", ms(2026, 10, 1), ms(2027, 1, 1)),
])
def test_seasons_are_utc_months_and_quarters(length: str, when: int, key: str, start: int,
                                             end: int) -> None:
    season = season_at(length, when)
    assert (season.key, season.start_ms, season.end_ms) == (key, start, end)
    assert season.holds(when) and not season.holds(end) and season.holds(start)
    assert season.previous().end_ms == start
    assert season_at(length, start - 1) == season.previous()


def test_the_season_before_crosses_the_year() -> None:
    assert season_at("monthly", ms(2026, 1, 9)).previous() == SeasonWindow("monthly", 2025, 12)
    assert season_at("quarterly", ms(2026, 2, 9)).previous().key == "2025-Q4"
    assert next_boundary_ms(ms(2026, 1, 31, 23)) == ms(2026, 2, 1)
    assert next_boundary_ms(ms(2026, 2, 1)) == ms(2026, 3, 1)
    with pytest.raises(ValueError):
        season_at("weekly", 0)


# ---------------------------------------------------------------------- the service


@pytest_asyncio.fixture
async def world(backend: Backend) -> AsyncIterator[tuple[GameService, StatsService, Clock]]:
    db = await backend.open()
    clock = Clock(ms(2026, 1, 10, 12))
    seeds = iter(range(500, 10_000))
    seasons = Seasons(db, clock)
    svc = GameService(db, clock=clock, seed_source=lambda: next(seeds), season_of=seasons.at)
    yield svc, StatsService(db, clock=clock), clock
    await svc.close()
    await db.close()


async def played(svc: GameService, people: list[Person], channel: int, seed: int,
                 kind: str = "royale") -> int:
    game = await svc.new_lobby(kind=kind, place=Place(GUILD, channel), host=people[0],
                               settings={})
    for person in people[1:]:
        await svc.join(game.id, person)
    await svc.start(game.id, people[0])
    await play_to_end(svc, game.id, random.Random(seed))
    return game.id


async def test_the_season_setting(world: tuple[GameService, StatsService, Clock]) -> None:
    svc, _, clock = world
    with pytest.raises(NotAllowed):
        await servers_of(svc).set_season(GUILD, manager=False, length="monthly")
    with pytest.raises(UserError):
        await servers_of(svc).set_season(GUILD, manager=True, length="weekly")
    on = await servers_of(svc).set_season(GUILD, manager=True, length="monthly", here=77)
    assert (on.length, on.channel_id, on.reset, on.since_ms) == ("monthly", 77, False, clock.now)
    clock.now += 1000
    # the same length again changes nothing; a channel and the reset change only themselves
    same = await servers_of(svc).set_season(GUILD, manager=True, length="monthly", channel_id=88,
                                        reset=True, here=99)
    assert (same.length, same.channel_id, same.reset, same.since_ms) == \
        ("monthly", 88, True, on.since_ms)
    other = await servers_of(svc).set_season(GUILD, manager=True, length="quarterly")
    assert other.since_ms == clock.now and other.channel_id == 88
    off = await servers_of(svc).set_season(GUILD, manager=True, length="off")
    assert off.length is None and off.channel_id == 88 and off.since_ms is None
    assert await servers_of(svc).season(GUILD) == off


async def test_a_season_ends_once_with_its_podium(
        world: tuple[GameService, StatsService, Clock], backend: Backend) -> None:
    svc, stats, clock = world
    await servers_of(svc).set_season(GUILD, manager=True, length="monthly", here=55, reset=True)
    for n in range(3):
        await played(svc, [ALICE, BOB], 600 + n, n)
    await played(svc, [BOB, CAROL], 610, 9)
    assert len(await svc.db.results.ratings(GUILD, "royale", [str(ALICE.id)])) == 1
    assert await seasons_of(svc).due() == []  # January is not over
    january = await stats.leaderboard(GUILD, "royale", "season", 0, False)
    assert january.season is not None and january.season.key == "2026-01"
    assert sum(e.games for e in january.entries) == 8
    assert await seasons_of(svc).podium(GUILD, january.season.previous()) == {}

    clock.now = ms(2026, 2, 1) + 1_000
    other_db = await backend.open()  # a second process on the same database
    other = GameService(other_db, clock=clock)
    try:
        mine, theirs = await seasons_of(svc).due(), await seasons_of(other).due()
        assert len(mine) + len(theirs) == 1
        (end,) = mine + theirs
        assert end.season.key == "2026-01" and end.channel_id == 55 and end.reset
        podium = end.podium["royale"]
        assert [e.player_id for e in podium] == \
            [e.player_id for e in january.entries][:3]
        assert [e.wins for e in podium] == sorted((e.wins for e in podium), reverse=True)
        assert "posing" not in end.podium  # nobody played it
        assert await svc.db.results.ratings(GUILD, "royale", [str(ALICE.id)]) == {}  # reset
        await seasons_of(svc).settled(end, "posted", 1234)
        clock.now += 3 * 3600 * 1000
        assert await seasons_of(svc).due() == [] and await seasons_of(other).due() == []
    finally:
        await other.close()
        await other_db.close()
    last = await stats.leaderboard(GUILD, "royale", "last-season", 0, False)
    assert last.season is not None and last.season.key == "2026-01"
    assert [e.player_id for e in last.entries] == [e.player_id for e in january.entries]
    now = await stats.leaderboard(GUILD, "royale", "season", 0, False)
    assert now.season is not None and now.season.key == "2026-02" and now.entries == ()


async def test_a_claim_whose_process_died_is_taken_over(
        world: tuple[GameService, StatsService, Clock]) -> None:
    svc, _, clock = world
    await servers_of(svc).set_season(GUILD, manager=True, length="quarterly", here=55)
    await played(svc, [ALICE, BOB], 700, 1)
    clock.now = ms(2026, 4, 1, 0, 0, 5)
    (end,) = await seasons_of(svc).due()  # claimed; the process "dies" before posting
    assert end.season.key == "2026-Q1" and not end.reset
    assert await seasons_of(svc).due() == []  # within the lease nobody else takes it
    clock.now += 11 * 60 * 1000
    (again,) = await seasons_of(svc).due()
    assert again.season == end.season
    await seasons_of(svc).settled(again, "posted", 1)
    clock.now += 3600 * 1000
    assert await seasons_of(svc).due() == []


async def test_no_podium_for_a_season_that_ended_before_seasons_began(
        world: tuple[GameService, StatsService, Clock]) -> None:
    svc, stats, clock = world
    await played(svc, [ALICE, BOB], 800, 1)
    with pytest.raises(UserError, match="no seasons"):
        await stats.leaderboard(GUILD, "royale", "season", 0, False)
    clock.now = ms(2026, 2, 3)
    await servers_of(svc).set_season(GUILD, manager=True, length="monthly", here=55)
    assert await seasons_of(svc).due() == []  # January ended before the server chose seasons
    board = await stats.leaderboard(GUILD, "royale", "last-season", 0, False)
    assert len(board.entries) == 2  # its leaderboard is still there
    clock.now = ms(2026, 3, 1, 0, 1)
    (end,) = await seasons_of(svc).due()
    assert end.season.key == "2026-02" and end.empty  # nobody played in February
    await seasons_of(svc).settled(end, "empty")
    # Owned by another cluster: not this process's to settle.
    clock.now = ms(2026, 4, 1, 0, 1)
    elsewhere = Seasons(svc.db, svc.clock, owns=lambda guild_id: guild_id != GUILD)
    assert await elsewhere.due() == []


async def test_achievements_kept_equal_those_recomputed_from_the_logs(
        world: tuple[GameService, StatsService, Clock]) -> None:
    svc, stats, clock = world
    await servers_of(svc).set_season(GUILD, manager=True, length="monthly", here=55)
    games = []
    for n in range(4):
        games.append(await played(svc, [ALICE, BOB], 900 + n, 10 + n))
    games.append(await played(svc, [BOB, CAROL], 910, 20, kind="posing"))
    for n in range(6):  # solo Posing: ten games of Alice's in January in all
        games.append(await played(svc, [ALICE], 920 + n, 30 + n, kind="posing"))
    # A game one of them resigns: their seat has no result and earns nothing.
    resigned = await svc.new_lobby(kind="royale", place=Place(GUILD, 940), host=CAROL,
                                   settings={})
    await svc.join(resigned.id, BOB)
    await svc.start(resigned.id, CAROL)
    await svc.resign(resigned.id, CAROL)
    await play_to_end(svc, resigned.id, random.Random(41))
    games.append(resigned.id)

    kept: dict[str, set[str]] = {}
    for person in (ALICE, BOB, CAROL):
        rows = await stats.achievements(GUILD, person.id)
        assert len({r.achievement for r in rows}) == len(rows)
        if rows:
            kept[str(person.id)] = {r.achievement for r in rows}
    everything = [g for g in [await svc.get_game(i) for i in games] if g is not None]
    season = season_at("monthly", clock.now)
    assert kept == await recompute(svc.db, everything, [season])
    assert REGULAR in kept[str(ALICE.id)]  # her tenth game of the season
    assert REGULAR not in kept.get(str(BOB.id), set())  # six games
    assert any(FIRST_WIN in ids for ids in kept.values())
    # Each game's own: what it first earned, by person.
    first = {i: await stats.earned_in(i) for i in games}
    for person, ids in kept.items():
        assert sorted(a for e in first.values() for a in e.get(person, [])) == sorted(ids)
    assert str(CAROL.id) not in first[resigned.id]

    # Bob asks to be forgotten: his achievements go with his results; the rest still match.
    await privacy_of(svc).forget(BOB.id)
    assert await stats.achievements(GUILD, BOB.id) == []
    kept.pop(str(BOB.id))
    assert kept == await recompute(svc.db, everything, [season])
