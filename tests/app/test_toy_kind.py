"""A third game kind end to end, registered by the test alone: storage (each backend), the game
service (lobby, computer seat, moves, a timeout, results, ratings, leaderboard) and the log
validator (and ``python -m bot validate``), with no other code file changed (tests/app/toy.py).
"""

from __future__ import annotations

import io
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot.cli import main
from bot.rules.gamelog import dumps_line
from bot.rules.registry import KINDS, GameKind, kind_of, register, unregister
from bot.rules.validate import validate_objects
from bot.service import GameService, Person, Place, StatsService
from pictures.charts.stats import OTHER_KIND, StatsChartData, StatsGame, draw_stats_chart
from tests.app import toy
from tools.sim.__main__ import main as sim_main

from ..conftest import Backend

ALICE, BOB = Person(1, "alice"), Person(2, "bob")
PLACE = Place(9, 7)


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000

    def __call__(self) -> int:
        return self.now


@pytest.fixture
def toy_kind() -> Iterator[GameKind[toy.State, toy.Take]]:
    """Bamboo in the registry for one test."""
    kind = register(toy.TOY)
    try:
        yield kind
    finally:
        unregister(kind.name)


@pytest_asyncio.fixture
async def service(backend: Backend) -> AsyncIterator[GameService]:
    db = await backend.open()
    svc = GameService(db, clock=Clock(), seed_source=lambda: 4242)
    yield svc
    await svc.close()
    await db.close()


async def play_to_the_end(svc: GameService) -> tuple[int, list[str]]:
    """A Bamboo game: alice, bob and a computer; bob's first turn times out; alice and bob take
    2 shoots every other turn. The game's id and the actors of its action log.
    """
    lobby = await svc.new_lobby(kind="toy", place=PLACE, host=ALICE, settings={})
    await svc.join(lobby.id, BOB)
    await svc.add_computer(lobby.id, ALICE, "hard")
    outcome = await svc.start(lobby.id, ALICE)
    timed_out = False
    while outcome.game.status == "active":
        game = outcome.game
        seat = toy.ENGINE.current_seat(svc.state_of(game))
        assert seat is not None and not game.players[seat].is_bot  # computers already played
        if game.players[seat].player_id == str(BOB.id) and not timed_out:
            late = await svc.timeout(game.id, game.version)
            assert late is not None
            outcome, timed_out = late, True
            continue
        who = Person(int(game.players[seat].player_id), "")
        outcome = await svc.act(game.id, who, game.version,
                                lambda state, seat: toy.Take(seat, 2))
    assert outcome.finished
    log = await svc.db.games.action_log(outcome.game.id)
    return outcome.game.id, [a.actor for a in log]


async def test_a_registered_kind_is_played_stored_rated_and_validated(
        toy_kind: GameKind[toy.State, toy.Take], service: GameService) -> None:
    assert kind_of("toy") is toy_kind
    game_id, actors = await play_to_the_end(service)

    game = await service.get_game(game_id)
    assert game is not None and game.kind == "toy" and game.status == "finished"
    ids = game.player_ids
    assert len(actors) == toy.ROUNDS * 3
    assert actors.count("timeout:p2") == 1 and actors.count(ids[2]) == toy.ROUNDS
    state = service.state_of(game)
    totals = toy.ENGINE.totals(state)
    assert state.bonus == toy.ENGINE.new_game(ids, game.seed)[0].bonus  # the seed drew it
    assert totals[0] == 2 * toy.ROUNDS + 2 * (state.bonus % 3 == 0)  # alice took 2 each turn

    stats = StatsService(service.db)
    board = await stats.leaderboard(PLACE.guild_id, "toy", "all", 0, computers=True)
    assert {e.player_id: e.best_score for e in board.entries} == dict(zip(ids, totals, strict=True))
    mine = await stats.player(PLACE.guild_id, ALICE.id)
    assert [(s.kind, s.games, s.rated_games) for s in mine] == [("toy", 1, 1)]
    assert mine[0].mu is not None
    # its registry entry's achievement, kept by the finishing transaction: alice took 2 each turn
    earned = {a.achievement for a in await stats.achievements(PLACE.guild_id, ALICE.id)}
    assert toy.GREEDY.id in earned

    log = await service.log_of(game)
    assert log.complete and log.events[0]["game_kind"] == "toy"
    report = validate_objects(log.events)
    assert report.ok, report.lines(verbose=True)
    assert [checked.kind for checked in report.games] == ["toy"]
    read = [toy_kind.read_event(e, tuple(ids)) for e in log.events]
    assert [e.to_log() for e in toy_kind.recent_events(read)] == [
        {k: v for k, v in e.items() if k != "game"} for e in log.events[-toy.RECENT:]]


