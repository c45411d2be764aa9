"""``python -m tools.screenshots [DIR]``: the README's pictures, taken from the real bot in
SimCord (a simulated Discord) with SimCord's preview and a headless Chromium.

Needs ``pip install playwright`` and a Chromium (``apt-get install chromium``: /usr/bin/chromium,
or set CHROMIUM); no ``playwright install``. Writes lobby.png, round-phone.png and game-over.png
(default DIR: docs/img). A developer tool: not shipped, not run by the tests.
"""

from __future__ import annotations

import asyncio
import importlib
import itertools
import os
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

import simcord
from simcord.preview._capture import ManagedCapture

from bot.client import PandaBot
from bot.settings import Settings

# The end-to-end tests' simulated players (tests/ is not type-checked as a package).
Table: Any = importlib.import_module("tests.e2e.table").Table

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


async def _system_chromium(self: Any) -> Any:
    """SimCord's browser, launched from the system's Chromium (no downloaded browser)."""
    if self._browser is None:
        playwright: Any = importlib.import_module("playwright.async_api")
        self._playwright = await playwright.async_playwright().start()
        self._browser = await self._playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox"])
    return self._browser


async def take(out: Path) -> None:
    """Take every screenshot into ``out``."""
    ManagedCapture._ensure_browser = _system_chromium  # type: ignore[method-assign]
    seeds = itertools.count(7)
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(_env_file=None, database_path=Path(tmp) / "panda.db",  # type: ignore[call-arg]
                            discord_token=None, default_turn_timeout=120,
                            health_file=Path(tmp) / "health")
        bot = PandaBot(settings, seed_source=lambda: next(seeds))
        async with simcord.run(bot) as env:
            table = await Table.create(env, ["Mei", "Bao", "Lin"])
            viewer = table["Mei"]
            await viewer.slash(table.channel, "royale new", mischief=True)
            for name in ("Bao", "Lin"):
                await table[name].click(table.channel.last_message, label="Join")
            lobby = table.channel.last_message
            async with env.preview(table.channel, viewers=[viewer], width=720,
                                   height=640) as preview:
                await preview.screenshot(out / "lobby.png", target=lobby, allow_incomplete=True)
            await viewer.click(table.game_message(), label="Start")
            rng = random.Random(3)
            for _ in range(4):
                await table.play_decision(rng, trade_rate=0.0)
            async with env.preview(table.channel, viewers=[viewer], width=390,
                                   height=1100) as preview:
                await preview.screenshot(out / "round-phone.png", target=table.game_message(),
                                         allow_incomplete=True)
            await table.play_to_end(rng, trade_rate=0.3)
            final = table.channel.history()[-1]
            async with env.preview(table.channel, viewers=[viewer], width=720,
                                   height=900) as preview:
                await preview.screenshot(out / "game-over.png", target=final,
                                         allow_incomplete=True)
            await bot.close()


def main(argv: list[str]) -> int:
    """``python -m tools.screenshots [OUT_DIR]``."""
    out = Path(argv[0] if argv else "docs/img")
    out.mkdir(parents=True, exist_ok=True)
    asyncio.run(take(out))
    print(f"wrote {', '.join(sorted(p.name for p in out.glob('*.png')))} in {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
