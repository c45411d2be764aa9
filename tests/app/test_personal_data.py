"""A person's data: the copy holds exactly their rows; forgetting them leaves no trace of their
id or name anywhere in the database, and every other player's history whole. A server's data
goes after the retention period, not before.
"""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest_asyncio

from bot.rules.validate import validate_objects
from bot.service import GameService, People, Person, Place, StatsService
from bot.service.privacy import DAY_MS
from storage import open_database
from tests.services import privacy_of

from ..conftest import Backend
from .play import play_to_end

ALICE = Person(424242424242424242, "Zørbla Forgetme")
BOB, CAROL = Person(515151515151515151, "bob"), Person(616161616161616161, "carol")
ONE, TWO = Place(9001, 71), Place(9002, 72)


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000_000

    def __call__(self) -> int:
        return self.now


@pytest_asyncio.fixture
async def service(backend: Backend) -> AsyncIterator[GameService]:
    db = await backend.open()
    svc = GameService(db, clock=Clock(), seed_source=lambda: 4321)
    yield svc
    await svc.close()
    await db.close()


async def game(svc: GameService, place: Place, people: list[Person], *, computer: bool = True,
               play: bool = True, start: bool = True, kind: str = "royale") -> int:
    lobby = await svc.new_lobby(kind=kind, place=place, host=people[0], settings={})
    for p in people[1:]:
        await svc.join(lobby.id, p)
    if computer:
        await svc.add_computer(lobby.id, people[0], "easy")
    if start:
        await svc.start(lobby.id, people[0])
        if play:
            await play_to_end(svc, lobby.id, random.Random(lobby.id))
    return lobby.id


def everything(backend: Backend) -> str:
    """Every row of every table, as text (JSON columns included)."""
    if backend.name == "sqlite":
        tables = [r[0] for r in backend.query(
            "SELECT name FROM sqlite_master WHERE type = 'table'")]
    else:
        tables = [r[0] for r in backend.query(
            "SELECT table_name FROM information_schema.tables"
            " WHERE table_schema = current_schema()")]
    assert {"games", "game_players", "actions", "results", "ratings", "player_totals"} <= set(
        tables)
    return "\n".join(f"{t}: {row!r}" for t in tables for row in backend.query(
        f"SELECT * FROM {t}"))


async def world(svc: GameService) -> dict[str, int]:
    """Alice in every kind of place: finished games in two servers, a game without her, a
    lobby she hosts, one she joined, a game in play, a Posing game; and her reminders.
    """
    await People(svc.db, svc.clock).set_reminders(ALICE, zone="Europe/Oslo", quiet="23-7",
                                                  by_dm=True)
    channel = iter(range(100, 200))

    def at(place: Place) -> Place:
        return Place(place.guild_id, next(channel))

    ids = {}
    ids["finished"] = await game(svc, at(ONE), [ALICE, BOB])
    ids["elsewhere"] = await game(svc, at(TWO), [BOB, ALICE, CAROL], computer=False)
    ids["without"] = await game(svc, at(ONE), [BOB, CAROL])
    ids["posing"] = await game(svc, at(ONE), [ALICE, CAROL], computer=False, kind="posing")
    ids["hosted"] = await game(svc, at(ONE), [ALICE], computer=False, start=False)
    ids["joined"] = await game(svc, at(TWO), [CAROL, ALICE], computer=False, start=False)
    ids["playing"] = await game(svc, at(ONE), [BOB, ALICE], play=False)
    return ids


async def test_the_copy_holds_exactly_the_persons_rows(service: GameService,
                                                       backend: Backend) -> None:
    ids = await world(service)
    data = await privacy_of(service).export(ALICE.id)
    json.dumps(data)  # plain JSON values
    assert data["format"] == "panda-royale-bot/my-data" and data["user_id"] == str(ALICE.id)
    assert data["reminders"] is not None and data["reminders"]["zone"] == "Europe/Oslo"
    assert data["reminders"]["quiet_start"] == "23:00" and data["reminders"]["by_dm"]
    assert {g["game_id"] for g in data["games"]} == set(ids.values()) - {ids["without"]}
    mine = backend.query("SELECT game_id, score, won FROM results WHERE player_id = ?",
                         (str(ALICE.id),))
    assert sorted((r["game_id"], r["score"], bool(r["won"])) for r in data["results"]) == \
        sorted((g, s, bool(w)) for g, s, w in mine) and len(mine) == 3
    assert {(r["server_id"], r["kind"]) for r in data["ratings"]} == {
        (ONE.guild_id, "royale"), (TWO.guild_id, "royale"), (ONE.guild_id, "posing")}
    finished = next(g for g in data["games"] if g["game_id"] == ids["finished"])
    assert finished["display_name"] == ALICE.name and finished["host"] is True
    assert finished["log"][0]["event"] == "setup" and str(ALICE.id) in finished["log"][0][
        "players"]
    assert validate_objects(finished["log"]).ok
    playing = next(g for g in data["games"] if g["game_id"] == ids["playing"])
    assert "seed" not in playing["log"][0]  # an open game's log never predicts its rolls
    assert next(g for g in data["games"] if g["game_id"] == ids["hosted"])["log"] == []
    # nobody else's rows
    assert str(CAROL.id) not in json.dumps(data["results"] + data["ratings"])
    mine = backend.query("SELECT achievement FROM achievements WHERE player_id = ?",
                         (str(ALICE.id),))
    assert sorted(a["achievement"] for a in data["achievements"]) == sorted(r[0] for r in mine)


