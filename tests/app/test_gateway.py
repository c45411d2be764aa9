"""The real discord.py client against a Discord on loopback (aiohttp: REST and a gateway
websocket) that refuses the bot's first gateway connection, then drops the next one before its
HELLO: the bot tries again with backoff and connects; it never exits."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest
import yarl
from aiohttp import WSMsgType, web
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.client import create_bot
from bot.service import GameService, Person, Place
from bot.settings import Settings
from storage import Database

USER = {"id": "1001", "username": "panda", "discriminator": "0", "global_name": None,
        "avatar": None, "bot": True}
APPLICATION = {"id": "1001", "name": "panda", "description": "", "icon": None,
               "bot_public": True, "bot_require_code_grant": False, "owner": USER,
               "verify_key": "0" * 64, "flags": 0}


def answer(payload: object) -> web.Response:
    """A JSON answer as Discord sends it (discord.py reads exactly ``application/json``)."""
    return web.Response(body=json.dumps(payload).encode(),
                        headers={"Content-Type": "application/json"})


class FakeDiscord:
    """REST for login, and a gateway whose first connections fail as listed in ``plan``:
    ``"refuse"`` answers the handshake with 503, ``"drop"`` closes the socket before HELLO,
    anything after the plan is a gateway that says HELLO and, on IDENTIFY, READY."""

    def __init__(self, plan: list[str], guild_ids: list[int]) -> None:
        self.plan = plan
        self.guild_ids = guild_ids
        self.attempts = 0
        self.identified = 0

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/api/v10/users/@me", self.user)
        app.router.add_get("/api/v10/oauth2/applications/@me", self.application)
        app.router.add_get("/gateway/", self.gateway)
        return app

    async def user(self, _: web.Request) -> web.Response:
        return answer(USER)

    async def application(self, _: web.Request) -> web.Response:
        return answer(APPLICATION)

    async def gateway(self, request: web.Request) -> web.StreamResponse:
        self.attempts += 1
        step = self.plan[self.attempts - 1] if self.attempts <= len(self.plan) else "serve"
        if step == "refuse":
            return web.Response(status=503, text="upstream unavailable")
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        if step == "drop":
            await ws.close(code=1011)
            return ws
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 45000}}))
        async for message in ws:
            if message.type is not WSMsgType.TEXT:
                continue
            payload = json.loads(message.data)
            if payload.get("op") == 2:
                self.identified += 1
                await ws.send_str(json.dumps({"op": 0, "t": "READY", "s": 1, "d": {
                    "v": 10, "user": USER, "session_id": "s1",
                    "guilds": [{"id": str(g), "unavailable": True} for g in self.guild_ids],
                    "resume_gateway_url": str(request.url.with_query(None)),
                    "application": {"id": APPLICATION["id"], "flags": 0}}}))
            elif payload.get("op") == 1:
                await ws.send_str(json.dumps({"op": 11}))
        return ws


GUILD = 5 << 22
TIMEOUT_S = 30


async def waiting_game(path: Path) -> tuple[int, int]:
    """A game whose person has 10 of their 30 s left, in a database whose bot last heard its
    players 20 s into the turn, a minute ago: (its id, its deadline)."""
    db = await Database.open(path)
    service = GameService(db, clock=lambda: int(time.time() * 1000) - 60_000)
    game = await service.new_lobby(kind="royale", place=Place(GUILD, 77),
                                   host=Person(1, "ann"),
                                   settings={"turn_timeout": TIMEOUT_S})
    await service.join(game.id, Person(2, "bob"))
    game = (await service.start(game.id, Person(1, "ann"))).game
    assert game.deadline_ms is not None
    heard = game.deadline_ms - 10_000
    await db.shown.heard(1, [0], heard)
    await service.close()
    await db.close()
    return game.id, game.deadline_ms


@pytest.mark.parametrize("plan", [["refuse"], ["refuse", "drop", "refuse"]])
async def test_a_gateway_that_fails_the_first_connections_is_tried_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, plan: list[str]) -> None:
    """Down a minute, then the gateway fails the first connections: the bot tries again and
    connects, and the waiting person's deadline gets back the 10 s it had left, from READY."""
    game_id, deadline = await waiting_game(tmp_path / "bot.db")
    discord_ = FakeDiscord(plan, [GUILD])
    runner = web.AppRunner(discord_.app())
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    monkeypatch.setattr(Route, "BASE", f"http://127.0.0.1:{port}/api/v10")
    monkeypatch.setattr(DiscordWebSocket, "DEFAULT_GATEWAY",
                        yarl.URL(f"ws://127.0.0.1:{port}/gateway/"))
    settings = Settings(_env_file=None, database_path=tmp_path / "bot.db",  # type: ignore[call-arg]
                        discord_token=None, health_file=tmp_path / "health")
    bot = create_bot(settings, guild_ready_timeout=0.1)
    running = asyncio.create_task(bot.start("token"))
    try:
        ready = asyncio.create_task(bot.wait_until_ready())
        done, _ = await asyncio.wait({ready, running}, timeout=60,
                                     return_when=asyncio.FIRST_COMPLETED)
        assert ready in done, (f"not connected after {discord_.attempts} attempts: "
                               f"{running.exception() if running.done() else 'still trying'}")
        assert not running.done(), "the bot exited"
        assert discord_.attempts == len(plan) + 1 and discord_.identified == 1
        ready_ms = int(time.time() * 1000)
        await asyncio.sleep(0.5)  # READY's listeners
        game = await bot.service.db.games.get(game_id)
        assert game is not None and game.status == "active"
        assert [a for a in await bot.service.db.games.action_log(game_id)] == []
        assert game.deadline_ms is not None and game.deadline_ms > deadline
        assert ready_ms + 9_000 <= game.deadline_ms <= ready_ms + 11_000
    finally:
        await bot.close()
        await asyncio.wait_for(running, timeout=30)
        await runner.cleanup()
    assert running.exception() is None

