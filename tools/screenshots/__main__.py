"""``python -m tools.screenshots [--all] [DIR]``: pictures of the bot's messages, taken from the
real bot in SimCord (a simulated Discord) with SimCord's preview and a headless Chromium.

Without ``--all``: the README's pictures (lobby.png, round-phone.png, game-over.png; default DIR
docs/img). With ``--all``: every view a player meets, each at phone width (390 px) and at
desktop width (1000 px), named ``<view>-390.png`` and ``<view>-1000.png``, and a report of each
one's height and of what a whole 4-player game leaves in its channel (heights.txt).

Needs ``pip install playwright`` and a Chromium (``apt-get install chromium``: /usr/bin/chromium,
or set CHROMIUM); no ``playwright install``. A developer tool: not shipped, not run by the tests.
"""

from __future__ import annotations

import asyncio
import importlib
import io
import itertools
import os
import random
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import simcord
from PIL import Image
from simcord.preview._capture import ManagedCapture

from bot.client import PandaBot
from bot.settings import Settings
from ui.cards import Emojis

# The end-to-end tests' simulated players (tests/ is not type-checked as a package).
_table: Any = importlib.import_module("tests.e2e.table")
Table: Any = _table.Table
components: Callable[[Any], list[Any]] = _table.components
text_of: Callable[[Any], str] = _table.text_of
verb: Callable[[str | None], str] = _table.verb
private: Callable[[Any], Any] = _table.private

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
PHONE = 390
DESKTOP = 1000
TALL = 4000
HEADER = 45
"""The channel header's height in a channel capture at phone width."""
"""The preview's height: taller than any message, so that none is cut."""
PEOPLE = ["Mei", "Bao", "Lin", "Ana", "Kai"]
MORE_PEOPLE = ["Kiwi", "Yuzu", "Miso", "Nori", "Taro"]
"""With :data:`PEOPLE`, the ten people of the 10-player game."""


async def _system_chromium(self: Any) -> Any:
    """SimCord's browser, launched from the system's Chromium (no downloaded browser)."""
    if self._browser is None:
        playwright: Any = importlib.import_module("playwright.async_api")
        self._playwright = await playwright.async_playwright().start()
        self._browser = await self._playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox"])
    return self._browser


def _emoji_assets(env: Any) -> dict[str, tuple[str, bytes]]:
    """The dice emojis' pictures, where the preview looks for them."""
    drawn = Emojis.wanted()
    assets = {}
    for emoji in env.backend.application_emojis.values():
        if emoji.name in drawn:
            assets[f"https://cdn.simcord.invalid/emojis/{emoji.id}.png"] = (
                f"{emoji.id}.png", drawn[emoji.name][1])
    return assets


class Camera:
    """Shoots messages of one table at phone and desktop width, and notes their heights."""

    def __init__(self, env: Any, table: Any, viewer: Any, out: Path) -> None:
        self.env, self.table, self.viewer, self.out = env, table, viewer, out
        self.heights: dict[str, tuple[int, int]] = {}
        self.assets = _emoji_assets(env)

    async def height(self, target: Any, width: int = PHONE, channel: Any = None) -> int:
        """The height in pixels of ``target`` shown ``width`` wide."""
        png = await self._capture(target, width, None, channel)
        return Image.open(io.BytesIO(png)).height

    async def channel_view(self, name: str, last: Any, viewer: Any) -> int:
        """``<name>-390.png``: the channel as ``viewer``'s phone shows it, scrolled to ``last``
        (one author's messages grouped under one name, as Discord groups them); returns the
        height of its messages in pixels (from the first to the composer).
        """
        path = self.out / f"{name}-{PHONE}.png"
        async with self.env.preview(self.table.channel, viewers=[viewer], width=PHONE,
                                    height=TALL, assets=self.assets) as preview:
            await preview.screenshot(path, viewer=viewer, target=last, mode="viewport",
                                     layout="channel", allow_incomplete=True)
        return _messages_height(Image.open(path).convert("RGB"))

    async def _capture(self, target: Any, width: int, path: Path | None, channel: Any) -> bytes:
        async with self.env.preview(channel or self.table.channel, viewers=[self.viewer],
                                    width=width, height=TALL, assets=self.assets) as preview:
            shot = await preview.screenshot(path, target=target, allow_incomplete=True)
        return path.read_bytes() if path is not None else shot.png

    async def shoot(self, name: str, target: Any, channel: Any = None) -> None:
        """``<name>-390.png`` and ``<name>-1000.png``, and their heights."""
        sizes = []
        for width in (PHONE, DESKTOP):
            path = self.out / f"{name}-{width}.png"
            png = await self._capture(target, width, path, channel)
            sizes.append(Image.open(io.BytesIO(png)).height)
        self.heights[name] = (sizes[0], sizes[1])
        print(f"{name:<22} {sizes[0]:>5} px at {PHONE}   {sizes[1]:>5} px at {DESKTOP}")


