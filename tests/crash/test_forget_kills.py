"""Forgetting a person, killed (SIGKILL) at seeded random points: inside its transaction, at
a move of the game whose seat the computer takes, or after a random delay. Whatever the point,
the database holds the person either entirely (forgetting again then finishes the job) or not
at all: never their results without their seats, or a seat under their id beside a pseudonym.
"""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import signal
import sys
from pathlib import Path

from bot.service import GameService
from tests.services import privacy_of

from ..app.test_personal_data import ALICE, Clock, everything, world
from ..conftest import Backend, create_database

ROOT = Path(__file__).resolve().parents[2]


async def _killed(target: str, rng: random.Random) -> str:
    """Run the child on ``target`` and kill it where ``rng`` says; what it printed last."""
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.crash.forget_child", target, str(ALICE.id), cwd=ROOT,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert child.stdout is not None
    r = rng.random()
    wanted = "COMMITTING forget" if r < 0.45 else "COMMITTING game" if r < 0.7 else None
    last = ""
    try:
        if wanted is None:  # a random moment from the spawn
            await asyncio.sleep(rng.uniform(0.0, 2.5))
        else:
            while (line := (await asyncio.wait_for(child.stdout.readline(), 60)).decode()):
                last = line.strip()
                if last == wanted:
                    await asyncio.sleep(rng.uniform(0.0, 0.03))
                    break
    finally:
        if child.returncode is None:
            child.send_signal(signal.SIGKILL)
        await child.wait()
    return last


def _state(backend: Backend) -> str:
    """``"whole"``: the person is all there; ``"gone"``: nowhere; else what is wrong."""
    pid = str(ALICE.id)
    text = everything(backend)
    seats = backend.query("SELECT COUNT(*) FROM game_players WHERE player_id = ?", (pid,))[0][0]
    results = backend.query("SELECT COUNT(*) FROM results WHERE player_id = ?", (pid,))[0][0]
    former = {r[0] for r in backend.query(
        "SELECT player_id FROM game_players WHERE player_id LIKE 'former:%'")}
    if pid not in text and ALICE.name not in text and len(former) == 1:
        return "gone"
    if seats >= 5 and results == 3 and not former:
        return "whole"
    return f"torn: {seats} seats, {results} results, pseudonyms {sorted(former)}"


async def _drill(backend: Backend, trials: int, seed: int, fresh: object) -> None:
    rng = random.Random(seed)
    seen = set()
    for _ in range(trials):
        target = await fresh()  # type: ignore[operator]
        one = Backend(backend.name, target, backend.cluster)
        await _killed(str(target), rng)
        state = _state(one)
        assert state in ("whole", "gone"), state
        seen.add(state)
        if state == "whole":  # forgetting again finishes the job
            async with await one.open() as db:
                svc = GameService(db)
                await privacy_of(svc).forget(ALICE.id)
                await svc.close()
            assert _state(one) == "gone"
    assert seen == {"whole", "gone"}, seen  # the kills landed on both sides of the commit


async def _world_at(target: str | Path) -> None:
    async with await Backend("sqlite", target).open() as db:
        svc = GameService(db, clock=Clock(), seed_source=lambda: 4321)
        await world(svc)
        await svc.close()


async def test_forget_killed_anywhere_is_all_or_nothing_sqlite(tmp_path: Path) -> None:
    template = tmp_path / "template.db"
    await _world_at(template)
    count = iter(range(100))

    async def fresh() -> Path:
        path = tmp_path / f"trial-{next(count)}.db"
        shutil.copy(template, path)
        return path

    await _drill(Backend("sqlite", template), 14, 28, fresh)


async def test_forget_killed_anywhere_is_all_or_nothing_postgresql(pg_backend: Backend
                                                                   ) -> None:
    cluster = pg_backend.cluster
    assert cluster is not None

    async def fresh() -> str:
        url = await create_database(cluster)
        await _world_at(url)
        return url

    await _drill(pg_backend, 8, 29, fresh)
