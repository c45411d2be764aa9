"""Every query an interaction makes is indexed by server, channel, host or game: no command
reads other servers' games.

The service calls a command or a click makes (``/royale new`` with its per-host and per-server
counts, joining, leaving, adding a computer, starting, deciding, a timeout, cancelling,
``/royale log``, the replay, status, a component's place check, the leaderboard, the stats and
their picture, a server's open games, a deleted channel, ...) run against a database that
already holds thousands of other servers' games, results, ratings and totals, with fresh
planner statistics (ANALYZE).
Every statement they execute is captured where storage hands it to the driver (aiosqlite's
connection; PostgreSQL: :class:`storage.pgconn.PgConn`), then explained on another connection
of the same database: SQLite's ``EXPLAIN QUERY PLAN`` must not ``SCAN`` a game table (a
``SEARCH`` through an index is the only way in), PostgreSQL's plan must have no ``Seq Scan``
on one. ``games.all_open()`` (every open game of every server) is for start-up only: no
interaction calls it.
"""

from __future__ import annotations

import json
import random
import re
import sqlite3
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import aiosqlite
import pytest
import pytest_asyncio

from bot.rules.levels import NORMAL
from bot.rules.registry import kind_of
from bot.service import GameService, Person, Place, Seasons, StatsService
from storage import Storage
from storage.connection import Conn, execute, execute_many
from storage.pgconn import PgConn, to_pg
from tests.services import seasons_of, servers_of

from ..conftest import Backend, run_in_thread

TABLES = ("games", "game_players", "actions", "results", "ratings", "player_totals",
          "guild_settings", "achievements", "season_ends")
"""The tables no interaction may read whole (every game message reads its server's
settings: the language; every finish its seasons)."""

GUILD = 1
ALICE, BOB, CAROL = Person(11, "alice"), Person(12, "bob"), Person(13, "carol")
T0 = 1_700_000_000_000

OTHER_GUILDS = 200
OTHER_GAMES = 4_000
"""Other servers' games seeded before the interactions (a quarter of them open)."""
SETTINGS_ROWS = 5_000
"""Servers with settings of their own (a few pages: enough for an index to beat a scan)."""


class Clock:
    def __init__(self) -> None:
        self.now = T0 + 10**9

    def __call__(self) -> int:
        return self.now


# ---------------------------------------------------------------------- other servers' data


