"""Moving a server's data: ``storage.copy.copy_database`` and ``python -m bot db copy``."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

from bot.cli import main
from storage import Finish, GameStatus, Rating, Seat, ServerSeason, Storage, open_database
from storage.copy import CopyError, TargetNotEmpty, copy_database

from ..conftest import Backend, create_database, run_in_thread
from ..pgcluster import Cluster
from .storage_helpers import T0, season_end

GAMES = 1_000


async def _generate(path: Path) -> None:
    """1,000 games through the storage API: most finished and rated, some cancelled, some
    still open (in the lobby or being played), over two servers."""
    rng = random.Random(99)
    async with await open_database(path) as db:
        await db.settings.set_language(1, "es", T0)  # the servers' default languages
        await db.settings.set_language(2, "ja", T0)
        await db.settings.set_turn_timeout(1, 45, T0)  # their defaults for new games
        await db.settings.set_mayhem(2, ("cannon", "mercenary"), T0)
        await db.settings.claim_greeting(1, T0 - 7, T0)  # and a greeted join
        await db.seasons.set(ServerSeason(1, "monthly", 55, True, T0), T0)  # and seasons
        await db.seasons.claim_end(1, "2023-10", T0 - 9, T0 - 1, now_ms=T0, stale_ms=0,
                                   reset=False)
        await db.seasons.settle_end(1, "2023-10", now_ms=T0, outcome="posted", channel_id=55,
                                    message_id=66)
        for index in range(GAMES):
            now = T0 + index * 1_000
            guild = 1 + index % 2
            humans = rng.sample(range(40), rng.randint(1, 4))
            players = [Seat(s, str(700 + p), f"P{p}") for s, p in enumerate(humans)]
            players.append(Seat(len(players), "cpu:1", "Computer 1", is_bot=True))
            game = await db.games.create(
                guild_id=guild, channel_id=index, kind=rng.choice(("royale", "posing")),
                host_id=700 + humans[0], settings={"n": index, "text": "héllo ✓"},
                seed=rng.getrandbits(48), players=players, now_ms=now,
            )
            if index % 50 == 7:
                continue  # left in the lobby
            game = await db.games.start(
                game.id, game.version, {"i": index}, [{"event": "setup"}], now + 99, now + 1
            )
            for step in range(rng.randint(1, 5)):
                game = await db.games.commit_action(
                    game.id, game.version, action={"step": step, "é": [1, 2.5, None]},
                    actor=game.player_ids[step % len(players)], events=[{"e": step}],
                    state={"i": index, "step": step}, deadline_ms=now + 500, now_ms=now + 2 + step,
                )
            if index % 50 == 9:
                continue  # still being played
            if index % 10 == 3:
                await db.games.end(game.id, GameStatus.CANCELLED, "cancelled", now + 20)
                continue
            scores = {p.player_id: rng.randint(0, 60) for p in players}

            def rate(current: dict[str, Rating | None]) -> dict[str, Rating]:
                return {
                    p: ((old or (25.0, 8.3))[0] + rng.random(), 8.0)
                    for p, old in current.items()
                    if not p.startswith("cpu:")
                }

            def award(events: object, times: object, first: str = players[0].player_id,
                      index: int = index) -> dict[str, set[str]]:
                return {first: {("first_win", "royale_century", "posing_full_card")[index % 3]}}

            await db.games.commit_action(
                game.id, game.version, action={"end": True}, actor=players[0].player_id,
                events=[{"event": "game_end"}], state={"over": True}, deadline_ms=None,
                now_ms=now + 30, finish=Finish(scores, rate=rate, award=award),
            )


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An SQLite file with 1,000 games (generated once for the module)."""
    path = tmp_path_factory.mktemp("copy") / "source.db"
    run_in_thread(_generate(path))
    return path


