"""The greeting when the bot joins a server (SimCord): posted once per join, in the server's
language (its managers' choice, else its Discord locale), in its system channel or else the
first text channel the bot may post in (a Components V2 card: it needs no embed permission),
pinging nobody; not again for the same join (a
restart, the join's GUILD_CREATE seen again, a server back from an outage), again after the
bot was removed and added back; nothing, and no error, where it may post nowhere.

SimCord marks every GUILD_CREATE ``unavailable: false``, which discord.py reads as a server
coming back from an outage (``on_guild_available``). Discord leaves the key out when the bot
joins a server (``on_guild_join``): :func:`bot_added` sends a join as Discord does, for a
server set up while the bot was not in it (:func:`unseen`).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from simcord.backend import serializers
from simcord.backend.models.channel import Overwrite
from simcord.enums import OverwriteType

from bot.client import PandaBot
from cogs.greeting import greeting_card
from tests.e2e.table import text_of
from ui.i18n import ENGLISH, tr_for

BotFactory = Callable[[], PandaBot]


@contextlib.contextmanager
def unseen(env: Any) -> Iterator[None]:
    """What happens in the simulated Discord meanwhile reaches no bot (a server set up before
    the bot is added to it)."""
    listeners = list(env.backend.subscribers)
    env.backend.subscribers.clear()
    try:
        yield
    finally:
        env.backend.subscribers[:] = listeners


def guild_create(env: Any, guild_id: int, *, join: bool) -> dict[str, Any]:
    """The server's GUILD_CREATE: as Discord sends it when the bot joins (no ``unavailable``),
    or when the server comes back from an outage (``unavailable: false``)."""
    payload = dict(serializers.guild_create_payload(env.backend, env.backend.guilds[guild_id]))
    if join:
        del payload["unavailable"]
    else:
        assert payload["unavailable"] is False
    return payload


async def bot_added(env: Any, guild: Any, *, new_join: bool = True) -> None:
    """Discord adds the bot to ``guild`` (``new_join``: its membership begins now; else the same
    join's GUILD_CREATE arrives again)."""
    backend = env.backend
    bot_id = backend.bot_user.id
    if new_join:
        roles = backend.guilds[guild.id].members[bot_id].role_ids
        backend.add_member(guild.id, bot_id, roles=roles)
    backend.emit("GUILD_CREATE", guild_create(env, guild.id, join=True))
    await env.settle()


async def bot_removed(env: Any, guild: Any) -> None:
    env.backend.emit("GUILD_DELETE", {"id": str(guild.id)})
    await env.settle()


def deny(env: Any, channel: Any, **permissions: bool) -> None:
    """Take ``permissions`` from the bot in ``channel``."""
    env.backend.set_overwrite(channel.id, Overwrite(
        target_id=env.backend.bot_user.id, type=OverwriteType.MEMBER,
        deny=discord.Permissions(**permissions).value))


def words(tr: Any) -> str:
    """The greeting's text in ``tr``'s language, as its card says it."""
    return text_of(SimpleNamespace(components=greeting_card(tr).to_components()))


def greetings(env: Any, guild: Any) -> list[tuple[str, discord.Message]]:
    """The bot's messages in the server's text channels: (channel name, message)."""
    bot_id = env.backend.bot_user.id
    return [(name, m) for name, channel in guild.channels.items()
            for m in channel.history() if m.author.id == bot_id]


def posts(env: Any, since: int) -> list[Any]:
    return [r for r in env.http_requests[since:]
            if r.method == "POST" and r.path.startswith("/channels/")]


@pytest.mark.both_backends
async def test_the_bot_greets_a_server_once_per_join(simcord_env: Any,
                                                     bot_factory: BotFactory) -> None:
    env = simcord_env
    with unseen(env):
        guild = env.create_guild("Pandabande", preferred_locale="de")
        rules = guild.create_text_channel("regeln")
        guild.create_text_channel("allgemein")
        guild.create_text_channel("spiele")
        deny(env, rules, send_messages=True)
        guild.add_member(env.create_user("anna"))
    since = len(env.http_requests)
    await bot_added(env, guild)
    (greeting,) = greetings(env, guild)
    assert greeting[0] == "allgemein"  # no system channel: the first the bot may post in
    shown = greeting[1]
    assert not shown.content and not shown.embeds  # a Components V2 card
    assert text_of(shown) == words(tr_for("de"))
    assert words(tr_for("de")) != words(ENGLISH)
    for command in ("/royale", "/posing", "/hilfe", "/einstellungen"):
        assert command in text_of(shown)
    (post,) = posts(env, since)
    assert post.json["allowed_mentions"] == {"parse": []}  # pings nobody

    # The same join seen again: its GUILD_CREATE sent again, the server back from an
    # outage, a restart (a new process) that then sees the join's GUILD_CREATE too.
    await bot_added(env, guild, new_join=False)
    env.backend.emit("GUILD_DELETE", {"id": str(guild.id), "unavailable": True})
    env.backend.emit("GUILD_CREATE", guild_create(env, guild.id, join=False))
    await env.settle()
    old = env.bot
    await env.restart_bot(bot_factory())
    await old.close()
    await bot_added(env, guild, new_join=False)
    assert len(greetings(env, guild)) == 1

    # Removed, then added back: a new join, greeted again, in the language its managers
    # chose for its games (kept while the bot was away).
    await env.bot.servers.set_language(guild.id, "fr", manager=True,
                                               known=frozenset({"fr"}))
    await bot_removed(env, guild)
    await env.advance_time(3600)
    await bot_added(env, guild)
    assert [name for name, _ in greetings(env, guild)] == ["allgemein", "allgemein"]
    assert text_of(greetings(env, guild)[1][1]) == words(tr_for("fr"))
    assert await env.bot.privacy.departures() == []  # its data stays


async def test_the_greeting_goes_to_the_system_channel_if_the_bot_may_post_there(
        simcord_env: Any) -> None:
    env = simcord_env
    servers = []
    for name, lacking in (("Open", {}), ("No embeds there", {"embed_links": True}),
                          ("No posts there", {"send_messages": True})):
        with unseen(env):
            guild = env.create_guild(name)
            guild.create_text_channel("general")
            system = guild.create_text_channel("welcome")
            env.backend.guilds[guild.id].system_channel_id = system.id
            if lacking:
                deny(env, system, **lacking)
        await bot_added(env, guild)
        servers.append(guild)
    # the card needs no embed permission; where the bot may not post, the first channel
    assert [[name for name, _ in greetings(env, g)] for g in servers] == [["welcome"],
                                                                          ["welcome"],
                                                                          ["general"]]
    shown = greetings(env, servers[0])[0][1]
    assert text_of(shown) == words(ENGLISH)  # an English-locale server


async def test_where_the_bot_may_post_nowhere_it_greets_nobody(
        simcord_env: Any, caplog: pytest.LogCaptureFixture) -> None:
    env = simcord_env
    with unseen(env):
        guild = env.create_guild("Read only")
        for name, lacking in (("news", {"send_messages": True}),
                              ("secret", {"view_channel": True}),
                              ("plain", {"send_messages": True, "embed_links": True})):
            deny(env, guild.create_text_channel(name), **lacking)
        env.backend.guilds[guild.id].system_channel_id = guild.channels["news"].id
    caplog.set_level(logging.INFO, logger="cogs.greeting")
    since = len(env.http_requests)
    await bot_added(env, guild)
    assert greetings(env, guild) == []
    assert posts(env, since) == []
    # the join was heard, and found nowhere to post (no error: the autouse check)
    assert [r.getMessage() for r in caplog.records if r.name == "cogs.greeting"] == [
        f"server {guild.id}: no channel to greet in"]
