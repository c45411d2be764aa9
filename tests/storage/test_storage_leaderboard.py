"""Leaderboards and player statistics on both backends with thousands of generated games.

The games are played through the public API from a seeded ``random.Random``; every figure the
SQL returns is checked against the same figures computed in Python from the generated data.
The PostgreSQL variant reads a copy of the same file (``storage.copy``), made once.
"""

from __future__ import annotations

import asyncio
import random
from collections import defaultdict
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from storage import Database, Finish, GameStatus, Rating, Seat, Storage, open_database
from storage.copy import copy_database
from storage.finish import ranks

from ..conftest import BACKENDS, create_database, run_in_thread
from ..pgcluster import Cluster
from .storage_helpers import T0

GAMES = 3_000
GUILDS = (1, 2)
KINDS = ("royale", "posing")
MINUTE = 60_000
PERIOD_START = T0 + (GAMES // 2) * MINUTE
HUMANS = {1: range(0, 30), 2: range(20, 40)}  # players 20-29 play in both servers


def player_id(index: int) -> str:
    return str(800_000_000_000_000_000 + index)


def new_rating(old: Rating | None, rank: int, mean_rank: float) -> Rating:
    """A stand-in for the real rating system: pure, deterministic, order-sensitive."""
    mu, sigma = old if old is not None else (25.0, 25.0 / 3)
    return mu + (mean_rank - rank) * 0.75, max(0.5, sigma * 0.97)


@dataclass(frozen=True)
class Result:
    guild: int
    kind: str
    player: str
    name: str
    is_bot: bool
    score: int
    won: bool
    finished_ms: int


@dataclass
class World:
    path: Path
    results: list[Result] = field(default_factory=list)
    ratings: dict[tuple[int, str, str], Rating] = field(default_factory=dict)
    cancelled: int = 0


async def _generate(path: Path) -> World:
    rng = random.Random(20240601)
    world = World(path)
    async with await Database.open(path) as db:
        for index in range(GAMES):
            now = T0 + index * MINUTE
            guild = rng.choice(GUILDS)
            kind = rng.choice(KINDS)
            humans = rng.sample(list(HUMANS[guild]), rng.randint(1, 4))
            bots = rng.randint(0, 2)
            players = [
                Seat(seat, player_id(p), f"P{p}-{index // 700}")
                for seat, p in enumerate(humans)
            ] + [
                Seat(len(humans) + k, f"cpu:{k + 1}", f"Computer {k + 1}", is_bot=True)
                for k in range(bots)
            ]
            game = await db.games.create(
                guild_id=guild,
                channel_id=guild * 100 + rng.randrange(5),
                kind=kind,
                host_id=int(players[0].player_id),
                settings={},
                seed=index,
                players=players,
                now_ms=now,
            )
            game = await db.games.start(game.id, game.version, {"i": index}, [], None, now + 1)
            if rng.random() < 0.1:
                await db.games.end(game.id, GameStatus.CANCELLED, "cancelled", now + 2)
                world.cancelled += 1
                continue

            top = 40 if kind == "royale" else 250
            scores = {p.player_id: rng.randint(top - 45, top) for p in players}
            place = ranks(scores)
            rated = [p.player_id for p in players if not p.is_bot]
            mean = sum(place[p] for p in rated) / len(rated)

            def rate(
                current: dict[str, Rating | None], place: dict[str, int] = place, mean: float = mean
            ) -> dict[str, Rating]:
                return {
                    p: new_rating(old, place[p], mean)
                    for p, old in current.items()
                    if not p.startswith("cpu:")
                }

            solo = len(rated) == 1
            await db.games.commit_action(
                game.id,
                game.version,
                action={"end": True},
                actor=players[0].player_id,
                events=[],
                state={"i": index, "over": True},
                deadline_ms=None,
                now_ms=now + 2,
                finish=Finish(scores, rate=None if solo else rate),
            )
            for p in players:
                world.results.append(
                    Result(
                        guild,
                        kind,
                        p.player_id,
                        p.display_name,
                        p.is_bot,
                        scores[p.player_id],
                        place[p.player_id] == 1,
                        now + 2,
                    )
                )
            if not solo:  # the model's own ratings, computed without storage
                for pid in rated:
                    key = (guild, kind, pid)
                    world.ratings[key] = new_rating(world.ratings.get(key), place[pid], mean)
    return world


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    """3,000 games in one file, generated once for this module (in a thread, own event loop)."""
    path = tmp_path_factory.mktemp("leaderboard") / "games.db"
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, _generate(path)).result()


@pytest.fixture(scope="module")
def pg_world(world: World, pg_cluster: Cluster) -> str:
    """The generated games copied into a PostgreSQL database (once for this module)."""

    async def make() -> str:
        url = await create_database(pg_cluster)
        await copy_database(world.path, url)
        return url

    url: str = run_in_thread(make())
    return url


@pytest.fixture(params=BACKENDS)
async def board(request: pytest.FixtureRequest, world: World) -> AsyncIterator[Storage]:
    """The generated games, opened for one test: the SQLite file, or its PostgreSQL copy."""
    target = world.path if request.param == "sqlite" else request.getfixturevalue("pg_world")
    async with await open_database(target) as db:
        yield db


Expected = tuple[str, str, bool, int, int, int, int, float | None, float | None]