def _messages_height(shot: Image.Image) -> int:
    """The height of the messages in a channel capture: from the first thing drawn below the
    channel's header to the last one above the message composer (the last thing drawn).
    """
    rgb = shot.convert("RGB")
    width = rgb.width
    data = cast(list[tuple[int, int, int]], list(rgb.get_flattened_data()))
    background = Counter(data[y * width + x] for x in range(0, width, 7)
                         for y in range(0, rgb.height, 13)).most_common(1)[0][0]

    def drawn(y: int) -> bool:
        return any(sum(abs(a - b) for a, b in zip(data[y * width + x], background, strict=True))
                   > 40 for x in range(0, width, 3))

    runs: list[tuple[int, int]] = []
    start: int | None = None
    for y in range(HEADER, rgb.height):
        if drawn(y) and start is None:
            start = y
        elif not drawn(y) and start is not None:
            runs.append((start, y))
            start = None
    if start is not None:
        runs.append((start, rgb.height))
    return runs[-2][1] - runs[0][0] if len(runs) >= 2 else 0


async def _click(actor: Any, message: Any, wanted: str) -> Any:
    """``actor`` clicks the button of ``message`` that does ``wanted`` (in any language)."""
    button = next(c for c in components(message) if verb(c.custom_id) == wanted)
    return await actor.click(message, custom_id=button.custom_id)


def _has(message: Any, *verbs: str) -> bool:
    return any(verb(c.custom_id) in verbs for c in components(message))


async def _open(table: Any, host: Any, channel: Any, players: list[str], computers: int = 0,
                **options: Any) -> Any:
    await host.slash(channel, "royale new", **options)
    lobby = channel.last_message
    for name in players:
        await table[name].click(lobby, label="Join")
    for _ in range(computers):
        await table.add_computer(host, channel.last_message, "normal")
    return channel.last_message


async def four_players(cam: Camera, rng: random.Random) -> None:
    """A 4-player Mayhem game shot on the way: lobby, draft, trade, mischief, Cannon, status,
    score sheet, closed round, game over, review, replay; then what it left in the channel.
    """
    table, mei = cam.table, cam.viewer
    lobby = await _open(table, mei, table.channel, PEOPLE[1:4], mischief=True, cannon=True,
                        mercenary=True)
    await cam.shoot("lobby", lobby)
    await mei.click(lobby, label="Start")
    wanted = {"draft": ("pick",), "trade": ("pass",), "mischief": ("mtarget",),
              "cannon": ("fire",)}
    sheet_shot = status_shot = closed_shot = False
    while True:
        board = table.game_message()
        for name, verbs in list(wanted.items()):
            if _has(board, *verbs):
                await cam.shoot(name, board)
                del wanted[name]
        if not status_shot:
            res = await mei.slash(table.channel, "royale status")
            await cam.shoot("status", res)
            status_shot = True
        if not sheet_shot and "Round 3/10" in text_of(board):
            sheet = next(c for c in components(board) if verb(c.custom_id) == "sheet")
            await cam.shoot("score-sheet",
                           private(await mei.click(board, custom_id=sheet.custom_id)))
            sheet_shot = True
        closed = [m for m in table.channel.history()
                  if text_of(m).startswith("-# **Round 1/10**")]
        if not closed_shot and closed:
            await cam.shoot("closed-round", closed[0])
            closed_shot = True
        if not await table.play_decision(rng, trade_rate=0.6):
            break
    final = table.channel.history()[-1]
    await cam.shoot("game-over", final)
    review = next(c for c in components(final) if verb(c.custom_id) == "review")
    await cam.shoot("review", private(await mei.click(final, custom_id=review.custom_id)))
    replay = next(c for c in components(final) if verb(c.custom_id) == "replay")
    await cam.shoot("replay", private(await mei.click(final, custom_id=replay.custom_id)))
    left = table.channel.history()
    total = 0
    for message in left:
        total += await cam.height(message)
    print(f"a whole 4-player game leaves {len(left)} messages, {total} px at {PHONE} "
          f"({total / 650:.1f} phone screens of 650 px); missed: {sorted(wanted)}")
    seen = await cam.channel_view("channel-after-game", left[-1], table[PEOPLE[4]])
    print(f"as a member outside the game sees the channel: {seen} px at {PHONE} "
          f"({seen / 650:.1f} phone screens)")
    cam.heights["channel after a 4-player game"] = (seen, len(left))


