"""Every write path of a game: lobby, start, actions, message/deadline, cancel, resume."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

import storage.database
from storage import (
    BackendError,
    ChannelBusy,
    Database,
    GameClosed,
    GameNotFound,
    GameStatus,
    InvalidData,
    NotActive,
    NotInLobby,
    Reach,
    Seat,
    StaleVersion,
    Storage,
    open_database,
)

from ..conftest import Backend
from .storage_helpers import T0, new_game, play, seats, setup_events, started_game


async def test_create_game_makes_a_lobby(db: Storage) -> None:
    players = list(reversed(seats("Ann", "Bob", bots=1)))  # any order in, seat order out
    game = await new_game(db, players=players)
    assert game.status == "lobby" and game.is_open
    assert game.version == 0
    assert (game.guild_id, game.channel_id, game.kind, game.host_id) == (10, 500, "royale", 1001)
    assert game.settings == {"expansions": ["mischief"], "turn_timeout": 120}
    assert game.seed == 42
    assert game.state is None
    assert game.message_id is None and game.deadline_ms is None and game.finished_ms is None
    assert game.created_ms == game.updated_ms == T0
    assert [p.seat for p in game.players] == [0, 1, 2]
    assert game.player_ids == ["1001", "1002", "cpu:1"]
    assert game.players[2] == Seat(2, "cpu:1", "Computer 1", is_bot=True)
    assert await db.games.get(game.id) == game


@pytest.mark.parametrize(
    "players",
    [
        [Seat(0, "1", "A"), Seat(2, "2", "B")],  # a gap
        [Seat(1, "1", "A")],  # not from 0
        [Seat(0, "1", "A"), Seat(0, "2", "B")],  # a seat twice
        [Seat(0, "1", "A"), Seat(1, "1", "A again")],  # a player twice
    ],
)
async def test_bad_seats_are_refused(db: Storage, players: list[Seat]) -> None:
    with pytest.raises(InvalidData):
        await new_game(db, players=players)
    assert await db.games.all_open() == []


async def test_any_kind_is_stored_and_an_empty_kind_or_non_json_settings_are_refused(
        db: Storage) -> None:
    # Which kinds exist is the application's registry: storage keeps whatever it is given.
    chess = await new_game(db, kind="chess")
    assert (await db.games.get(chess.id)).kind == "chess"  # type: ignore[union-attr]
    await db.games.end(chess.id, GameStatus.CANCELLED, "cancelled", T0)
    with pytest.raises(InvalidData, match="kind"):
        await new_game(db, kind="", channel_id=501)
    with pytest.raises(InvalidData, match="JSON"):
        await db.games.create(
            guild_id=1,
            channel_id=1,
            kind="posing",
            host_id=1,
            settings={"bad": {1, 2}},
            seed=1,
            players=[],
            now_ms=T0,
        )
    assert await db.games.all_open() == []


async def test_one_open_game_per_channel(db: Storage) -> None:
    lobby = await new_game(db)
    with pytest.raises(ChannelBusy) as busy:
        await new_game(db, kind="posing")
    assert (busy.value.channel_id, busy.value.game_id) == (500, lobby.id)

    active = await db.games.start(lobby.id, 0, {"step": 0}, [], None, T0)
    with pytest.raises(ChannelBusy):
        await new_game(db)
    other_channel = await new_game(db, channel_id=501)
    assert other_channel.id != active.id

    await db.games.end(active.id, GameStatus.CANCELLED, "cancelled", T0 + 5)
    again = await new_game(db)  # the channel is free once its game is over
    assert again.status == "lobby"
    assert [g.id for g in await db.games.all_open()] == [other_channel.id, again.id]


async def test_lookups_by_channel(db: Storage) -> None:
    assert await db.games.open_in_channel(500) is None
    assert await db.games.latest_in_channel(500) is None
    royale = await new_game(db)
    await db.games.end(royale.id, GameStatus.CANCELLED, "cancelled", T0)
    posing = await new_game(db, kind="posing", players=seats("Solo"))

    assert await db.games.open_in_channel(500) == posing
    assert (await db.games.latest_in_channel(500)) == posing
    latest_royale = await db.games.latest_in_channel(500, "royale")
    assert latest_royale is not None and latest_royale.id == royale.id
    assert latest_royale.status == "cancelled"
    assert await db.games.latest_in_channel(501) is None
    assert await db.games.get(12345) is None


async def test_set_players_in_the_lobby(db: Storage) -> None:
    game = await new_game(db)
    joined = await db.games.set_players(game.id, seats("Ann", "Bob", "Cat", "Dan"), game.version,
                                        T0 + 1)
    assert joined.version == 1 and joined.updated_ms == T0 + 1
    assert [p.display_name for p in joined.players] == ["Ann", "Bob", "Cat", "Dan"]

    left = await db.games.set_players(game.id, seats("Ann", bots=2), joined.version, T0 + 2)
    assert left.version == 2
    assert left.player_ids == ["1001", "cpu:1", "cpu:2"]

    with pytest.raises(StaleVersion) as stale:
        await db.games.set_players(game.id, seats("Zed"), joined.version, T0 + 3)
    assert (stale.value.expected, stale.value.actual) == (1, 2)
    assert await db.games.get(game.id) == left

    with pytest.raises(GameNotFound):
        await db.games.set_players(9999, seats("Zed"), 0, T0)

    started = await db.games.start(game.id, left.version, {}, [], None, T0 + 4)
    with pytest.raises(NotInLobby):
        await db.games.set_players(game.id, seats("Zed"), started.version, T0 + 5)


async def test_start_game_stores_state_and_start_events(db: Storage) -> None:
    game = await new_game(db)
    events = setup_events(game)
    started = await db.games.start(game.id, 0, {"step": 0, "round": 1}, events, T0 + 99, T0 + 7)
    assert started.status == "active"
    assert started.version == 1
    assert started.state == {"step": 0, "round": 1}
    assert started.deadline_ms == T0 + 99
    assert started.updated_ms == T0 + 7 and started.created_ms == T0
    assert await db.games.events(game.id) == events
    assert await db.games.action_log(game.id) == []

    with pytest.raises(NotInLobby):
        await db.games.start(game.id, started.version, {}, [], None, T0)
    lobby = await new_game(db, channel_id=9)
    with pytest.raises(StaleVersion):
        await db.games.start(lobby.id, 5, {}, [], None, T0)
    with pytest.raises(GameNotFound):
        await db.games.start(9999, 0, {}, [], None, T0)
    assert (await db.games.get(lobby.id)) == lobby


async def test_commit_action_appends_to_the_log(db: Storage) -> None:
    game = await started_game(db)
    with pytest.raises(NotActive):
        await play(db, await new_game(db, channel_id=7), 1)

    current = game
    for step in range(1, 6):
        current = await play(db, current, step)
        assert current.version == game.version + step
        assert current.state == {"step": step}
        assert current.deadline_ms == T0 + 60_000 * (step + 1)
        assert current.updated_ms == T0 + 1_000 * step

    log = await db.games.action_log(game.id)
    assert [a.seq for a in log] == [1, 2, 3, 4, 5]
    assert [a.action["step"] for a in log] == [1, 2, 3, 4, 5]
    assert [a.actor for a in log] == ["1002", "1003", "1001", "1002", "1003"]
    assert log[2].created_ms == T0 + 3_000
    assert log[2].events == [{"event": "pick", "step": 3, "game_id": game.id}]

    events = await db.games.events(game.id)
    assert events[:2] == setup_events(game)
    assert [e["step"] for e in events[2:]] == [1, 2, 3, 4, 5]

    timed_out = await db.games.commit_action(
        game.id,
        current.version,
        action={"seat": 0, "auto": True},
        actor="timeout:1001",
        events=[],
        state={"step": 6},
        deadline_ms=None,
        now_ms=T0 + 9_000,
    )
    assert timed_out.deadline_ms is None
    assert (await db.games.action_log(game.id))[-1].actor == "timeout:1001"

    with pytest.raises(GameNotFound):
        await db.games.events(9999)
    assert await db.games.action_log(9999) == []


async def test_stale_version_writes_nothing(db: Storage) -> None:
    game = await started_game(db)
    game = await play(db, game, 1)
    game = await play(db, game, 2)
    log_before = await db.games.action_log(game.id)
    events_before = await db.games.events(game.id)

    for expected in (game.version - 1, game.version + 1, 0):
        with pytest.raises(StaleVersion) as stale:
            await db.games.commit_action(
                game.id,
                expected,
                action={"late": True},
                actor="1001",
                events=[{"event": "late"}],
                state={"step": "overwritten"},
                deadline_ms=1,
                now_ms=T0 + 50_000,
            )
        assert stale.value.actual == game.version

    assert await db.games.get(game.id) == game  # state, version, deadline, updated_ms
    assert await db.games.action_log(game.id) == log_before
    assert await db.games.events(game.id) == events_before
    # The right version still goes through, with the next seq.
    after = await play(db, game, 3)
    assert [a.seq for a in await db.games.action_log(after.id)] == [1, 2, 3]


async def test_non_json_state_writes_nothing(db: Storage) -> None:
    game = await started_game(db)
    with pytest.raises(InvalidData):
        await db.games.commit_action(
            game.id,
            game.version,
            action={},
            actor="1001",
            events=[],
            state={"nan": float("nan")},
            deadline_ms=None,
            now_ms=T0,
        )
    assert await db.games.get(game.id) == game
    assert await db.games.action_log(game.id) == []


async def test_message_and_deadline_shift_do_not_bump_the_version(db: Storage) -> None:
    game = await started_game(db)
    assert game.deadline_ms == T0 + 60_000
    await db.games.set_message(game.id, 777_000_000_000_000_001)
    shard = (game.guild_id >> 22) % 4
    assert await db.games.shift_deadlines(4, (shard + 1) % 4, 5_000) == 0  # another shard's
    assert await db.games.shift_deadlines(4, shard, 5_000) == 1
    row = await db.games.get(game.id)
    assert row is not None
    assert row.message_id == 777_000_000_000_000_001
    assert row.deadline_ms == T0 + 65_000
    assert row.version == game.version and row.state == game.state

    with pytest.raises(GameNotFound):
        await db.games.set_message(9999, 1)

    # a group DM's game (its guild_id its channel's id) is shard 0's, as Discord sends DMs
    group = 775_000_000_000_000_000
    assert (group >> 22) % 4 != 0
    lobby = await db.games.create(guild_id=group, channel_id=group, kind="royale", host_id=1001,
                                  settings={}, seed=1, players=seats("Ann"), now_ms=T0,
                                  deadline_ms=T0 + 1_000, reach=Reach.PRIVATE)
    assert lobby.reach is Reach.PRIVATE and (await db.games.get(lobby.id)) == lobby
    assert await db.games.shift_deadlines(4, (group >> 22) % 4, 5_000) == 0
    assert await db.games.shift_deadlines(4, 0, 5_000) == 1 + (shard == 0)
    shifted = await db.games.get(lobby.id)
    assert shifted is not None and shifted.deadline_ms == T0 + 6_000
    await db.games.end(lobby.id, GameStatus.CANCELLED, "cancelled", T0)

    cancelled = await db.games.end(game.id, GameStatus.CANCELLED, "cancelled", T0)
    assert await db.games.shift_deadlines(1, 0, 5_000) == 0  # a closed game has none
    await db.games.set_message(game.id, 5)  # the last message of a closed game may still change
    row = await db.games.get(game.id)
    assert row is not None and row.message_id == 5 and row.version == cancelled.version


async def test_cancel_from_lobby_and_from_active(db: Storage) -> None:
    lobby = await new_game(db, channel_id=1)
    cancelled = await db.games.end(lobby.id, GameStatus.CANCELLED, "cancelled", T0 + 3)
    assert cancelled.status == "cancelled" and not cancelled.is_open
    assert cancelled.finished_ms == T0 + 3
    assert cancelled.version == lobby.version + 1

    active = await play(db, await started_game(db, channel_id=2), 1)
    with pytest.raises(StaleVersion):
        await db.games.end(active.id, GameStatus.CANCELLED, "cancelled", T0,
                           expected_version=active.version - 1)
    cancelled = await db.games.end(active.id, GameStatus.CANCELLED, "cancelled", T0 + 4,
                                   expected_version=active.version)
    assert cancelled.status == "cancelled"
    assert cancelled.deadline_ms is None
    assert cancelled.state == active.state
    assert len(await db.games.action_log(active.id)) == 1

    with pytest.raises(GameClosed):
        await db.games.end(active.id, GameStatus.CANCELLED, "cancelled", T0 + 5)
    with pytest.raises(NotActive):
        await play(db, cancelled, 2)
    with pytest.raises(GameNotFound):
        await db.games.end(9999, GameStatus.CANCELLED, "cancelled", T0)
    assert await db.results.of_game(active.id) == []
    assert await db.games.all_open() == []


async def test_a_game_resumes_after_a_restart(backend: Backend) -> None:
    async with await backend.open() as db:
        game = await started_game(db, channel_id=42)
        for step in range(1, 4):
            game = await play(db, game, step)
        await db.games.set_message(game.id, 123456789)
        game = await db.games.get(game.id)  # type: ignore[assignment]
        log = await db.games.action_log(game.id)
        events = await db.games.events(game.id)

    async with await backend.open() as db:
        [resumed] = await db.games.all_open()
        assert resumed == game
        assert resumed.state == {"step": 3}
        assert resumed.deadline_ms == T0 + 60_000 * 4
        assert resumed.message_id == 123456789
        assert await db.games.action_log(game.id) == log
        assert await db.games.events(game.id) == events
        assert await db.games.open_in_channel(42) == game

        resumed = await play(db, resumed, 4)
        assert [a.seq for a in await db.games.action_log(game.id)] == [1, 2, 3, 4]
        assert resumed.version == game.version + 1


async def test_a_database_locked_elsewhere_fails_cleanly(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process holding the write lock past the busy timeout: BackendError, nothing
    half-done, and the same connection works once the lock is gone (SQLite only: PostgreSQL
    writers wait on row locks, not on one file lock)."""
    monkeypatch.setattr(storage.database, "BUSY_TIMEOUT_MS", 50)
    async with await Database.open(db_path) as db:
        game = await started_game(db)
        other = sqlite3.connect(db_path, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")
            with pytest.raises(BackendError, match="locked") as failure:
                await play(db, game, 1)
            assert isinstance(failure.value.__cause__, sqlite3.OperationalError)
            assert await db.games.get(game.id) == game  # reads still work in WAL mode
        finally:
            other.execute("ROLLBACK")
            other.close()
        after = await play(db, game, 1)
        assert [a.seq for a in await db.games.action_log(after.id)] == [1]


async def test_postgres_failures_come_out_as_backend_errors(pg_backend: Backend) -> None:
    """The PostgreSQL side of the test above: a database error is a BackendError (the asyncpg
    error as its cause), nothing is half-done, and the pool keeps working."""
    async with await pg_backend.open() as db:
        game = await started_game(db)
        pg_backend.query("ALTER TABLE actions RENAME TO actions_away")
        with pytest.raises(BackendError, match="PostgreSQL") as failure:
            await play(db, game, 1)
        assert type(failure.value.__cause__).__module__.startswith("asyncpg")
        assert await db.games.get(game.id) == game  # the version bump was rolled back
        pg_backend.query("ALTER TABLE actions_away RENAME TO actions")
        after = await play(db, game, 1)
        assert [a.seq for a in await db.games.action_log(after.id)] == [1]

    with pytest.raises(BackendError, match="PostgreSQL"):
        await open_database("postgresql://nobody@127.0.0.1:1/nothing")
