"""One shared connection, many coroutines: every transaction runs whole, alone, in order."""

from __future__ import annotations

import asyncio
import random

import pytest

from storage import ChannelBusy, Finish, Game, Rating, StaleVersion, Storage

from ..conftest import Backend
from .storage_helpers import T0, new_game, play, seats, started_game

GAMES = 40
ACTIONS = 25


async def test_many_games_commit_at_once(db: Storage) -> None:
    games = [await started_game(db, channel_id=1_000 + i) for i in range(GAMES)]
    rng = random.Random(7)

    async def drive(game: Game) -> Game:
        for step in range(1, ACTIONS + 1):
            game = await play(db, game, step)
            if rng.random() < 0.3:
                await asyncio.sleep(0)  # shuffle the interleaving a little more
        return game

    finals = await asyncio.gather(*(drive(g) for g in games))

    for start, final in zip(games, finals, strict=True):
        assert final.version == start.version + ACTIONS
        assert final.state == {"step": ACTIONS}
        log = await db.games.action_log(start.id)
        assert [a.seq for a in log] == list(range(1, ACTIONS + 1))
        assert [a.action["step"] for a in log] == list(range(1, ACTIONS + 1))
        events = await db.games.events(start.id)
        assert all(e["game_id"] == start.id for e in events[2:])  # nobody else's events
        assert len(events) == 2 + ACTIONS
    assert len(await db.games.all_open()) == GAMES


async def test_racing_clicks_on_one_game_commit_once(db: Storage) -> None:
    game = await started_game(db)
    outcomes = await asyncio.gather(
        *(play(db, game, step) for step in range(1, 21)), return_exceptions=True
    )
    winners = [o for o in outcomes if isinstance(o, Game)]
    assert len(winners) == 1
    assert all(isinstance(o, StaleVersion) for o in outcomes if o not in winners)
    log = await db.games.action_log(game.id)
    assert len(log) == 1
    assert await db.games.get(game.id) == winners[0]
    assert winners[0].state == {"step": log[0].action["step"]}


async def test_racing_lobbies_in_one_channel_open_once(db: Storage) -> None:
    outcomes = await asyncio.gather(
        *(new_game(db, kind="posing" if i % 2 else "royale") for i in range(10)),
        return_exceptions=True,
    )
    opened = [o for o in outcomes if isinstance(o, Game)]
    assert len(opened) == 1
    assert sum(isinstance(o, ChannelBusy) for o in outcomes) == 9
    assert [g.id for g in await db.games.all_open()] == [opened[0].id]


async def test_concurrent_finishes_do_not_lose_rating_updates(db: Storage) -> None:
    """Ten games sharing a player finish at once: each rate() sees the previous game's
    rating, so no update is lost (the read-modify-write happens inside each transaction)."""
    games = [
        await started_game(db, channel_id=2_000 + i, players=seats("Ann", f"Rival{i}"))
        for i in range(10)
    ]
    # Every game's second player is a different person.
    seen: list[float | None] = []

    def rate(current: dict[str, Rating | None]) -> dict[str, Rating]:
        ann = current["1001"]
        seen.append(None if ann is None else ann[0])
        return {p: ((r or (0.0, 5.0))[0] + 1.0, 5.0) for p, r in current.items()}

    await asyncio.gather(
        *(
            db.games.commit_action(
                g.id,
                g.version,
                action={},
                actor="1001",
                events=[],
                state={},
                deadline_ms=None,
                now_ms=T0 + i,
                finish=Finish({"1001": 10, "1002": i}, rate=rate),
            )
            for i, g in enumerate(games)
        )
    )
    assert seen == [None, *[float(n) for n in range(1, 10)]]
    ann = (await db.results.ratings(10, "royale", ["1001"]))["1001"]
    assert (ann.mu, ann.games) == (10.0, 10)
    [row] = await db.results.player_stats(10, "1001", "royale")
    assert (row.games, row.wins, row.rated_games) == (10, 10, 10)


