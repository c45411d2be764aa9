"""The crash drill end to end: a real child process, SIGKILLed 15 times, checked after each."""

from __future__ import annotations

import asyncio
import io
import random
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bot.rules.registry import engine_for, kind_of
from bot.service import GameService, Person, Place, is_cpu
from storage import Database, Game
from storage.games import GameRecords
from tools.crashdrill.child import chooser
from tools.crashdrill.drill import DrillReport, choose_plan, main, run_drill
from tools.crashdrill.protocol import DEFAULT_VARIANTS, Variant, variant_of

KILLS = 15


@pytest.fixture(scope="module")
def drill(tmp_path_factory: pytest.TempPathFactory) -> tuple[DrillReport, str, float]:
    out = io.StringIO()
    start = time.perf_counter()
    report = run_drill(kills=KILLS, seed=11, workdir=tmp_path_factory.mktemp("drill"), out=out,
                       every=5)
    return report, out.getvalue(), time.perf_counter() - start


def test_every_check_passes_after_every_kill(drill: tuple[DrillReport, str, float]) -> None:
    report, _, _ = drill
    assert report.failures == []
    assert report.ok
    assert report.kills == KILLS
    assert report.kills_in_commit >= 1
    assert report.resumes >= 1  # restarts carried on with the open game
    assert report.checks_passed > 100
    assert report.final_status == "finished"
    assert report.games_finished >= 1 and report.actions_committed > 0


def test_the_drill_prints_progress_and_a_summary(drill: tuple[DrillReport, str, float]) -> None:
    _, text, _ = drill
    lines = text.splitlines()
    assert [ln.split()[1] for ln in lines if ln.startswith("kills ")] == ["5/15", "10/15",
                                                                          "15/15"]
    assert "crash drill: PASSED" in text
    assert "inside a commit" in text and "ms per kill" in text


def test_kill_points_are_seeded_and_varied() -> None:
    plans = [choose_plan(random.Random(3)) for _ in range(3)]
    assert plans[0] == plans[1] == plans[2]
    rng = random.Random(3)
    kinds = Counter(choose_plan(rng).kind for _ in range(400))
    assert set(kinds) == {"commit", "race", "answer", "delay"}
    assert kinds["commit"] > 100


def test_variants() -> None:
    v = Variant.parse("3+1:mischief,cannon")
    assert (v.humans, v.computers, v.expansions, v.players) == (3, 1, ("mischief", "cannon"), 4)
    assert Variant.parse(str(v)) == v
    assert Variant.parse("2:").computers == 0
    variants = tuple(Variant.parse(t) for t in DEFAULT_VARIANTS)
    assert variant_of(1, variants) == variant_of(len(variants) + 1, variants)
    assert any(v.expansions for v in variants) and any(not v.expansions for v in variants)
    with pytest.raises(ValueError):
        Variant.parse("1+0:")


def test_main_without_kills_plays_one_game(tmp_path: Path) -> None:
    out = io.StringIO()
    assert main(["--kills", "0", "--workdir", str(tmp_path)], out) == 0
    assert "crash drill: PASSED" in out.getvalue()
    assert "final game 1: finished" in out.getvalue()


class Killed(Exception):
    """Stands for the SIGKILL: nothing after it is committed."""


class DiesBeforeComputerMoves(GameRecords[Any]):
    """The process 'dies' when a computer seat's action is about to be committed."""

    armed = False

    async def commit_action(self, game_id: int, expected_version: int, **kw: Any) -> Game:
        if self.armed and str(kw["actor"]).startswith("cpu:"):
            raise Killed
        return await super().commit_action(game_id, expected_version, **kw)


async def test_a_restart_plays_the_computer_seat_a_crash_left_waiting(tmp_path: Path) -> None:
    path = tmp_path / "stuck.db"
    db = await Database.open(path)
    dies = db.games = DiesBeforeComputerMoves(db)
    service = GameService(db, seed_source=lambda: 77)
    game = await service.new_lobby(kind="royale", place=Place(1, 2), host=Person(5, "p"),
                                   settings={"expansions": [], "turn_timeout": 3600})
    game = await service.add_computer(game.id, Person(5, "p"))
    game = (await service.start(game.id, Person(5, "p"))).game
    dies.armed = True
    engine = engine_for("royale")
    with pytest.raises(Killed):
        for _ in range(200):  # the person plays until a computer seat must answer
            player = kind_of("royale").make_player("random", game.version)
            game = (await service.act(game.id, Person(5, ""), game.version, chooser(player))).game
    await service.close()
    await db.close()

    # the restart, as bot.client does it
    db2 = await Database.open(path)
    service2 = GameService(db2)
    try:
        await service2.restore()
        await service2.release_deadlines()
        await service2.resume_shard(0)
        await _settle()
        game = await db2.games.get(game.id) or game
        seat = engine.current_seat(service2.state_of(game))
        assert not is_cpu(game.players[seat].player_id) or service2.pending_timers > 0
    finally:
        await service2.close()
        await db2.close()


async def _settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def test_the_drill_fails_a_service_that_commits_before_the_transaction_ends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(Path(__file__).parents[2])  # `python -m tests.crash...` from the repo
    out = io.StringIO()
    report = run_drill(kills=6, seed=2, workdir=tmp_path, out=out, tolerate_stuck=True,
                       child_module="tests.crash.split_commit_child")
    assert not report.ok
    assert report.kinds["commit"] >= 1
    assert report.kills_in_commit == 0
    assert any(": in-commit: " in f for f in report.failures), report.failures
    assert "crash drill: FAILED" in out.getvalue()