async def _everything(db: Storage, every: int = 1) -> tuple[object, ...]:
    """Every row the public API shows (of every ``every``-th game), for comparing databases."""
    games = []
    for game_id in range(1, GAMES + 1, every):
        game = await db.games.get(game_id)
        assert game is not None
        games.append(
            (game, await db.games.action_log(game_id), await db.games.events(game_id),
             await db.results.of_game(game_id))
        )
    boards = []
    for guild in (1, 2):
        for kind in ("royale", "posing"):
            board = await db.results.leaderboard(guild, kind, limit=100, include_bots=True)
            ids = [row.player_id for row in board]
            boards.append((board, await db.results.ratings(guild, kind, ids)))
    defaults = tuple([await db.settings.defaults(guild) for guild in (1, 2, 3)])
    seasons = tuple([(await db.seasons.of_guild(guild), await season_end(db, guild, "2023-10"))
                     for guild in (1, 2)])
    earned = tuple([tuple(await db.achievements.of_player(guild, str(700 + p)))
                    for guild in (1, 2) for p in range(40)])
    assert any(earned) and seasons[0][1] is not None
    return (tuple(games), tuple(boards), tuple(await db.games.all_open()), defaults, seasons,
            earned)


async def test_copy_to_postgres_keeps_everything_and_refuses_a_full_target(
    source: Path, pg_backend: Backend
) -> None:
    report = await copy_database(source, pg_backend.target)
    assert report.games == GAMES and report.checksums == GAMES
    assert report.actions > 3 * GAMES and report.results > 1_500 and report.ratings > 50
    assert report.servers == 2 and "2 server settings" in report.summary()
    assert report.achievements > 50 and report.season_ends == 1
    async with await open_database(source) as src, await pg_backend.open() as dst:
        # Every row was counted and every action log hashed by the copy itself; here a sample
        # of games, the open games and every leaderboard and rating, through the public API.
        assert await _everything(dst, every=5) == await _everything(src, every=5)
        assert not await dst.settings.claim_greeting(1, T0 - 7, T0 + 1)  # greeted already
        # The copy is a working database: new games get new ids.
        new = await dst.games.create(
            guild_id=1, channel_id=-1, kind="royale", host_id=1, settings={}, seed=1,
            players=[], now_ms=T0,
        )
        assert new.id == GAMES + 1

    with pytest.raises(TargetNotEmpty):
        await copy_database(source, pg_backend.target)
    [(games,)] = pg_backend.query("SELECT COUNT(*) FROM games")
    assert games == GAMES + 1  # untouched

    again = await copy_database(source, pg_backend.target, force=True)
    assert again == report
    [(games,)] = pg_backend.query("SELECT COUNT(*) FROM games")
    assert games == GAMES


async def test_copy_between_any_backends(source: Path, backend: Backend, tmp_path: Path) -> None:
    """SQLite -> either backend -> SQLite again: the same data at the end."""
    middle = await backend.new_target()
    back = tmp_path / "back.db"
    first = await copy_database(source, middle)
    second = await copy_database(middle, back)
    assert first == second
    async with await open_database(source) as src, await open_database(back) as end:
        assert await _everything(end, every=20) == await _everything(src, every=20)


async def test_copy_checks_refuse_a_source_that_is_itself(source: Path) -> None:
    with pytest.raises(CopyError, match="same"):
        await copy_database(source, source)
    with pytest.raises(FileNotFoundError):
        await copy_database(source.with_name("missing.db"), source.with_name("x.db"))


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


def test_the_db_copy_command(source: Path, tmp_path: Path, pg_cluster: Cluster) -> None:
    url: str = run_in_thread(create_database(pg_cluster))
    code, text = run("db", "copy", str(source), url)
    assert code == 0, text
    assert text.count("\n") == 1
    assert text.startswith(f"copied {GAMES} games") and "1000 action-log checksums ok" in text

    code, text = run("db", "copy", str(source), url)
    assert code == 1 and text.count("\n") == 1
    assert text.startswith("error: ") and "--force" in text

    code, text = run("db", "copy", str(source), url, "--force")
    assert code == 0 and text.startswith(f"copied {GAMES} games")

    code, text = run("db", "copy", str(tmp_path / "nothing.db"), url)
    assert code == 2 and text.startswith("error: no SQLite database")
