"""Two clusters' game services on one database (two storage handles: two processes' pools).
Cluster A owns the guild, cluster B does not: a click that reaches B (resharding, a rolling
restart) is applied exactly once, racing clicks and racing timeouts from both are applied once
(the storage's version-guarded update), and only the owner runs the game's turn timer and
restores it at start-up. On both backends."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest_asyncio

from bot.errors import StaleClick
from bot.rules.errors import PlayerError
from bot.service import GameService, Person, Place
from bot.shards import ShardPlan, shard_of
from tests.app.test_service import Clock, pick_first

from ..conftest import Backend

ALICE, BOB = Person(1, "alice"), Person(2, "bob")
GUILD = 5 << 22  # on shard 1 of 2
PLANS = (ShardPlan(2, (1,)), ShardPlan(2, (0,)))  # A holds the guild's shard, B the other


@pytest_asyncio.fixture
async def clusters(backend: Backend) -> AsyncIterator[tuple[GameService, GameService]]:
    clock = Clock()
    dbs = [await backend.open(), await backend.open()]
    services = []
    for db, plan in zip(dbs, PLANS, strict=True):
        svc = GameService(db, clock=clock, seed_source=lambda: 4321, plan=plan)
        services.append(svc)
    yield services[0], services[1]
    for svc, db in zip(services, dbs, strict=True):
        await svc.close()
        await db.close()


async def started(owner: GameService) -> int:
    game = await owner.new_lobby(kind="royale", place=Place(GUILD, 77), host=ALICE,
                                 settings={"expansions": [], "turn_timeout": 60})
    await owner.join(game.id, BOB)
    return (await owner.start(game.id, ALICE)).game.id


async def waiting(svc: GameService, gid: int) -> tuple[int, int]:
    """(the user who must decide, the game's version)."""
    game = await svc.db.games.get(gid)
    assert game is not None
    seat = svc.state_of(game).queue[0][0]
    return int(game.players[seat].player_id), game.version


async def token(svc: GameService, gid: int, user: int) -> str:
    """The token the user is named by in the game's action log (their seat's: ``p1``)."""
    game = await svc.db.games.get(gid)
    assert game is not None
    return next(p.token for p in game.players if p.player_id == str(user))


def test_the_plans_split_the_guilds() -> None:
    assert shard_of(GUILD, 2) == 1
    assert PLANS[0].owns(GUILD) and not PLANS[1].owns(GUILD)
    assert ShardPlan().owns(GUILD) and ShardPlan().label == "all"
    assert ShardPlan(4, (0, 1, 3)).label == "0-1,3" and ShardPlan(4).shard_ids == [0, 1, 2, 3]


async def test_a_click_on_the_other_cluster_applies_once_and_arms_no_timer(
        clusters: tuple[GameService, GameService]) -> None:
    a, b = clusters
    gid = await started(a)
    assert a.pending_timers == 1 and b.pending_timers == 0
    user, version = await waiting(b, gid)
    await b.act(gid, Person(user, ""), version, pick_first)
    assert b.pending_timers == 0  # B does not run the timers of A's games
    log = await a.db.games.action_log(gid)
    assert [x.actor for x in log] == [await token(a, gid, user)]
    # A's timer, armed at the old version, finds the game moved on: it applies nothing and
    # follows the game's new deadline.
    assert await a.timeout(gid, version) is None
    assert a.pending_timers == 1
    assert len(await a.db.games.action_log(gid)) == 1


async def test_racing_clicks_from_both_clusters_apply_once(
        clusters: tuple[GameService, GameService]) -> None:
    a, b = clusters
    gid = await started(a)
    user, version = await waiting(a, gid)
    results = await asyncio.gather(a.act(gid, Person(user, ""), version, pick_first),
                                         b.act(gid, Person(user, ""), version, pick_first),
                                         return_exceptions=True)
    applied = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, StaleClick)]
    assert len(applied) == 1 and len(refused) == 1, results
    assert "latest message" in str(refused[0])  # politely, as a stale click
    assert [x.actor for x in await a.db.games.action_log(gid)] == [await token(a, gid, user)]


async def test_racing_timeouts_fire_once(clusters: tuple[GameService, GameService]) -> None:
    a, b = clusters
    gid = await started(a)
    user, version = await waiting(a, gid)
    outcomes = await asyncio.gather(a.timeout(gid, version), b.timeout(gid, version))
    assert sum(o is not None for o in outcomes) == 1
    log = await a.db.games.action_log(gid)
    assert [x.actor for x in log] == [f"timeout:{await token(a, gid, user)}"]


async def test_only_the_owner_restores_the_game(
        clusters: tuple[GameService, GameService]) -> None:
    a, b = clusters
    gid = await started(a)
    assert await b.restore() == [] and b.pending_timers == 0
    restored = await a.restore()
    assert [g.id for g in restored] == [gid] and a.pending_timers == 1


async def test_racing_starts_from_both_clusters_start_once(
        clusters: tuple[GameService, GameService]) -> None:
    a, b = clusters
    game = await a.new_lobby(kind="royale", place=Place(GUILD, 78), host=ALICE,
                             settings={"expansions": []})
    await a.join(game.id, BOB)
    results = await asyncio.gather(a.start(game.id, ALICE), b.start(game.id, ALICE),
                                   return_exceptions=True)
    started_ = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, PlayerError)]
    assert len(started_) == 1 and len(refused) == 1, results
    events = await a.db.games.events(game.id)
    assert [e["event"] for e in events].count("setup") == 1