async def test_the_validator_catches_a_tampered_toy_log(
        toy_kind: GameKind[toy.State, toy.Take], service: GameService,
        tmp_path: Path) -> None:
    game_id, _ = await play_to_the_end(service)
    game = await service.get_game(game_id)
    assert game is not None
    events = (await service.log_of(game)).events
    path = tmp_path / "toy.jsonl"
    path.write_text("".join(dumps_line(e) for e in events))
    out = io.StringIO()
    assert main(["validate", str(path)], out=out) == 0
    assert out.getvalue().splitlines()[-1] == (
        "validated 1 game (royale 0, posing 0, toy 1): all valid")

    take = next(i for i, e in enumerate(events) if e["event"] == "take")
    forged = [dict(e) for e in events]
    forged[take]["points"] += 1  # a point the rules never gave
    problems = validate_objects(forged).games[0].problems
    assert problems and problems[0].startswith(f"event {take}: replay: take ")
    moved = [dict(e) for e in events]
    moved[0]["bonus"] = (moved[0]["bonus"] + 1) % 9  # not the turn the seed drew
    replayed = validate_objects(moved).games[0].problems
    assert replayed and "event 0: replay: setup" in replayed[0]


def test_the_cli_the_bench_and_the_chart_read_the_kind_s_entry(
        toy_kind: GameKind[toy.State, toy.Take]) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert sim_main(["simulate", "--game", "toy", "--players", "2", "--games", "3", "--ai", "hard"],
                out=out, err=err) == 0
    assert out.getvalue().startswith("toy: 3 games, 2 players") and "hard 100.0% of wins" in (
        out.getvalue())
    # its levels are its one player: --ai takes those names, not another kind's players
    assert sim_main(["simulate", "--game", "toy", "--players", "2", "--ai", "heuristic"],
                out=out, err=err) == 2
    assert "--ai for toy takes easy, normal, hard, random, not heuristic" in err.getvalue()

    bench = io.StringIO()
    assert sim_main(["bench", "--game", "toy", "--games", "20", "--no-startup"], out=bench) == 0
    lines = bench.getvalue().splitlines()
    assert sum(li.startswith("  toy random ") and "decisions/s  (5 games of 4 players)" in li
               for li in lines) == 1
    assert sum(li.startswith("  toy  2 players random    options none ") for li in lines) == 1
    assert not any(li.startswith(("  royale", "  posing")) for li in lines)

    chart = draw_stats_chart(StatsChartData("alice", (StatsGame("toy", 3),
                                                      StatsGame("toy", 5, True))))
    colors = {color for _, color in chart.getcolors(chart.width * chart.height) or ()}
    assert toy.COLOR in colors and OTHER_KIND not in colors


def test_unregistered_the_kind_is_gone_everywhere() -> None:
    assert "toy" not in KINDS
    with pytest.raises(ValueError, match="unknown game 'toy'"):
        kind_of("toy")
    register(toy.TOY)
    try:
        with pytest.raises(ValueError, match="registered twice"):
            register(toy.TOY)
        assert list(KINDS) == ["royale", "posing", "toy"]
    finally:
        unregister("toy")
    setup = {"event": "setup", "game": "1", "game_kind": "toy", "seed": 1, "players": ["a"],
             "bonus": 0}
    assert validate_objects([setup]).games[0].problems == ("event 0: unknown game_kind 'toy'",)
