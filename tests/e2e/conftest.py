"""End-to-end tests: the real bot (discord.py client, cogs, service, SQLite file) against
SimCord, a simulated Discord. Players click what they see on the game messages.

Tests marked ``both_backends`` (whole games, timeouts, restarts: a representative set that
keeps the suite's time in bounds) run twice: on the SQLite file and on a PostgreSQL database
of the session's private server (``DATABASE_URL``); the others on SQLite only.
"""

from __future__ import annotations

import itertools
import logging
import os
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
import simcord

from bot.client import PandaBot
from bot.settings import Settings
from tests.conftest import BACKENDS, create_database
from tests.e2e.table import Table
from ui.cards import Emojis


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "both_backends: run on SQLite and on PostgreSQL")
    config.addinivalue_line("markers", "no_emojis: the application has no emojis at start")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if ("e2e_database" in metafunc.fixturenames
            and metafunc.definition.get_closest_marker("both_backends") is not None):
        metafunc.parametrize("e2e_database", BACKENDS, indirect=True)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "panda.db"


# Games get seeds 1000 * E2E_SEED, + 1, + 2, ... in each test: every run plays the same games
# (set E2E_SEED to explore others).
E2E_SEED = int(os.environ.get("E2E_SEED", "1"))


@pytest_asyncio.fixture
async def e2e_database(request: pytest.FixtureRequest) -> str | None:
    """``DATABASE_URL`` of the test's bots: None (the SQLite file) unless the test is marked
    ``both_backends`` and runs on PostgreSQL (a new database on the session's server)."""
    if getattr(request, "param", "sqlite") == "sqlite":
        return None
    return await create_database(request.getfixturevalue("pg_cluster"))


@pytest_asyncio.fixture
async def bot_factory(db_path: Path, e2e_database: str | None
                      ) -> AsyncIterator[Callable[[], PandaBot]]:
    """Fresh, unstarted bots on the same database (a restart is a new bot)."""
    made: list[PandaBot] = []
    seeds = itertools.count(1000 * E2E_SEED)

    def make() -> PandaBot:
        settings = Settings(_env_file=None, database_path=db_path,  # type: ignore[call-arg]
                            database_url=e2e_database, discord_token=None,
                            default_turn_timeout=120)
        bot = PandaBot(settings, seed_source=lambda: next(seeds))
        made.append(bot)
        return bot

    yield make
    for bot in made:
        if not bot.is_closed():
            await bot.close()


@pytest.fixture
def simcord_bot(bot_factory: Callable[[], PandaBot]) -> PandaBot:
    return bot_factory()


def dice_emojis_made(backend: Any) -> None:
    """The application's dice emojis as a deploy before left them (the bot creates them at its
    first start, tests/e2e/test_emojis.py): the test's bots find them and create none."""
    for full in Emojis.wanted():
        backend.create_application_emoji(full)


@pytest_asyncio.fixture
async def simcord_env(simcord_bot: PandaBot, request: pytest.FixtureRequest
                      ) -> AsyncIterator[simcord.Env]:
    """SimCord's environment around the test's bot (the plugin's fixture, with the dice
    emojis made before the bot starts, unless the test is marked ``no_emojis``)."""
    marker = request.node.get_closest_marker("simcord")
    env = simcord.Env(simcord_bot, **(marker.kwargs if marker else {}))
    if request.node.get_closest_marker("no_emojis") is None:
        dice_emojis_made(env.backend)
    await env.start()
    try:
        yield env
    finally:
        await env.shutdown()
        if env.check_errors:
            env.raise_errors()


@pytest.fixture(autouse=True)
def moves_answered_by_their_edit(monkeypatch: pytest.MonkeyPatch) -> None:
    """A move is answered by its own edit when it is ready within ui.board.SHOW_WITHIN
    (25 ms in the bot); the tests allow it 2 s, so that the requests they count do not depend
    on the machine's load. A test of the slower path sets it lower (tests/e2e/test_answers.py,
    test_channel_limits.py)."""
    monkeypatch.setattr("ui.board.SHOW_WITHIN", 2.0)


@pytest.fixture(autouse=True)
def requests_discord_accepts(checked_requests: list[object]) -> None:
    """Every request of the test's bots is one Discord's OpenAPI description accepts
    (tests/discord_requests.py; the exceptions: tools/discord_api/exceptions.py)."""


@pytest.fixture(autouse=True)
def no_logged_errors(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """Any ERROR logged by the bot (a handled-but-unexpected exception) fails the test."""
    caplog.set_level(logging.WARNING)
    yield
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR
              and r.name.startswith(("bot", "cogs", "ui", "pictures", "storage", "discord"))]
    assert not errors, "\n".join(f"{r.name}: {r.getMessage()}\n{r.exc_text or ''}"
                                 for r in errors)


@pytest_asyncio.fixture
async def table(simcord_env) -> Table:  # type: ignore[no-untyped-def]
    """A guild with a #games channel and five members; commands synced."""
    return await Table.create(simcord_env, ["alice", "bob", "carol", "dave", "erin"])