async def ten_players(cam: Camera, rng: random.Random) -> None:
    """A 10-player Mayhem game of ten people: a round-10 card (a mischief or a trade: the last
    round has no draft) and the game over, every player's dice of round 10 in the picture.
    """
    table, mei = cam.table, cam.viewer
    for name in MORE_PEOPLE:
        member = table.guild.add_member(table.env.create_user(name))
        table.members[name] = member
        table.by_id[member.id] = member
    channel = table.guild.create_text_channel("ten")
    lobby = await _open(table, mei, channel, [*PEOPLE[1:], *MORE_PEOPLE], mischief=True,
                        cannon=True, mercenary=True)
    await mei.click(lobby, label="Start")
    table.channel, home = channel, table.channel
    try:
        shot = False
        while True:
            card = table.game_message()
            if not shot and "Round 10/10" in text_of(card) and table.decider(card):
                await cam.shoot("round10-10-players", card, channel)
                shot = True
            if not await table.play_decision(rng, trade_rate=0.5):
                break
        await cam.shoot("game-over-10-players", table.game_message(), channel)
    finally:
        table.channel = home


async def other_language(cam: Camera, language: str) -> None:
    """A draft in another language (a two-player game with a computer)."""
    table, mei = cam.table, cam.viewer
    channel = table.guild.create_text_channel(f"games-{language}")
    lobby = await _open(table, mei, channel, [], computers=1, language=language)
    await _click(mei, lobby, "start")
    home, table.channel = table.channel, channel
    try:
        await cam.shoot(f"draft-{language}", table.game_message(), channel)
    finally:
        table.channel = home


async def elsewhere(cam: Camera) -> None:
    """The leaderboard, a member's stats and a Posing Pandas turn."""
    table, mei = cam.table, cam.viewer
    await mei.slash(table.channel, "leaderboard", computers=True)
    await cam.shoot("leaderboard", table.channel.last_message)
    res = await mei.slash(table.channel, "stats")
    await cam.shoot("stats", res)
    channel = table.guild.create_text_channel("posing")
    await mei.slash(channel, "posing new")
    await mei.click(channel.last_message, label="Start")
    card = next(m for m in reversed(channel.history()) if components(m))  # not the ping
    await cam.shoot("posing-turn", card, channel)


async def take_all(out: Path) -> None:
    """Every view at both widths, and the heights report."""
    ManagedCapture._ensure_browser = _system_chromium  # type: ignore[method-assign]
    seeds = itertools.count(7)
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(_env_file=None, database_path=Path(tmp) / "panda.db",  # type: ignore[call-arg]
                            discord_token=None, default_turn_timeout=120,
                            health_file=Path(tmp) / "health")
        bot = PandaBot(settings, seed_source=lambda: next(seeds))
        env = simcord.Env(bot)
        for name in Emojis.wanted():  # the emojis a first start made
            env.backend.create_application_emoji(name)
        await env.start()
        try:
            await bot.tree.sync()
            while not len(bot.dice_emojis):
                await asyncio.sleep(0.05)
            table = await Table.create(env, PEOPLE)
            cam = Camera(env, table, table["Mei"], out)
            rng = random.Random(3)
            await four_players(cam, rng)
            await ten_players(cam, rng)
            await other_language(cam, "ja")
            await other_language(cam, "es")
            await elsewhere(cam)
            lines = [f"{name}: {a} px at {PHONE} seen by a member outside the game ({b} messages)"
                     if name.startswith("channel") else
                     f"{name}: {a} px at {PHONE}, {b} px at {DESKTOP}"
                     for name, (a, b) in cam.heights.items()]
            (out / "heights.txt").write_text("\n".join(lines) + "\n")
        finally:
            await bot.close()
            await env.shutdown()


def main(argv: list[str]) -> int:
    """``python -m tools.screenshots [--all] [OUT_DIR]``."""
    rest = [a for a in argv if a != "--all"]
    out = Path(rest[0] if rest else "docs/img")
    out.mkdir(parents=True, exist_ok=True)
    if "--all" not in argv:
        raise SystemExit("the README's pictures: run with --all into a scratch directory and "
                         "copy lobby-1000.png, draft-390.png and game-over-1000.png")
    asyncio.run(take_all(out))
    print(f"wrote {len(list(out.glob('*.png')))} pictures and heights.txt in {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