async def test_readers_never_see_half_a_write(db: Storage) -> None:
    game = await started_game(db)
    stop = False
    snapshots: list[tuple[int, int]] = []

    async def reader() -> None:
        while not stop:
            row = await db.games.get(game.id)
            log = await db.games.action_log(game.id)
            assert row is not None
            snapshots.append((row.version, len(log)))
            # Within get_game itself the version and state always agree.
            assert row.state == {"step": row.version - game.version}

    task = asyncio.create_task(reader())
    current = game
    for step in range(1, 31):
        current = await play(db, current, step)
        # Let the reader take a snapshot between writes: without this, on a busy machine the
        # writes could all land between two reads and the test would prove nothing.
        seen = len(snapshots)
        while len(snapshots) == seen and not task.done():
            await asyncio.sleep(0.001)
    stop = True
    await task
    assert snapshots
    # The log is read after the game, so it is never shorter than the game's version says.
    assert all(length >= version - game.version for version, length in snapshots)
    assert len({version for version, _ in snapshots}) > 1  # the reader did see writes land


async def test_a_cancelled_caller_does_not_break_the_connection(db: Storage) -> None:
    """A caller cancelled before its transaction starts writes nothing; once started, the
    transaction finishes (committed whole) and the shared connection stays usable."""
    game = await play(db, await started_game(db), 1)
    committed = []
    for spins in range(6):
        before = game.version
        task = asyncio.create_task(play(db, game, game.version + 1))
        for _ in range(spins):
            await asyncio.sleep(0)  # let it get somewhere (into its transaction, for spins > 0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        row = await db.games.get(game.id)
        assert row is not None
        log = await db.games.action_log(game.id)
        assert len(log) == row.version - 1  # start_game took version 1
        assert row.state == {"step": log[-1].action["step"]}
        committed.append(row.version > before)
        game = await play(db, row, row.version + 1)  # the connection still works
    assert committed[0] is False and all(committed[2:])
    assert [a.seq for a in await db.games.action_log(game.id)] == list(range(1, game.version))


async def test_close_waits_for_running_transactions(backend: Backend) -> None:
    db = await backend.open()
    game = await started_game(db)
    task = asyncio.create_task(play(db, game, 1))
    await asyncio.sleep(0)
    await db.close()
    committed = await task
    async with await backend.open() as again:
        assert await again.games.get(game.id) == committed


async def test_two_processes_racing_on_one_game_commit_once(backend: Backend) -> None:
    """Two opened databases (as two bot processes would have): racing writes to one game still
    commit once, and racing lobbies in one channel still open once."""
    first, second = await backend.open(), await backend.open()
    try:
        game = await started_game(first)
        outcomes = await asyncio.gather(
            *(play(first if step % 2 else second, game, step) for step in range(1, 11)),
            return_exceptions=True,
        )
        winners = [o for o in outcomes if isinstance(o, Game)]
        assert len(winners) == 1
        assert all(isinstance(o, StaleVersion) for o in outcomes if o not in winners)
        assert len(await second.games.action_log(game.id)) == 1

        lobbies = await asyncio.gather(
            *(new_game(first if i % 2 else second, channel_id=77) for i in range(6)),
            return_exceptions=True,
        )
        assert sum(isinstance(o, Game) for o in lobbies) == 1
        assert sum(isinstance(o, ChannelBusy) for o in lobbies) == 5
    finally:
        await first.close()
        await second.close()


async def test_a_transaction_a_cancelled_task_left_open_is_rolled_back_first(
        tmp_path: object, caplog: pytest.LogCaptureFixture) -> None:
    """A task cancelled inside a transaction, before its ROLLBACK ran (a shutdown that cancels
    every task), leaves SQLite's connection in that transaction: the next one rolls it back
    first instead of failing to begin."""
    from pathlib import Path

    from storage import Database

    db = await Database.open(Path(str(tmp_path)) / "open.db")
    await db._conn.execute("BEGIN IMMEDIATE")
    await db._conn.execute("INSERT INTO guild_settings (guild_id, language, updated_ms)"
                           " VALUES (6, 'de', 1)")
    await db.settings.set_language(5, "fr", T0)
    assert await db.settings.language(5) == "fr"
    assert await db.settings.language(6) is None  # the abandoned transaction's write is gone
    assert any("left open by a cancelled task" in r.getMessage() for r in caplog.records)
    await db.close()