def expected_board(
    world: World, guild: int, kind: str, since_ms: int | None, include_bots: bool
) -> list[Expected]:
    """The leaderboard computed in Python, in the documented order."""
    names: dict[str, str] = {}
    stats: dict[str, list[int]] = defaultdict(lambda: [0, 0, -(10**9), 0])  # games wins best sum
    bots: dict[str, bool] = {}
    for r in world.results:
        if r.guild != guild:
            continue
        names[r.player] = r.name  # the most recent name in this server, any kind
        if r.kind != kind or (since_ms is not None and r.finished_ms < since_ms):
            continue
        if r.is_bot and not include_bots:
            continue
        s = stats[r.player]
        s[0] += 1
        s[1] += r.won
        s[2] = max(s[2], r.score)
        s[3] += r.score
        bots[r.player] = r.is_bot
    rows: list[Expected] = []
    for p, (games, wins, best, total) in stats.items():
        rating = world.ratings.get((guild, kind, p))
        mu, sigma = rating if rating is not None else (None, None)
        rows.append((p, names[p], bots[p], games, wins, best, total, mu, sigma))

    def average(row: Expected) -> float:
        return row[6] / row[3]

    if since_ms is None:
        rows.sort(
            key=lambda r: (
                r[7] is None,
                0.0 if r[7] is None or r[8] is None else -(r[7] - 3.0 * r[8]),
                -r[4],
                -average(r),
                -r[3],
                r[0],
            )
        )
    else:
        rows.sort(key=lambda r: (-r[4], -average(r), -r[3], r[0]))
    return rows


CASES = [
    (guild, kind, since, bots)
    for guild in GUILDS
    for kind in KINDS
    for since in (None, PERIOD_START)
    for bots in (False, True)
]


def test_the_generated_world_is_big_and_varied(world: World) -> None:
    finished = GAMES - world.cancelled
    assert finished > 2_500 and world.cancelled > 200
    assert len({r.finished_ms for r in world.results}) == finished
    assert any(r.is_bot for r in world.results)
    ties: defaultdict[int, int] = defaultdict(int)
    for r in world.results:
        ties[r.finished_ms] += r.won
    assert any(count > 1 for count in ties.values())  # shared wins happen


@pytest.mark.parametrize(("guild", "kind", "since", "bots"), CASES)
async def test_leaderboard_matches_python(
    board: Storage, world: World, guild: int, kind: str, since: int | None, bots: bool
) -> None:
    expected = expected_board(world, guild, kind, since, bots)
    total = await board.results.leaderboard_count(guild, kind, since_ms=since, include_bots=bots)
    assert total == len(expected) > 10

    page_size = 7
    rows = []
    for offset in range(0, total + page_size, page_size):
        page = await board.results.leaderboard(
            guild, kind, since_ms=since, limit=page_size, offset=offset, include_bots=bots
        )
        assert len(page) == min(page_size, max(0, total - offset))
        rows.extend(page)
    assert [r.position for r in rows] == list(range(1, total + 1))
    got = [
        (
            r.player_id,
            r.display_name,
            r.is_bot,
            r.games,
            r.wins,
            r.best_score,
            r.total_score,
            r.mu,
            r.sigma,
        )
        for r in rows
    ]
    assert got == expected
    for r in rows:
        assert r.win_rate == pytest.approx(r.wins / r.games)
        assert r.average_score == pytest.approx(r.total_score / r.games)
        if r.mu is not None and r.sigma is not None:
            assert r.ordinal == pytest.approx(r.mu - 3 * r.sigma)
    if since is None and not bots:
        ordinals = [r.ordinal for r in rows if r.ordinal is not None]
        assert ordinals == sorted(ordinals, reverse=True)
    if since is not None:
        wins = [r.wins for r in rows]
        assert wins == sorted(wins, reverse=True)


async def test_pages_do_not_overlap_and_end_cleanly(board: Storage) -> None:
    everyone = await board.results.leaderboard(1, "royale", limit=1_000)
    first = await board.results.leaderboard(1, "royale", limit=10)
    second = await board.results.leaderboard(1, "royale", limit=10, offset=10)
    assert first + second == everyone[:20]
    assert await board.results.leaderboard(1, "royale", limit=10, offset=len(everyone)) == []
    assert await board.results.leaderboard(1, "royale", limit=0) == []
    assert await board.results.leaderboard(3, "royale") == []
    assert await board.results.leaderboard_count(3, "royale") == 0
    future = T0 + (GAMES + 10) * MINUTE
    assert await board.results.leaderboard(1, "royale", since_ms=future) == []


@pytest.mark.parametrize("player", [0, 7, 20, 29, 35])
async def test_player_stats_match_python(board: Storage, world: World, player: int) -> None:
    pid = player_id(player)
    for guild in GUILDS:
        mine = [r for r in world.results if r.guild == guild and r.player == pid]
        stats = await board.results.player_stats(guild, pid)
        expected = []
        for kind in sorted({r.kind for r in mine}):
            of_kind = [r for r in mine if r.kind == kind]
            rating = world.ratings.get((guild, kind, pid))
            expected.append(
                (
                    kind,
                    mine[-1].name,
                    len(of_kind),
                    sum(r.won for r in of_kind),
                    max(r.score for r in of_kind),
                    sum(r.score for r in of_kind),
                    None if rating is None else rating[0],
                    None if rating is None else rating[1],
                )
            )
        got = [
            (s.kind, s.display_name, s.games, s.wins, s.best_score, s.total_score, s.mu, s.sigma)
            for s in stats
        ]
        assert got == expected
        for s in stats:
            assert s.average_score == pytest.approx(s.total_score / s.games)
            assert s.rated_games <= s.games
            assert await board.results.player_stats(guild, pid, s.kind) == [s]
    assert await board.results.player_stats(1, "nobody") == []
