"""One bot cluster in its own process, for the two-cluster test: the real bot
(:class:`bot.client.ShardedPandaBot` on ``SHARD_COUNT=2``, ``SHARD_IDS=<shard>``) on a shared
PostgreSQL, inside SimCord, with simulated players in servers (guilds) of its shard.

``python -m tests.cluster.node --db URL --shard K --world FILE [--hold-commit N]``

SimCord lives in the bot's process, so the simulated Discord of this cluster is saved to
``FILE`` (a pickle of SimCord's in-memory backend: guilds, channels, messages, the virtual
clock) after every command; a cluster killed with SIGKILL and started again finds Discord as
it was after its last completed command, the way real Discord outlives a bot process.

Commands on stdin, one per line; each answers lines on stdout and ends with ``OK``:
``open``     each table opens a Panda Royale game: two people and a computer player.
``play N``   N rounds in which each table makes the decision its game message waits on.
``wait S``   S seconds of (virtual) time pass: turn timers fire.
``status``   ``GAME <id> <status> <version>`` for each table's game.
``season``   each table's server runs monthly seasons, its podium in the table's channel.
``podiums``  ``PODIUMS <guild> <n>``: the season podiums this Discord shows in each table's
             channel.
``join``     Discord tells the bot it joined each table's server, as it does for a join (a
             GUILD_CREATE without ``unavailable``), the bot's membership as saved: two
             processes started from one saved world hear the same join.
``greetings`` ``GREETINGS <guild> <n>``: the bot's greetings this Discord shows in each
             table's channel.
``quit``     shut down normally.
Before its ``READY`` and each ``OK`` the cluster checks the requests its bot sent since the last
check against Discord's OpenAPI description (tests/discord_requests.py) and writes a
``BREACH <what>`` line for each breach; the parent fails on such a line.
With ``--hold-commit N`` the N-th game-moving write prints ``COMMITTING <game> <version>``
before it commits (a transaction: every write done, COMMIT not issued; a move on PostgreSQL,
one statement: before it is sent) and waits there (for a SIGKILL).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import pickle
import random
import signal
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import simcord
from simcord.actors import MemberActor
from simcord.backend import serializers
from simcord.builders import ChannelHandle, GuildHandle, UserHandle

from bot.client import create_bot
from bot.settings import Settings
from cogs.greeting import greeting_card
from tests.e2e.conftest import dice_emojis_made
from tests.e2e.table import Table, text_of
from tools.crashdrill.hold import hold_commits
from tools.discord_api.check import checker
from ui.i18n import ENGLISH

SHARD_COUNT = 2
TABLES = 2
TURN_TIMEOUT = 30
PLAYERS = ("alice", "bob")
_NOT_SAVED = ("subscribers", "http_requests", "transcript")


def say(*words: object) -> None:
    """One protocol line, flushed at once (the parent may kill right after reading it)."""
    sys.stdout.write(" ".join(str(w) for w in words) + "\n")
    sys.stdout.flush()


def save_world(env: Any, path: Path) -> None:
    """Write SimCord's backend (what Discord knows) atomically to ``path``."""
    state = {k: v for k, v in vars(env.backend).items() if k not in _NOT_SAVED}
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(pickle.dumps(state))
    os.replace(tmp, path)


def load_world(env: Any, path: Path) -> None:
    """Put the saved Discord back into a new environment (before it starts)."""
    for key, value in pickle.loads(path.read_bytes()).items():
        setattr(env.backend, key, value)


def new_tables(env: Any, shard: int) -> list[Table]:
    """Guilds on this cluster's shard, each with a #games channel and two members."""
    tables = []
    for n in range(TABLES):
        guild = env.create_guild(f"Pandas {shard}-{n}", shard_id=shard)
        channel = guild.create_text_channel("games")
        members = {p: guild.add_member(env.create_user(f"{p}{shard}{n}")) for p in PLAYERS}
        tables.append(_table(env, guild, channel, members))
    return tables


def found_tables(env: Any) -> list[Table]:
    """The tables of a restored Discord (handles rebuilt around the saved models)."""
    tables = []
    users = env.backend.users
    for guild_model in sorted(env.backend.guilds.values(), key=lambda g: g.id):
        guild = GuildHandle(env, guild_model)
        channel_model = next(c for c in env.backend.channels.values()
                             if getattr(c, "guild_id", None) == guild_model.id
                             and c.name == "games")
        channel = ChannelHandle(env, guild, channel_model)
        members = {}
        suffix = guild_model.name.split()[-1].replace("-", "")
        for p in PLAYERS:
            user = next(u for u in users.values() if u.name == f"{p}{suffix}")
            members[p] = MemberActor(env, guild, UserHandle(env, user))
        tables.append(_table(env, guild, channel, members))
    return tables


def _table(env: Any, guild: Any, channel: Any, members: dict[str, Any]) -> Table:
    table = Table(env, guild, channel, members)
    table.by_id = {m.id: m for m in members.values()}
    return table