async def seed_other_servers(db: Storage, rng: random.Random) -> None:
    """Thousands of games of other servers: finished ones (players, actions, results, ratings,
    totals) and open ones (lobbies and games in play), written in one transaction.
    """
    games: list[tuple[Any, ...]] = []
    players: list[tuple[Any, ...]] = []
    actions: list[tuple[Any, ...]] = []
    results: list[tuple[Any, ...]] = []
    earned: dict[tuple[int, str, str], tuple[Any, ...]] = {}
    totals: dict[tuple[int, str, str], list[int]] = {}
    for i in range(OTHER_GAMES):
        game_id = 1_000_000 + i
        guild = 100 + i % OTHER_GUILDS
        kind = "royale" if i % 5 else "posing"
        status = ("lobby", "active", "finished", "finished", "finished", "finished",
                  "cancelled", "finished")[i % 8]
        created = T0 + i * 60_000
        finished = created + 30 * 60_000 if status in ("finished", "cancelled") else None
        people = [str(10**17 + rng.randrange(3_000)) for _ in range(3)]
        people = list(dict.fromkeys(people))
        state = None if status in ("lobby", "cancelled") else '{"v": 1}'
        deadline = created + 120_000 if status in ("lobby", "active") else None
        games.append((game_id, guild, 10**6 + i, kind, status, int(people[0]), "{}", i, state,
                      None if state is None else "[]", 3, None, deadline, created, created,
                      finished))
        for seat, who in enumerate(people):
            players.append((game_id, seat, who, f"Player {who[-4:]}", 0))
        if state is not None:
            for seq in range(1, 6):
                actions.append((game_id, seq, '{"type": "pass"}', people[seq % len(people)],
                                "[]", created + seq))
        if status == "finished":
            for seat, who in enumerate(people):
                score = rng.randrange(60)
                won = int(seat == 0)
                results.append((game_id, who, guild, kind, f"Player {who[-4:]}", 0, seat, score,
                                seat + 1, won, finished))
                for achievement in ("first_win",) * won + ("royale_century",) * (score > 50):
                    earned.setdefault((guild, who, achievement),
                                      (guild, who, achievement, game_id, finished))
                t = totals.setdefault((guild, kind, who), [0, 0, 0, 0])
                t[0] += 1
                t[1] += won
                t[2] = max(t[2], score)
                t[3] += score

    async def work(conn: Conn) -> None:
        await execute_many(
            conn,
            "INSERT INTO games (id, guild_id, channel_id, kind, status, host_id, settings, seed,"
            " state, start_events, version, message_id, deadline_ms, created_ms, updated_ms,"
            " finished_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", games)
        await execute_many(
            conn, "INSERT INTO game_players (game_id, seat, player_id, display_name, is_bot)"
            " VALUES (?, ?, ?, ?, ?)", players)
        await execute_many(
            conn, "INSERT INTO actions (game_id, seq, action, actor, events, created_ms)"
            " VALUES (?, ?, ?, ?, ?, ?)", actions)
        await execute_many(
            conn, "INSERT INTO results (game_id, player_id, guild_id, kind, display_name, is_bot,"
            " seat, score, rank, won, finished_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            results)
        await execute_many(
            conn, "INSERT INTO ratings (guild_id, kind, player_id, display_name, mu, sigma,"
            " games, updated_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(g, k, p, f"Player {p[-4:]}", 25.0 + rng.uniform(-5, 5), 8.0, t[0], T0)
             for (g, k, p), t in totals.items()])
        await execute_many(
            conn, "INSERT INTO player_totals (guild_id, kind, player_id, is_bot, games, wins,"
            " best_score, total_score) VALUES (?, ?, ?, 0, ?, ?, ?, ?)",
            [(g, k, p, *t) for (g, k, p), t in totals.items()])
        await execute_many(
            conn, "INSERT INTO guild_settings (guild_id, language, season, season_channel_id,"
            " season_since_ms, updated_ms) VALUES (?, ?, ?, ?, ?, ?)",
            [(100 + g, ("en", "de", "fr", "ja")[g % 4], ("monthly", "quarterly", None)[g % 3],
              None if g % 3 == 2 else 7_000 + g, None if g % 3 == 2 else T0, T0)
             for g in range(SETTINGS_ROWS)])
        await execute_many(
            conn, "INSERT INTO achievements (guild_id, player_id, achievement, game_id,"
            " earned_ms) VALUES (?, ?, ?, ?, ?)", list(earned.values()))
        await execute_many(
            conn, "INSERT INTO season_ends (guild_id, season, start_ms, end_ms, claimed_ms,"
            " posted_ms, outcome) VALUES (?, ?, ?, ?, ?, ?, 'posted')",
            [(100 + g, f"20{y:02d}-{m:02d}", T0, T0 + 1, T0, T0) for g in range(OTHER_GUILDS)
             for y in (21, 22) for m in range(1, 13)])

    await db.write(work)

    async def analyze(conn: Conn) -> None:
        await execute(conn, "ANALYZE")

    await db.write(analyze)


# ---------------------------------------------------------------------- capturing statements


@dataclass
class Statement:
    step: str
    sql: str
    params: tuple[Any, ...]


@dataclass
class Recorder:
    """The statements storage sent to the driver, labelled with the step that sent them."""

    step: str = ""
    statements: list[Statement] = field(default_factory=list)
    steps: list[str] = field(default_factory=list)

    def note(self, sql: str, params: Any) -> None:
        if self.step:
            self.statements.append(Statement(self.step, sql, tuple(params or ())))

    @contextmanager
    def at(self, step: str) -> Iterator[None]:
        before, self.step = self.step, step
        self.steps.append(step)
        try:
            yield
        finally:
            self.step = before


def capture(monkeypatch: pytest.MonkeyPatch, recorder: Recorder) -> None:
    """Record every statement either backend's connection is given (the class methods storage's
    helpers in storage/connection.py call)."""

    def wrap(cls: type, name: str, many: bool = False) -> None:
        original = getattr(cls, name)

        def recorded(self: Any, sql: str, params: Any = (), *rest: Any, **kw: Any) -> Any:
            if many:
                rows = list(params)
                recorder.note(sql, rows[0] if rows else ())
                return original(self, sql, rows, *rest, **kw)
            recorder.note(sql, params)
            return original(self, sql, params, *rest, **kw)

        monkeypatch.setattr(cls, name, recorded)

    wrap(aiosqlite.Connection, "execute")
    wrap(aiosqlite.Connection, "execute_fetchall")
    wrap(aiosqlite.Connection, "executemany", many=True)
    wrap(PgConn, "execute")
    wrap(PgConn, "fetch_all")
    wrap(PgConn, "execute_many", many=True)


# ---------------------------------------------------------------------- plans

