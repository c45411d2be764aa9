"""Memory follows the open games: 1,000 games played in one process
through the service (SQLite, fast computer players) end in every way a game ends (finished by
its players, by timeouts, after a resignation; a lobby cancelled or expired; a game cancelled or
abandoned in play), and after each the service's per-game structures are back to empty; the
Python heap holds no more after 1,000 games than after 200, give or take a small constant
(tracemalloc over games 200-300, the heap's blocks after 200, 600 and 1,000 games).
"""

from __future__ import annotations

import gc
import random
import sys
import tracemalloc
from pathlib import Path
from typing import Any

from bot.rules.registry import kind_of
from bot.service import GameService, Person, Place
from storage import open_database

GAMES = 1_000
WARM_UP = 200
TRACED_FROM, TRACED_TO = 220, 300
"""tracemalloc traces games 200 to 300 (it makes every allocation about four times slower: all
800 games would take minutes); the heap's blocks (``sys.getallocatedblocks``) are compared
after 200, 600 and 1,000 games, untraced."""
HEAP_SLACK = 96 * 1024
"""Bytes the traced games may leave behind in all (caches that fill once: the engines' small
caches, SQLite's statement cache)."""
PER_GAME_LIMIT = 200
"""Bytes a traced game may add once those caches are warm."""
BLOCK_SLACK = 1_000
"""Heap blocks the last 800 games may add in all (measured: about 250, up and down)."""
GUILDS = 7


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000_000

    def __call__(self) -> int:
        return self.now


def sizes(svc: GameService) -> dict[str, int]:
    """Every per-game structure of the service (the open games' cache, the channels' locks,
    the armed deadlines)."""
    return svc.memory()


EMPTY = {"cached games": 0, "channel locks": 0, "deadlines": 0, "games heard through the app": 0}


class Games:
    """Plays game number ``i`` to the end its number picks."""

    def __init__(self, svc: GameService, clock: Clock) -> None:
        self.svc = svc
        self.clock = clock
        self.rng = random.Random(25)
        self.held: list[dict[str, int]] = []  # the structures seen while a game was open
        self.ended: dict[str, int] = {}

    def _choose(self, kind: str) -> Any:
        player = kind_of(kind).make_player("easy", self.rng.randrange(2**32))
        return lambda state, seat: player.choose(state)

    async def _decide(self, game_id: int, host: Person, *, timeout: bool = False) -> bool:
        """The host's next decision (or their timeout); False once the game is over."""
        game = await self.svc.get_game(game_id)
        assert game is not None
        if game.status != "active":
            return False
        if timeout:
            await self.svc.timeout(game_id, game.version)
        else:
            kind = game.kind
            await self.svc.act(game_id, host, game.version, self._choose(kind))
        return True

    async def play(self, i: int) -> str:
        svc = self.svc
        end = ("finished", "finished", "finished", "posing", "timeouts", "resigned",
               "lobby cancelled", "lobby expired", "cancelled in play", "abandoned")[i % 10]
        host = Person(10_000 + i % 40, f"host {i % 40}")
        guest = Person(20_000 + i, f"guest {i}")
        place = Place(1 + i % GUILDS, 5_000 + i % 97)
        kind = "posing" if end == "posing" else "royale"
        game = await svc.new_lobby(kind=kind, place=place, host=host, settings={})
        if end == "lobby cancelled":
            await svc.join(game.id, guest)
            await svc.leave(game.id, guest)
            await svc.cancel(game.id, host, manager=False)
            return end
        if end == "lobby expired":
            await svc.add_computer(game.id, host, "easy")
            self.clock.now += svc.limits.lobby_ttl_s * 1000 + 1
            assert await svc.expire(game.id) is not None
            return end
        if kind == "royale":
            await svc.add_computer(game.id, host, "easy")
        await svc.start(game.id, host)
        if len(self.held) < 20:
            self.held.append(sizes(svc))
        if end in ("finished", "posing"):
            while await self._decide(game.id, host):
                pass
        elif end == "timeouts":
            turn = 0
            while await self._decide(game.id, host, timeout=turn % 2 == 1):
                turn += 1
        else:
            for _ in range(2):
                await self._decide(game.id, host)
            if end == "resigned":
                await svc.resign(game.id, host)
            elif end == "cancelled in play":
                await svc.cancel(game.id, host, manager=False)
            elif i % 3:
                await svc.abandon_channel(place.channel_id, "channel deleted")
            else:
                await svc.abandon_guild(place.guild_id, "bot removed from the server")
        over = await svc.get_game(game.id)
        assert over is not None and not over.is_open, (end, over)
        return end


async def test_memory_follows_the_open_games(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "memory.db")
    clock = Clock()
    seeds = iter(range(1, 10**6))
    svc = GameService(db, clock=clock, seed_source=lambda: next(seeds))
    games = Games(svc, clock)
    blocks: dict[int, int] = {}
    traced: dict[int, int] = {}
    top = ""
    try:
        for i in range(GAMES):
            if i == WARM_UP:
                gc.collect()
                blocks[i] = sys.getallocatedblocks()
                tracemalloc.start()
            end = await games.play(i)
            games.ended[end] = games.ended.get(end, 0) + 1
            assert sizes(svc) == EMPTY, (i, end, sizes(svc))
            played = i + 1
            if played in (TRACED_FROM, TRACED_TO):
                gc.collect()
                traced[played] = tracemalloc.get_traced_memory()[0]
            if played == TRACED_TO:
                stats = tracemalloc.take_snapshot().statistics("lineno")
                top = "\n".join(str(s) for s in stats[:12])
                del stats
                tracemalloc.stop()
            if played in (600, GAMES):
                gc.collect()
                blocks[played] = sys.getallocatedblocks()
    finally:
        tracemalloc.stop()
        await svc.close()
        await db.close()

    # every way a game ends was taken, and the structures did hold each game while it was open
    assert set(games.ended) == {"finished", "posing", "timeouts", "resigned", "lobby cancelled",
                                "lobby expired", "cancelled in play", "abandoned"}
    assert sum(games.ended.values()) == GAMES
    assert games.held and all(h == {"cached games": 1, "channel locks": 0, "deadlines": 1,
                                         "games heard through the app": 0}
                              for h in games.held), games.held[:5]

    # tracemalloc: what the traced games left behind is a small constant (caches filled once)
    # and nothing per game (the last 80 traced games added next to nothing)
    assert traced[TRACED_TO] < HEAP_SLACK, f"{traced} bytes:\n{top}"
    assert traced[TRACED_TO] - traced[TRACED_FROM] < PER_GAME_LIMIT * (TRACED_TO - TRACED_FROM), \
        f"{traced} bytes:\n{top}"
    # the whole heap after 1,000 games: as after 200, give or take a small constant
    assert blocks[GAMES] - blocks[WARM_UP] < BLOCK_SLACK, blocks
    assert abs(blocks[GAMES] - blocks[600]) < BLOCK_SLACK // 2, blocks