class Node:
    """The cluster process: its bot in SimCord, its tables, the command loop."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.world = Path(args.world)
        self.rng = random.Random(args.shard * 7919 + args.seed)
        self.tables: list[Table] = []
        self.games: dict[int, int] = {}  # table index -> game id
        self.commits = 0
        self.checked = 0  # requests of env.http_requests checked so far

    def make_bot(self) -> Any:
        settings = Settings(  # type: ignore[call-arg]
            _env_file=None, database_url=self.args.db, discord_token=None,
            default_turn_timeout=TURN_TIMEOUT, shard_count=SHARD_COUNT,
            shard_ids=str(self.args.shard))
        seeds = itertools.count(10_000 * (self.args.shard + 1) + self.args.seed)
        return create_bot(settings, seed_source=lambda: next(seeds))

    async def hook(self, game_id: int, version: int) -> None:
        """Called inside each game-moving write before it commits
        (:func:`tools.crashdrill.hold.hold_commits`): holds the chosen one."""
        self.commits += 1
        if self.commits == self.args.hold_commit:
            say("COMMITTING", game_id, version)
            await asyncio.Event().wait()  # until SIGKILL

    async def run(self) -> None:
        asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, dump_tasks)
        bot = self.make_bot()
        env = simcord.Env(bot)
        restored = self.world.exists()
        if restored:
            load_world(env, self.world)
        else:  # the dice emojis an earlier deploy made (a restored Discord holds them)
            dice_emojis_made(env.backend)
        await env.start()
        with env.time_context():
            if not restored:
                await bot.tree.sync()  # this simulated Discord's one-off `./dev sync`
                self.tables = new_tables(env, self.args.shard)
            else:
                self.tables = found_tables(env)
            hold_commits(bot.service.db, self.hook)
            save_world(env, self.world)
            self.check_requests(env)
            say("READY", "restored" if restored else "fresh", len(self.tables))
            await self.loop(env)
            await env.shutdown()

    async def loop(self, env: Any) -> None:
        reader = asyncio.StreamReader()
        await asyncio.get_running_loop().connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
        while True:
            line = (await reader.readline()).decode()
            words = line.split()
            if not words or words[0] == "quit":
                return
            await self.command(env, words[0], [int(w) for w in words[1:]])
            save_world(env, self.world)
            self.check_requests(env)
            say("OK")

    def check_requests(self, env: Any) -> None:
        """A ``BREACH`` line for each breach of Discord's description in the requests the bot
        sent since the last check."""
        sent = env.http_requests
        for breach in checker().check_all(sent[self.checked:]):
            say("BREACH", breach)
        self.checked = len(sent)

    async def command(self, env: Any, verb: str, args: list[int]) -> None:
        if verb == "open":
            for table in self.tables:
                await open_game(table)
        elif verb == "play":
            for _ in range(args[0]):
                for table in self.tables:
                    if await self.is_open(table):
                        say("PLAYED", await decide(table, self.rng))
                        save_world(env, self.world)  # Discord as of the last decision
        elif verb == "wait":
            # A long wait wakes the bot's timers many times (the season check: hourly).
            before, env.settle_timeout = env.settle_timeout, max(env.settle_timeout,
                                                                 args[0] / 3600)
            try:
                await env.advance_time(args[0])
            finally:
                env.settle_timeout = before
        elif verb == "status":
            for table in self.tables:
                game = await env.bot.service.db.games.latest_in_channel(table.channel.id)
                say("GAME", game.id, game.status, game.version)
        elif verb == "season":
            for table in self.tables:
                await env.bot.servers.set_season(
                    table.guild.id, manager=True, length="monthly", here=table.channel.id)
        elif verb == "podiums":
            for table in self.tables:
                shown = [m for m in table.channel.history()
                         if text_of(m).startswith("### 🏆 Season")
                         and ": the podium" in text_of(m)]
                say("PODIUMS", table.guild.id, len(shown))
        elif verb == "join":
            for table in self.tables:
                payload = dict(serializers.guild_create_payload(
                    env.backend, env.backend.guilds[table.guild.id]))
                del payload["unavailable"]  # Discord leaves it out of a join's GUILD_CREATE
                env.backend.emit("GUILD_CREATE", payload)
            await env.settle()
        elif verb == "greetings":
            greeting = text_of(SimpleNamespace(components=greeting_card(ENGLISH).to_components()))
            bot_id = env.backend.bot_user.id
            for table in self.tables:
                shown = [m for m in table.channel.history() if m.author.id == bot_id
                         and text_of(m) == greeting]
                say("GREETINGS", table.guild.id, len(shown))

    async def is_open(self, table: Table) -> bool:
        game = await table.env.bot.service.db.games.latest_in_channel(table.channel.id)
        return game is not None and game.is_open


async def open_game(table: Table) -> None:
    """Alice opens a game, Bob joins, Alice adds a computer player and starts."""
    alice, bob = table["alice"], table["bob"]
    await alice.slash(table.channel, "royale new", turn_timeout=TURN_TIMEOUT)
    await bob.click(table.channel.last_message, label="Join")
    await table.add_computer(alice, table.channel.last_message, "normal")
    await alice.click(table.channel.last_message, label="Start")


async def decide(table: Table, rng: random.Random) -> str:
    """The decision the game message waits on: ``done``, ``refused`` (a stale message after a
    restart: the click is turned down politely) or ``idle`` (the message waits on nobody).
    """
    try:
        return "done" if await table.play_decision(rng) else "idle"
    except AssertionError as exc:
        return f"refused:{str(exc)[:60]!r}".replace(" ", "_")


def dump_tasks() -> None:
    """On SIGUSR1 (a hung cluster): every task's stack to stderr."""
    for task in asyncio.all_tasks():
        sys.stderr.write(f"task {task.get_name()}:\n")
        coro: Any = task.get_coro()
        while coro is not None:
            frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
            if frame is not None:
                sys.stderr.write(f"  {frame.f_code.co_filename}:{frame.f_lineno}\n")
            coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
        sys.stderr.write(f"  awaiting {task._fut_waiter!r}\n")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", required=True)
    parser.add_argument("--shard", type=int, required=True)
    parser.add_argument("--world", required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hold-commit", type=int, default=0)
    asyncio.run(Node(parser.parse_args()).run())


if __name__ == "__main__":
    main()
