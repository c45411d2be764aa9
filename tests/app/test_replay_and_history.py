"""The service's replay of a finished game and a member's history (the /stats picture), on
each storage backend."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio

from bot.errors import GameNotRunning, NoGameHere
from bot.rules.levels import NORMAL
from bot.rules.registry import kind_of
from bot.rules.royale.events import ScoreEvent
from bot.service import GameService, Person, Place, StatsService
from pictures.charts import running_totals
from storage import InvalidData

from ..conftest import Backend

ALICE, BOB = Person(11, "alice"), Person(12, "bob")
HERE = Place(5, 50)


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000_000

    def __call__(self) -> int:
        self.now += 1000
        return self.now


@pytest_asyncio.fixture
async def services(backend: Backend) -> AsyncIterator[tuple[GameService, StatsService]]:
    db = await backend.open()
    seeds = iter(range(100, 10_000))
    svc = GameService(db, clock=Clock(), seed_source=lambda: next(seeds))
    yield svc, StatsService(db)
    await svc.close()
    await db.close()


async def finished_game(svc: GameService, kind: str, place: Place = HERE, *,
                        people: tuple[Person, ...] = (ALICE, BOB), cpus: int = 0,
                        settings: dict[str, Any] | None = None) -> int:
    """A game of ``kind`` played to its end, each person deciding as a Normal computer."""
    game = await svc.new_lobby(kind=kind, place=place, host=people[0],
                               settings=settings or {})
    for who in people[1:]:
        await svc.join(game.id, who)
    for _ in range(cpus):
        await svc.add_computer(game.id, people[0])
    outcome = await svc.start(game.id, people[0])
    engine = kind_of(kind).engine
    player = kind_of(kind).make_player(NORMAL, game.id)
    while outcome.game.status == "active":
        seat = engine.current_seat(outcome.state)
        user = int(outcome.game.players[seat].player_id)
        outcome = await svc.act(game.id, Person(user, ""), outcome.game.version,
                                lambda state, _seat: player.choose(state))
    assert outcome.finished
    return game.id


async def test_a_finished_games_replay(services: tuple[GameService, StatsService]) -> None:
    svc, _ = services
    gid = await finished_game(svc, "royale", cpus=1,
                              settings={"expansions": ["mischief", "cannon", "mercenary"]})
    replay = await svc.replay(HERE, gid)
    assert [f.step for f in replay.frames] == list(range(1, 11))
    game = await svc.get_game(gid)
    assert game is not None
    log = (await svc.log_of(game)).events
    totals = running_totals("royale", log)
    ids = [p.player_id for p in game.players]
    assert str(ALICE.id) in ids and not any(p.startswith("p") and p[1:].isdigit() for p in ids)
    for frame in replay.frames:  # the people by their Discord ids, as the log is shown
        assert frame.state.totals() == [totals[p][frame.step - 1] for p in ids]
        # the round's score events, read back as the engine's events
        assert {e.player for e in frame.events if isinstance(e, ScoreEvent)} == set(ids)
    results = {r.player_id: r.score for r in await svc.db.results.of_game(gid)}
    assert dict(zip(ids, replay.frames[-1].state.totals(), strict=True)) == results
    assert replay.frame(0).step == 1 and replay.frame(99).step == 10
    # any channel of the server; the kind when asked; the channel's last game by default
    assert (await svc.replay(Place(HERE.guild_id, 999), gid, "royale")).game.id == gid
    assert (await svc.replay(HERE, kind="royale")).game.id == gid


async def test_what_has_no_replay(services: tuple[GameService, StatsService]) -> None:
    svc, _ = services
    gid = await finished_game(svc, "royale")
    with pytest.raises(NoGameHere, match=f"There is no game {gid} in this server"):
        await svc.replay(Place(6, 50), gid)  # another server's game
    with pytest.raises(NoGameHere, match=f"no Posing Pandas game {gid} in this server"):
        await svc.replay(HERE, gid, "posing")
    with pytest.raises(NoGameHere):
        await svc.replay(HERE, 10**9)
    with pytest.raises(NoGameHere, match="has been played in this channel"):
        await svc.replay(Place(HERE.guild_id, 51), kind="royale")
    lobby = await svc.new_lobby(kind="royale", place=HERE, host=ALICE, settings={})
    await svc.join(lobby.id, BOB)
    await svc.start(lobby.id, ALICE)
    with pytest.raises(GameNotRunning, match="not over yet"):
        await svc.replay(HERE, lobby.id)
    with pytest.raises(GameNotRunning, match="not over yet"):
        await svc.replay(HERE, kind="royale")  # the channel's last game is the one in play
    await svc.cancel(lobby.id, ALICE, manager=True, guild_id=HERE.guild_id)
    with pytest.raises(GameNotRunning, match="not played to its end"):
        await svc.replay(HERE, lobby.id)


async def test_a_members_history(services: tuple[GameService, StatsService]) -> None:
    svc, stats = services
    games = []
    for i in range(3):
        games.append(await finished_game(svc, "royale", Place(HERE.guild_id, 60 + i),
                                         cpus=1, settings={"expansions": ["cannon"]}))
        games.append(await finished_game(svc, "posing", Place(HERE.guild_id, 70 + i),
                                         people=(BOB, ALICE)))
    await finished_game(svc, "royale", Place(7, 80))  # another server's
    history = await stats.history(HERE.guild_id, ALICE.id, steps_of=("royale",))
    assert [r.game_id for r in history.results] == games  # oldest first, this server only
    assert all(r.player_id == str(ALICE.id) for r in history.results)
    royale = [r for r in history.results if r.kind == "royale"]
    assert sorted(history.steps) == sorted(r.game_id for r in royale)
    for r in royale:  # their ten scores in each game, named by their id: the columns add up
        steps = history.steps[r.game_id]
        assert [e["round"] for e in steps] == list(range(1, 11))
        assert all(e["player"] == str(ALICE.id) for e in steps)
        assert sum(sum(e["columns"].values()) for e in steps) == r.score
    last = await stats.history(HERE.guild_id, ALICE.id, limit=4)
    assert [r.game_id for r in last.results] == games[-4:] and last.steps == {}
    nobody = await stats.history(HERE.guild_id, 999, steps_of=("royale",))
    assert nobody.results == () and nobody.steps == {}
    with pytest.raises(InvalidData):
        await svc.db.history.recent_results(HERE.guild_id, str(ALICE.id), limit=0)
    logs = await svc.db.history.games_events([games[0], games[1], 10**9])
    assert set(logs) == {games[0], games[1]}
    assert logs[games[0]] == await svc.db.games.events(games[0])