async def test_forgetting_leaves_no_trace_and_others_whole(service: GameService,
                                                          backend: Backend) -> None:
    ids = await world(service)
    stats = StatsService(service.db)
    before = {gid: (await service.log_of(g)).events
              for gid in (ids["finished"], ids["elsewhere"], ids["without"])
              if (g := await service.get_game(gid)) is not None}
    bob_before = await service.db.results.ratings(ONE.guild_id, "royale", [str(BOB.id)])
    board_before = [replace(e, position=0) for e in (await stats.leaderboard(
        ONE.guild_id, "royale", "all", 0, True)).entries if e.player_id != str(ALICE.id)]
    assert str(ALICE.id) in everything(backend) and ALICE.name in everything(backend)

    gone = await privacy_of(service).forget(ALICE.id)

    text = everything(backend)
    assert str(ALICE.id) not in text and ALICE.name not in text
    assert gone.pseudonym.startswith("former:") and gone.rows["results"] == 3
    assert [o.game.id for o in gone.stood_in] == [ids["playing"]]
    playing = gone.stood_in[0].game
    seat = next(p for p in playing.players if p.player_id == gone.pseudonym)
    assert seat.stand_in == "forgotten" and seat.display_name.startswith("former player ")
    assert {g.id: g.status for g in gone.lobbies} == {ids["hosted"]: "cancelled",
                                                     ids["joined"]: "lobby"}
    # every other player's history as it was: their ratings, the leaderboard, the logs
    assert await service.db.results.ratings(ONE.guild_id, "royale", [str(BOB.id)]) == bob_before
    assert [replace(e, position=0) for e in (await stats.leaderboard(
        ONE.guild_id, "royale", "all", 0, True)).entries] == board_before
    for gid, events in before.items():
        g = await service.get_game(gid)
        assert g is not None
        after = (await service.log_of(g)).events
        assert json.loads(json.dumps(after).replace(gone.pseudonym, str(ALICE.id))) == events
        report = validate_objects(after)
        assert report.ok, report.lines(verbose=True)
    # the game in play goes on with the computer in the seat, unrated
    await play_to_end(service, ids["playing"], random.Random(3))
    results = await service.db.results.of_game(ids["playing"])
    assert sorted(r.player_id for r in results) == [str(BOB.id), "cpu:easy:1"]  # not the seat
    assert str(ALICE.id) not in everything(backend)
    # nothing is left to copy
    data = await privacy_of(service).export(ALICE.id)
    assert data["games"] == data["results"] == data["ratings"] == data["totals"] == []
    assert data["achievements"] == [] and data["reminders"] is None


async def test_sqlite_files_keep_no_deleted_bytes(tmp_path: Path) -> None:
    """The database file and its WAL hold no byte of a forgotten person (``secure_delete``
    zeroes freed space; the WAL is folded in and truncated). PostgreSQL vacuums instead.
    """
    path = tmp_path / "bot.db"
    async with await open_database(path) as db:
        svc = GameService(db, clock=Clock(), seed_source=lambda: 4321)
        await world(svc)
        raw = b"".join(p.read_bytes() for p in tmp_path.iterdir())
        assert ALICE.name.encode() in raw
        await privacy_of(svc).forget(ALICE.id)
        raw = b"".join(p.read_bytes() for p in tmp_path.iterdir())
        assert ALICE.name.encode() not in raw and str(ALICE.id).encode() not in raw
        await svc.close()


async def test_a_removed_servers_data_goes_after_the_retention(service: GameService,
                                                               backend: Backend) -> None:
    ids = await world(service)
    clock: Any = service.clock
    assert service.pending_timers == 3  # two lobbies' and a turn's
    games = await privacy_of(service).departed(ONE.guild_id)
    assert {g.id for g in games} == {ids["hosted"], ids["playing"]}
    assert all(g.status == "abandoned" for g in games)
    assert await service.db.games.open_in_guild(ONE.guild_id) == []
    assert service.pending_timers == 1  # no timer fires into the server (the other's lobby)
    clock.now += 30 * DAY_MS - 1
    assert await privacy_of(service).purge(dry_run=False) == {}  # not before
    clock.now += 1
    counts = (await privacy_of(service).purge(dry_run=True))[ONE.guild_id]
    assert counts["games"] == 5 and counts["actions"] > 0 and counts["results"] >= 6
    assert backend.query("SELECT COUNT(*) FROM games WHERE guild_id = ?",
                         (ONE.guild_id,))[0][0] == 5  # a dry run deletes nothing
    assert (await privacy_of(service).purge())[ONE.guild_id] == counts
    for table in ("games", "results", "ratings", "player_totals", "guild_departures"):
        assert backend.query(f"SELECT COUNT(*) FROM {table} WHERE guild_id = ?",
                             (ONE.guild_id,))[0][0] == 0, table
    assert backend.query("SELECT COUNT(*) FROM game_players WHERE game_id = ?",
                         (ids["finished"],))[0][0] == 0
    # the other server untouched
    assert backend.query("SELECT COUNT(*) FROM games WHERE guild_id = ?",
                         (TWO.guild_id,))[0][0] == 2


async def test_a_server_that_adds_the_bot_back_keeps_its_data(service: GameService,
                                                              backend: Backend) -> None:
    await world(service)
    clock: Any = service.clock
    await privacy_of(service).departed(TWO.guild_id)
    assert await privacy_of(service).returned(TWO.guild_id)
    clock.now += 365 * DAY_MS
    assert await privacy_of(service).purge() == {}
    assert backend.query("SELECT COUNT(*) FROM games WHERE guild_id = ?",
                         (TWO.guild_id,))[0][0] == 2
    done = await privacy_of(service).forget_server(TWO.guild_id)
    assert done.ended == [] and done.rows["games"] == 2  # its lobby ended with the removal
    assert backend.query("SELECT COUNT(*) FROM games WHERE guild_id = ?",
                         (TWO.guild_id,))[0][0] == 0