EXPLAINED = ("SELECT", "UPDATE", "DELETE", "INSERT", "WITH")
NAMED = re.compile(r"\b(\w+)\s+AS\s+(?:MATERIALIZED\s+)?\(", re.IGNORECASE)
ALIAS = re.compile(r"\b(?:FROM|JOIN)\s+(\w+)\s+AS\s+(\w+)", re.IGNORECASE)
SCAN = re.compile(r"^SCAN (\w+)")


def explained(statement: Statement) -> bool:
    head = statement.sql.lstrip().split(None, 1)[0].upper()
    return head in EXPLAINED


def sqlite_full_scans(path: str, statement: Statement) -> tuple[list[str], list[str]]:
    """(the plan's lines, those that read a whole table of :data:`TABLES`)."""
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute(f"EXPLAIN QUERY PLAN {statement.sql}", statement.params).fetchall()
    finally:
        conn.close()
    lines = [str(row[3]) for row in rows]
    tables = {alias: table for table, alias in ALIAS.findall(statement.sql)}
    tables.update({t: t for t in TABLES})
    bad = []
    for line in lines:
        m = SCAN.match(line)
        if m is None:
            continue
        table = tables.get(m.group(1))
        # A CTE or a subquery is scanned as a temporary result (not a table of the database).
        if table in TABLES:
            bad.append(line)
    return lines, bad


