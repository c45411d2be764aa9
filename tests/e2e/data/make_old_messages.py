"""Make the fixtures of tests/e2e/test_old_buttons.py: games left by the OLD Discord layer.

A developer script, not run by the tests. It plays, with the bot of the ``main`` branch before
the Discord layer was rebuilt on items and cards (``ui/hub.py``, ``ui/components.py``,
``cogs/core.py``: messages of content, embeds and action rows), in SimCord, to the states
whose messages people may still click after the new bot is deployed:

- ``lobby_join``, ``lobby_cpu``, ``lobby_start``: an open Royale lobby with two people (three
  of them: a click turns the message it is on into a new card, so each old button that is
  tried needs a message of its own), with the old per-level computer BUTTONS;
- ``royale_draft``: a Royale game in round 1, a person to pick a die from the pool;
- ``royale_over``: a finished Royale game's game-over message (Score sheet, Game log, Review,
  Replay, Rematch), and ``replay``: the replay its Replay button opened for bob, privately
  (First / Previous / Next / Last);
- ``posing_hold``, ``posing_roll``, ``posing_fill``: a Posing Pandas turn (the dice toggles,
  Roll, the box select), one message for each old component tried;
- ``help``, ``mydata_forget``: private answers of no game with buttons (/help's page buttons,
  /mydata forget's question).

It writes, beside itself:

- ``old_games.db``: the SQLite database the old bot wrote (vacuumed into one small file; only
  ``shard_hearing`` is set to SimCord's clock: :func:`heard_when_stopped`);
- ``old_messages.json``: the guild, its channels and members (their ids: the database names
  them), the bot's user id, SimCord's clock at the end, and every message of the bot that the
  database refers to or that a state above names, as SimCord stored it from the old bot's
  requests (the Discord API's message object: id, channel_id, content, embeds, components,
  attachments' metadata, flags...), and the ids of the games in each state.

Run it from the ``main`` checkout, with its virtualenv (the old code is imported from there)::

    cd /work/main && PYTHONPATH=/work/main .venv/bin/python \
        /work/wt-discord/tests/e2e/data/make_old_messages.py

Reproducible: SimCord 3.2.1's clock starts at 2026-01-01T00:00:00Z and allocates snowflakes in
order, so the same calls make the same ids; the games' seeds are 1000, 1001, ... (the e2e
conftest's, ``E2E_SEED=1``) and the players' choices come from ``random.Random(2)``; the
settings are the e2e conftest's (``default_turn_timeout=120``, no token, SQLite).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import sqlite3
import sys
import tempfile
from pathlib import Path
from typing import Any

import simcord
from simcord.backend import serializers

from bot.client import PandaBot
from bot.settings import Settings
from tests.e2e.table import Table, components, refused, verb

HERE = Path(__file__).resolve().parent
DB_OUT = HERE / "old_games.db"
JSON_OUT = HERE / "old_messages.json"
NAMES = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"]
SEED_BASE = 1000
CHOICES_SEED = 2


def at(table: Table, channel: Any) -> Table:
    """The same guild and members, in another channel."""
    return Table(table.env, table.guild, channel, table.members, table.by_id)


async def ok(res: Any) -> Any:
    assert res.acknowledged and not refused(res), [
        getattr(r, "content", None) for r in [res.response, *res.followups] if r]
    return res


async def lobby(t: Table, kind: str, host: str, guests: list[str]) -> Any:
    await ok(await t[host].slash(t.channel, f"{kind} new"))
    msg = t.channel.last_message
    for name in guests:
        await ok(await t[name].click(msg, label="Join"))
    return t.channel.last_message


async def started(t: Table, kind: str, host: str, guests: list[str]) -> None:
    msg = await lobby(t, kind, host, guests)
    await ok(await t[host].click(msg, label="Start"))


async def game_id_in(env: simcord.Env, channel: Any) -> int:
    game = await env.bot.service.db.games.latest_in_channel(channel.id)
    assert game is not None
    return int(game.id)


async def make(work: Path) -> dict[str, Any]:
    settings = Settings(_env_file=None, database_path=work / "panda.db",  # type: ignore[call-arg]
                        database_url=None, discord_token=None, default_turn_timeout=120)
    seeds = itertools.count(SEED_BASE)
    bot = PandaBot(settings, seed_source=lambda: next(seeds))
    env = simcord.Env(bot)
    await env.start()
    rng = random.Random(CHOICES_SEED)
    states: dict[str, dict[str, Any]] = {}
    try:
        with env.time_context():
            base = await Table.create(env, NAMES)
            chan = {name: base.guild.create_text_channel(name.replace("_", "-"))
                    for name in ("royale_over", "royale_draft", "lobby_join", "lobby_cpu",
                                 "lobby_start", "posing_hold", "posing_roll", "posing_fill")}

            # (c) a finished Royale game: its game-over message.
            t = at(base, chan["royale_over"])
            await started(t, "royale", "alice", ["bob"])
            await t.play_to_end(rng)
            over = t.channel.history()[-1]
            assert {verb(c.custom_id) for c in components(over)} >= {
                "log", "review", "replay", "rematch"}
            states["royale_over"] = {"message_id": over.id}
            # ... and the replay it opens for bob, privately (First/Previous/Next/Last).
            res = await t["bob"].click(over, label="Replay")
            replay = next(r for r in [res.response, *res.followups] if r and r.ephemeral)
            states["replay"] = {"message_id": replay.id, "user": t["bob"].id}

            # (b) a Royale game mid-round, a person to pick a die.
            t = at(base, chan["royale_draft"])
            await started(t, "royale", "dave", ["erin"])
            for _ in range(20):
                msg = t.game_message()
                if any(verb(c.custom_id) == "pick" for c in components(msg)):
                    break
                assert await t.play_decision(rng)
            else:
                raise AssertionError("no draft came")
            states["royale_draft"] = {"message_id": msg.id,
                                      "decider": t.decider(msg).id}  # type: ignore[union-attr]

            # (a) open Royale lobbies with two people each.
            for name, host, guest in (("lobby_join", "alice", "bob"), ("lobby_cpu", "bob", "carol"),
                                      ("lobby_start", "carol", "dave")):
                msg = await lobby(at(base, chan[name]), "royale", host, [guest])
                states[name] = {"message_id": msg.id}

            # (d) Posing Pandas turns, the first player to roll.
            for name, host, guest in (("posing_hold", "erin", "frank"),
                                      ("posing_roll", "frank", "grace"),
                                      ("posing_fill", "grace", "heidi")):
                t = at(base, chan[name])
                await started(t, "posing", host, [guest])
                msg = t.game_message()
                states[name] = {"message_id": msg.id,
                                "decider": t.decider(msg).id}  # type: ignore[union-attr]

            states["replay"]["channel_id"] = chan["royale_over"].id
            for name, channel in chan.items():
                states[name]["channel_id"] = channel.id
                states[name]["game_id"] = await game_id_in(env, channel)

            # (e) messages of no game, only their asker sees: /help's page buttons, the
            # question of /mydata forget (Forget me, Keep my data).
            for name, who, command in (("help", "erin", "help"),
                                       ("mydata_forget", "heidi", "mydata forget")):
                res = await base[who].slash(base.channel, command)
                assert res.acknowledged and res.response is not None
                states[name] = {"message_id": res.response.id, "channel_id": base.channel.id,
                                "user": base[who].id}
            await env.settle()
            backend = env.backend
            world = {
                "guild": {"id": base.guild.id, "name": "Pandas"},
                "channels": [{"id": c.id, "name": backend.get_channel(c.id).name}
                             for c in [base.channel, *chan.values()]],
                "members": [{"id": m.id, "name": n} for n, m in base.members.items()],
                "bot_user_id": backend.bot_user.id,
                "application_id": backend.application_id,
                "clock_elapsed_s": backend.clock.elapsed,
            }
    finally:
        await env.shutdown()
        if not bot.is_closed():
            await bot.close()  # its database too (else its worker thread keeps the process)
    heard_when_stopped(work / "panda.db", backend.clock.now().timestamp())
    referred = referenced_messages(work / "panda.db")
    wanted = referred | {s["message_id"] for s in states.values()}
    messages = []
    for stored in backend.messages.values():
        for message in stored.values():
            if message.id in wanted and message.author_id == backend.bot_user.id:
                messages.append(dict(serializers.message_payload(backend, message)))
    messages.sort(key=lambda m: int(m["id"]))
    found = {int(m["id"]) for m in messages}
    return {"simcord": simcord.__version__, "seed_base": SEED_BASE,
            "choices_seed": CHOICES_SEED, **world, "states": states,
            "missing_from_discord": sorted(wanted - found), "messages": messages}


def heard_when_stopped(db: Path, now_s: float) -> None:
    """When the old bot last heard its players (``shard_hearing``), by SimCord's clock.

    The bot's heartbeat thread and its close write it with the machine's clock, which SimCord's
    virtual clock (2026-01-01...) does not reach: left so, the new bot would find that it heard
    its players in the future. In Discord both are the same clock: this sets it to SimCord's
    time when the old bot stopped, as it would have been.
    """
    conn = sqlite3.connect(db)
    try:
        with conn:
            conn.execute("UPDATE shard_hearing SET heard_ms = ?", (int(now_s * 1000),))
    finally:
        conn.close()


def referenced_messages(db: Path) -> set[int]:
    """Every message id the database stores (any column named ``*message_id``)."""
    conn = sqlite3.connect(db)
    try:
        ids: set[int] = set()
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        for table in tables:
            for col in conn.execute(f"PRAGMA table_info({table})"):
                if col[1].endswith("message_id"):
                    ids |= {int(v) for (v,) in conn.execute(
                        f"SELECT {col[1]} FROM {table} WHERE {col[1]} IS NOT NULL")}
        return ids
    finally:
        conn.close()


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        out = asyncio.run(make(work))
        DB_OUT.unlink(missing_ok=True)
        conn = sqlite3.connect(work / "panda.db")
        try:
            conn.execute("VACUUM INTO ?", (str(DB_OUT),))
        finally:
            conn.close()
    JSON_OUT.write_text(json.dumps(out, indent=1, ensure_ascii=False, sort_keys=True) + "\n",
                        encoding="utf-8")
    print(f"{DB_OUT.name}: {DB_OUT.stat().st_size} bytes; {JSON_OUT.name}: "
          f"{len(out['messages'])} messages, {JSON_OUT.stat().st_size} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
