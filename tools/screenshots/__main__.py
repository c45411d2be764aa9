"""``python -m tools.screenshots [--more] [DIR]``: the README's pictures, taken from the real bot in
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


async def _phone(env: Any, table: Any, viewer: Any, path: Path, message: Any) -> None:
    async with env.preview(table.channel, viewers=[viewer], width=390,
                           height=1100) as preview:
        await preview.screenshot(path, target=message, allow_incomplete=True)


async def _clear_first(table: Any) -> bool:
    """Draft a clear d6 when one is offered, so that a trade step comes up to be shot."""
    msg = table.game_message()
    who = table.decider(msg)
    for row in msg.components:
        for c in getattr(row, "children", [row]):
            cid = getattr(c, "custom_id", None) or ""
            if who is not None and cid.startswith("pr:pick:") and ":clear6" in cid:
                await who.click(msg, custom_id=cid)
                return True
    return False


async def _play_shooting(env: Any, table: Any, viewer: Any, out: Path, rng: random.Random,
                         shot: set[str], more: bool) -> None:
    """Play the game to its end, shooting the first trade and Cannon steps with ``more``."""
    while await _clear_first(table) or await table.play_decision(rng, trade_rate=0.3):
        msg = table.game_message()
        for verb, name in (("pass", "trade-phone.png"), ("fire", "cannon-phone.png")):
            if more and verb in _verbs(msg) and name not in shot:
                shot.add(name)
                await _phone(env, table, viewer, out / name, msg)


def _verbs(message: Any) -> set[str]:
    return {(c.custom_id or "").split(":")[1] for row in message.components
            for c in getattr(row, "children", [row]) if getattr(c, "custom_id", None)}


async def take(out: Path, more: bool = False) -> None:
    """Take every screenshot into ``out``; ``more`` adds the trade and Cannon steps, a Posing
    turn, the Posing game over and the leaderboard, at phone width.
    """
    ManagedCapture._ensure_browser = _system_chromium  # type: ignore[method-assign]
    seeds = itertools.count(7)
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(_env_file=None, database_path=Path(tmp) / "panda.db",  # type: ignore[call-arg]
                            discord_token=None, default_turn_timeout=120,
                            health_file=Path(tmp) / "health")
        bot = PandaBot(settings, seed_source=lambda: next(seeds))
        async with simcord.run(bot) as env:
            names = ["Mei", "Bao", "Lin", "Ana", "Kai"] if more else ["Mei", "Bao", "Lin"]
            table = await Table.create(env, names)
            viewer = table["Mei"]
            await viewer.slash(table.channel, "royale new", mischief=True, cannon=more)
            for name in names[1:]:
                await table[name].click(table.channel.last_message, label="Join")
            lobby = table.channel.last_message
            async with env.preview(table.channel, viewers=[viewer], width=720,
                                   height=640) as preview:
                await preview.screenshot(out / "lobby.png", target=lobby, allow_incomplete=True)
            if more:
                await _phone(env, table, viewer, out / "lobby-phone.png", lobby)
            await viewer.click(table.game_message(), label="Start")
            rng = random.Random(3)
            for _ in range(4):
                await table.play_decision(rng, trade_rate=0.0)
            async with env.preview(table.channel, viewers=[viewer], width=390,
                                   height=1100) as preview:
                await preview.screenshot(out / "round-phone.png", target=table.game_message(),
                                         allow_incomplete=True)
            shot: set[str] = set()
            await _play_shooting(env, table, viewer, out, rng, shot, more)
            if more:  # no trade came up: more games (same table) until one does
                for _ in range(6):
                    if "trade-phone.png" in shot:
                        break
                    await viewer.slash(table.channel, "royale new", cannon=True)
                    for name in names[1:]:
                        await table[name].click(table.channel.last_message, label="Join")
                    await viewer.click(table.game_message(), label="Start")
                    await _play_shooting(env, table, viewer, out, rng, shot, more)
            final = table.channel.history()[-1]
            async with env.preview(table.channel, viewers=[viewer], width=720,
                                   height=900) as preview:
                await preview.screenshot(out / "game-over.png", target=final,
                                         allow_incomplete=True)
            if more:
                await _more(env, table, viewer, out)
            await bot.close()


async def _more(env: Any, table: Any, viewer: Any, out: Path) -> None:
    """A Posing turn and its game over, then the leaderboard, at phone width."""
    player_cls: Any = importlib.import_module("tests.e2e.test_posing_game").Player
    await viewer.slash(table.channel, "posing new")
    await viewer.click(table.channel.last_message, label="Start")
    await _phone(env, table, viewer, out / "posing-turn-phone.png", table.game_message())
    await player_cls(table, random.Random(5)).play_to_end()
    await _phone(env, table, viewer, out / "posing-over-phone.png",
                 table.channel.history()[-1])
    await viewer.slash(table.channel, "leaderboard", computers=True)
    await _phone(env, table, viewer, out / "leaderboard-phone.png",
                 table.channel.history()[-1])


def main(argv: list[str]) -> int:
    """``python -m tools.screenshots [--more] [OUT_DIR]``."""
    more = "--more" in argv
    rest = [a for a in argv if a != "--more"]
    out = Path(rest[0] if rest else "docs/img")
    out.mkdir(parents=True, exist_ok=True)
    asyncio.run(take(out, more))
    print(f"wrote {', '.join(sorted(p.name for p in out.glob('*.png')))} in {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