def _pg_nodes(node: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield node
    for child in node.get("Plans", ()):
        yield from _pg_nodes(child)


async def pg_full_scans(url: str, statements: Sequence[Statement]
                        ) -> list[tuple[list[str], list[str]]]:
    import asyncpg

    conn = await asyncpg.connect(url)
    out = []
    try:
        for statement in statements:
            raw = await conn.fetchval(f"EXPLAIN (FORMAT JSON) {to_pg(statement.sql)}",
                                      *statement.params)
            plan = (json.loads(raw) if isinstance(raw, str) else raw)[0]["Plan"]
            nodes = list(_pg_nodes(plan))
            lines = [f"{n['Node Type']} {n.get('Relation Name', '')} {n.get('Index Name', '')}"
                     .strip() for n in nodes]
            bad = [line for n, line in zip(nodes, lines, strict=True)
                   if n["Node Type"] == "Seq Scan" and n.get("Relation Name") in TABLES]
            out.append((lines, bad))
    finally:
        await conn.close()
    return out


# ---------------------------------------------------------------------- the interactions


@pytest_asyncio.fixture
async def seeded(backend: Backend) -> AsyncIterator[Storage]:
    db = await backend.open()
    try:
        await seed_other_servers(db, random.Random(25))
        yield db
    finally:
        await db.close()


def _decide(kind: str, seed: int) -> Any:
    player = kind_of(kind).make_player(NORMAL, seed)
    return lambda state, seat: player.choose(state)


async def _human_turn(svc: GameService, game_id: int) -> tuple[int, int] | None:
    """(user id, version) of the person the game waits on, or None."""
    game = await svc.get_game(game_id)
    assert game is not None
    if game.status != "active":
        return None
    seat = kind_of(game.kind).engine.current_seat(svc.state_of(game))
    if seat is None:
        return None
    player = game.players[seat]
    return (int(player.player_id), game.version) if not player.by_computer else None


async def play_interactions(svc: GameService, stats: StatsService, other: GameService,
                            clock: Clock, rec: Recorder) -> None:
    """The service calls of a server's commands and clicks, each under its step's label."""
    here = Place(GUILD, 501)
    with rec.at("/royale new (per-host and per-server counts)"):
        game = await svc.new_lobby(kind="royale", place=here, host=ALICE,
                                   settings={"expansions": ["mischief"]})
    with rec.at("join"):
        await svc.join(game.id, BOB)
        await svc.join(game.id, CAROL)
    with rec.at("leave"):
        await svc.leave(game.id, CAROL)
    with rec.at("add computer"):
        await svc.add_computer(game.id, ALICE)
    with rec.at("status (game in channel)"):
        await svc.game_in_channel(here.channel_id)
        await svc.open_game(here.channel_id)
    with rec.at("a component's place (another process: nothing cached)"):
        await other.check_place(game.id, here)
    with rec.at("start"):
        await svc.start(game.id, ALICE)
    with rec.at("board, ping (set_message, recent events)"):
        await svc.set_message(game.id, 9_001)
        current = await svc.get_game(game.id)
        assert current is not None
        await other.recent(current)
    with rec.at("/royale log while in play"):
        await svc.game_log(here.channel_id, "royale")
    for turn in range(6):
        who = await _human_turn(svc, game.id)
        assert who is not None
        with rec.at("a decision (check_turn, act)"):
            await svc.check_turn(game.id, Person(who[0], ""), who[1])
            await svc.act(game.id, Person(who[0], ""), who[1], _decide("royale", turn))
    with rec.at("timeout"):
        who = await _human_turn(svc, game.id)
        assert who is not None
        await svc.timeout(game.id, who[1])
    with rec.at("pause, unpause (permissions)"):
        await svc.pause(game.id, "send_messages")
        await svc.unpause(game.id)
    with rec.at("resign"):
        await svc.resign(game.id, BOB)
    with rec.at("settings (seasons: monthly, ratings reset)"):
        await servers_of(svc).set_season(GUILD, manager=True, length="monthly", reset=True, here=77)
        await servers_of(svc).season(GUILD)
        await seasons_of(svc).at(GUILD, clock.now)
    with rec.at("the last decisions and the finish (results, ratings, totals, the season's "
                "results, achievements)"):
        for turn in range(200):
            who = await _human_turn(svc, game.id)
            if who is None:
                break
            await svc.act(game.id, Person(who[0], ""), who[1], _decide("royale", 100 + turn))
    finished = await svc.get_game(game.id)
    assert finished is not None and finished.status == "finished"
    with rec.at("/royale log"):
        await svc.game_log(here.channel_id, "royale")
        await svc.log_of(finished)
    with rec.at("replay (from any channel of the server: its button's check, its log)"):
        await other.check_server(game.id, GUILD)
        await other.replay(Place(GUILD, 777), game.id)
        await svc.replay(here, kind="royale")
    with rec.at("rematch"):
        rematch = await svc.rematch(game.id, ALICE, here)
    with rec.at("cancel"):
        await svc.cancel(rematch.id, ALICE, manager=False, guild_id=GUILD)
    with rec.at("/royale log after a cancelled lobby"):
        await svc.game_log(here.channel_id, "royale")
    with rec.at("game over (what the game earned)"):
        await stats.earned_in(finished.id)
    with rec.at("leaderboard"):
        for period in ("all", "month", "season", "last-season"):
            for computers in (False, True):
                await stats.leaderboard(GUILD, "royale", period, 0, computers)
    with rec.at("stats (and achievements)"):
        await stats.player(GUILD, ALICE.id)
    with rec.at("the stats picture (a member's last results, their games' logs)"):
        history = await stats.history(GUILD, ALICE.id, steps_of=("royale",))
        assert history.steps  # the logs were read
    with rec.at("a member's achievements"):
        await stats.achievements(GUILD, ALICE.id)
    with rec.at("a season's end (claimed, ratings reset, its podium, settled; claimed again)"):
        clock.now = svc.clock() + 40 * 86_400_000  # past the month's end
        (end,) = await seasons_of(svc).due()
        await seasons_of(svc).settled(end, "posted", 123)
        assert await seasons_of(svc).due() == []
    with rec.at("settings (server language, threads)"):
        await servers_of(svc).set_language(GUILD, "de", manager=True, known=frozenset({"de"}))
        await servers_of(svc).language(GUILD)
        await servers_of(svc).set_threads(GUILD, True, manager=True)
        await servers_of(svc).threads(GUILD)

    there = Place(GUILD, 502)
    with rec.at("/posing new, start, decisions"):
        posing = await svc.new_lobby(kind="posing", place=there, host=BOB, settings={})
        await svc.start(posing.id, BOB)
        for turn in range(5):
            who = await _human_turn(svc, posing.id)
            if who is None:
                break
            await svc.act(posing.id, Person(who[0], ""), who[1], _decide("posing", turn))
    with rec.at("a member left"):
        await svc.player_left(posing.id, BOB)

    lobby = await svc.new_lobby(kind="royale", place=Place(GUILD, 503), host=CAROL,
                                settings={})
    with rec.at("a lobby expires"):
        clock.now += svc.limits.lobby_ttl_s * 1000 + 1
        await svc.expire(lobby.id)
    with rec.at("permissions changed, member left (a server's open games)"):
        await svc.open_games_of_guild(GUILD)
    await svc.new_lobby(kind="royale", place=Place(GUILD, 504), host=CAROL, settings={})
    with rec.at("channel deleted (abandon_channel)"):
        await svc.abandon_channel(504, "channel deleted")
    await svc.new_lobby(kind="royale", place=Place(2, 505), host=CAROL, settings={})
    with rec.at("bot removed from a server (abandon_guild)"):
        await svc.abandon_guild(2, "bot removed from the server")


async def test_every_interaction_query_is_indexed(
        backend: Backend, seeded: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    db = seeded
    clock = Clock()
    seeds = iter(range(1, 10_000))
    seasons = Seasons(db, clock)
    svc = GameService(db, clock=clock, seed_source=lambda: next(seeds), season_of=seasons.at)
    other = GameService(db, clock=clock, seed_source=lambda: next(seeds), season_of=seasons.at)
    stats = StatsService(db, clock=clock)
    everyone: list[str] = []

    async def spy_open_games() -> Any:
        everyone.append("games.all_open")
        return await type(db.games).all_open(db.games)

    async def this_server_s_seasons() -> Any:
        # The periodic check's one read of every server with seasons (its partial index):
        # a timer's, never an interaction's; here it finds this server only.
        return [await db.seasons.of_guild(GUILD)]

    monkeypatch.setattr(db.games, "all_open", spy_open_games)
    monkeypatch.setattr(db.seasons, "seasonal_guilds", this_server_s_seasons)
    rec = Recorder()
    capture(monkeypatch, rec)
    try:
        await play_interactions(svc, stats, other, clock, rec)
        assert not everyone, "an interaction read every server's open games (games.all_open)"
        restarted = GameService(db, clock=clock)
        await restarted.restore()  # start-up: the one caller
        await restarted.close()
        assert everyone == ["games.all_open"]
    finally:
        monkeypatch.undo()
        await svc.close()
        await other.close()
    assert not [s for s in rec.statements
                if re.search(r"FROM games WHERE status IN \('lobby', 'active'\) ORDER BY id",
                             s.sql)], "an interaction ran games.all_open()'s query"

    # One plan per statement text (the first parameters it ran with).
    unique: dict[str, Statement] = {}
    for statement in rec.statements:
        if explained(statement):
            unique.setdefault(statement.sql, statement)
    statements = list(unique.values())
    assert len(statements) >= 25, [s.sql for s in statements]  # the script really ran
    ran = {s.step for s in rec.statements if explained(s)}
    assert ran == set(rec.steps), set(rec.steps) - ran  # every step reached the database

    if backend.name == "sqlite":
        plans = [sqlite_full_scans(str(backend.target), s) for s in statements]
        # Until its first ANALYZE (PRAGMA optimize when the bot closes the file) SQLite plans
        # without statistics: the same statements must not scan a game table then either.
        conn = sqlite3.connect(str(backend.target))
        conn.execute("DELETE FROM sqlite_stat1")
        conn.commit()
        conn.close()
        plans += [sqlite_full_scans(str(backend.target), s) for s in statements]
        statements = statements * 2
    else:
        plans = run_in_thread(pg_full_scans(str(backend.target), statements))
    failures = [f"[{s.step}] {s.sql}\n    " + "\n    ".join(lines)
                for s, (lines, bad) in zip(statements, plans, strict=True) if bad]
    assert not failures, "full scans:\n" + "\n".join(failures)
    # The plans were read: every read or change of a game table goes through an index.
    for s, (lines, _) in zip(statements, plans, strict=True):
        if s.sql.lstrip().upper().startswith("INSERT") \
                or not any(re.search(rf"\b{t}\b", s.sql) for t in TABLES):
            continue
        assert any(line.startswith("SEARCH") or "Index" in line or "Bitmap" in line
                   for line in lines), (s.sql, lines)


def test_the_full_scan_check_sees_a_full_scan(tmp_path: Any) -> None:
    """The SQLite check flags an unindexed read (and not a search through an index)."""
    path = str(tmp_path / "t.db")
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, guild_id INTEGER, seed INTEGER)")
    conn.close()
    scan = Statement("x", "SELECT id FROM games WHERE seed = ?", (1,))
    search = Statement("x", "SELECT seed FROM games WHERE id = ?", (1,))
    aliased = Statement("x", "SELECT last.id FROM games AS last WHERE last.seed = ?", (1,))
    assert sqlite_full_scans(path, scan)[1] == ["SCAN games"]
    assert sqlite_full_scans(path, search)[1] == []
    assert sqlite_full_scans(path, aliased)[1] == ["SCAN last"]


async def test_the_full_scan_check_sees_a_seq_scan(pg_backend: Backend) -> None:
    """The PostgreSQL check flags a Seq Scan of a game table once it has statistics."""
    db = await pg_backend.open()
    try:
        await seed_other_servers(db, random.Random(1))
    finally:
        await db.close()
    statements = [Statement("x", "SELECT id FROM games WHERE seed = ?", (7,)),
                  Statement("x", "SELECT seed FROM games WHERE id = ?", (1_000_007,))]
    [(_, scan), (_, search)] = await pg_full_scans(str(pg_backend.target), statements)
    assert scan == ["Seq Scan games"] and search == []
