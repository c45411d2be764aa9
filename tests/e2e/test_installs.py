"""The user-install fixture (tests/e2e/installs.py) proved on commands that run there today
(/help, /privacy, /mydata, /reminders; /royale, a server command, in a server without the
bot): a group DM and a server without the bot reach the app only through interactions shaped
as Discord sends them to a user install; the answers go through the interaction alone, the
bot token is refused there, and restarts change nothing.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import discord
import pytest
from simcord.backend.errors import SetupError

from bot.client import PandaBot
from tests.e2e.installs import (
    APP_IN_PRIVATE_CHANNEL,
    APP_IN_SERVER,
    FOLLOWUP_CAP,
    GROUP_DM,
    USE_EXTERNAL_APPS,
    Installs,
)
from tests.e2e.table import Table, components, private, text_of


def last_interaction(env: Any) -> dict[str, Any]:
    """The payload of the newest INTERACTION_CREATE the bot got."""
    return next(p for kind, name, p in reversed(env.backend.transcript)
                if kind == "GATEWAY" and name == "INTERACTION_CREATE")


def help_page(res: Any) -> str:
    return text_of(res.response)


async def test_help_in_a_group_dm_is_answered_through_the_interaction_alone(
        table: Table) -> None:
    env = table.env
    installs = Installs.of(env)
    alice, bob = table["alice"], table["bob"]
    group = installs.group_dm([alice, bob, table["carol"]], name="pandas")
    assert env.bot.get_channel(group.id) is None
    mark = installs.mark()

    res = await installs.slash(alice, group, "help")
    assert res.acknowledged and "Page 1 of" in text_of(private(res))
    payload = last_interaction(env)
    assert payload["context"] == 2
    assert payload["authorizing_integration_owners"] == {"1": str(alice.id)}
    assert payload["app_permissions"] == str(APP_IN_PRIVATE_CHANNEL)
    assert payload["user"]["id"] == str(alice.id) and "member" not in payload
    assert "guild_id" not in payload
    assert payload["channel"]["type"] == GROUP_DM
    assert {u["id"] for u in payload["channel"]["recipients"]} == {
        str(alice.id), str(bob.id), str(table["carol"].id)}

    # the page menu of the (ephemeral) answer: a select on it reaches the bot
    menu = next(c for c in components(res.response) if c.options)
    turned = await installs.select(alice, res.response, ["1"], custom_id=menu.custom_id)
    assert turned.acknowledged and "Page 2 of" in help_page(res)
    assert last_interaction(env)["authorizing_integration_owners"] == {"1": str(alice.id)}
    with pytest.raises(SetupError):  # bob does not see alice's private answer
        await installs.select(bob, res.response, ["2"], custom_id=menu.custom_id)

    assert installs.channel_requests(mark) == []
    assert [name for name, _ in installs.delivered_about(group)] == ["INTERACTION_CREATE"] * 2
    assert env.bot.get_channel(group.id) is None


async def test_a_button_of_the_answer_and_the_followups_in_a_group_dm(table: Table) -> None:
    env = table.env
    installs = Installs.of(env)
    alice = table["alice"]
    group = installs.group_dm([alice, table["bob"]])
    mark = installs.mark()

    asked = await installs.slash(alice, group, "mydata forget")
    kept = await installs.click(alice, asked.response, label="Keep my data")
    assert kept.acknowledged and "Forget me" not in text_of(asked.response)

    exported = await installs.slash(alice, group, "mydata export")
    assert exported.acknowledged and private(exported).attachments  # the file, via a followup
    followups = installs.followups(mark)
    assert list(followups) == [exported._interaction.token]
    assert max(len(f) for f in followups.values()) <= FOLLOWUP_CAP
    assert installs.channel_requests(mark) == []


async def test_help_in_a_server_without_the_bot(table: Table) -> None:
    env = table.env
    installs = Installs.of(env)
    server = installs.server_without_bot(["dora", "eve"])
    dora = server["dora"]
    assert env.bot.get_guild(server.id) is None
    mark = installs.mark()

    res = await installs.slash(dora, server, "help")
    assert res.acknowledged and "Page 1 of" in text_of(private(res))
    payload = last_interaction(env)
    assert payload["context"] == 0 and payload["guild_id"] == str(server.id)
    assert payload["authorizing_integration_owners"] == {"1": str(dora.id)}
    member_permissions = int(payload["member"]["permissions"])
    assert member_permissions & USE_EXTERNAL_APPS
    assert int(payload["app_permissions"]) == APP_IN_SERVER & member_permissions
    assert payload["guild"]["id"] == str(server.id)
    assert payload["channel"]["id"] == str(server.channel.id)

    # a command with an option, run by the other member: their (empty) stats of this server
    stats = await installs.slash(server["eve"], server, "stats", member=dora)
    assert stats.acknowledged and installs.followups(mark)  # answered by its followup

    server.allow_external_apps(False)
    await installs.slash(dora, server, "privacy")
    assert not int(last_interaction(env)["member"]["permissions"]) & USE_EXTERNAL_APPS

    assert installs.channel_requests(mark) == []
    assert env.bot.get_guild(server.id) is None
    assert {name for name, _ in installs.delivered_about(server)} == {"INTERACTION_CREATE"}
    assert {"CHANNEL_CREATE", "GUILD_MEMBER_ADD"} <= set(installs.hidden_events())


async def test_a_table_of_players_plays_a_game_in_a_server_without_the_bot(
        table: Table) -> None:
    """The Table helpers play through the user install (/royale is a server command: it runs
    in a server without the bot today). A click on dora's lobby names dora's install, whoever
    clicks."""
    installs = Installs.of(table.env)
    server = installs.server_without_bot(["dora", "eve"])
    players = installs.table(server)
    mark = installs.mark()
    await players["dora"].slash(server.channel, "royale new")
    await players["eve"].click(server.history()[-1], label="Join")
    assert last_interaction(table.env)["authorizing_integration_owners"] == {
        "1": str(server["dora"].id)}
    await players["dora"].click(server.history()[-1], label="Start")
    assert await players.play_to_end(random.Random(5)) > 0
    assert text_of(server.history()[-1]).startswith("### 🏁")
    assert installs.channel_requests(mark) == []
    assert max(len(f) for f in installs.followups(mark).values()) <= FOLLOWUP_CAP


async def test_a_user_install_where_the_server_installed_the_bot_too(table: Table) -> None:
    env = table.env
    installs = Installs.of(env)
    alice = table["alice"]
    res = await installs.slash(alice, table.channel, "help")
    assert res.acknowledged
    payload = last_interaction(env)
    assert payload["context"] == 0
    assert payload["authorizing_integration_owners"] == {"0": str(table.guild.id),
                                                         "1": str(alice.id)}
    bot_permissions = env.backend.compute_permissions(table.guild.id, env.backend.bot_user.id,
                                                      table.channel.id)
    assert payload["app_permissions"] == str(bot_permissions)


async def test_discord_py_reads_them_as_user_installs(table: Table) -> None:
    """What the bot's code sees of the interactions (discord.py's own parsing)."""
    env = table.env
    installs = Installs.of(env)
    group = installs.group_dm([table["alice"], table["bob"]])
    server = installs.server_without_bot(["dora"])
    seen: list[discord.Interaction[Any]] = []

    async def on_interaction(interaction: discord.Interaction[Any]) -> None:
        seen.append(interaction)

    env.bot.add_listener(on_interaction)
    await installs.slash(table["alice"], group, "help")
    await installs.slash(server["dora"], server, "help")
    in_group, in_server = seen
    assert in_group.context.private_channel and in_group.is_user_integration()
    assert isinstance(in_group.channel, discord.GroupChannel) and in_group.guild is None
    assert in_group.app_permissions.attach_files and not in_group.app_permissions.send_messages
    assert in_server.context.guild and in_server.is_user_integration()
    assert not in_server.is_guild_integration()
    assert in_server.guild is not None and in_server.guild.id == server.id
    assert env.bot.get_guild(server.id) is None  # the guild of the payload, not of the cache
    assert in_server.permissions.use_external_apps and in_server.app_permissions.send_messages


async def test_the_interaction_routes_serve_them(table: Table) -> None:
    """Callback, @original (read, delete), followups (send, edit, delete): the interaction's
    routes work in both places, and the messages they make stay unknown to the gateway."""
    env = table.env
    installs = Installs.of(env)
    group = installs.group_dm([table["alice"], table["bob"]])
    server = installs.server_without_bot(["dora"])
    seen: list[discord.Interaction[Any]] = []

    async def on_interaction(interaction: discord.Interaction[Any]) -> None:
        seen.append(interaction)

    env.bot.add_listener(on_interaction)
    mark = installs.mark()
    for user, place in ((table["alice"], group), (server["dora"], server)):
        res = await installs.slash(user, place, "help")
        interaction = seen[-1]
        assert (await interaction.original_response()).id == res.response.id
        word = await interaction.followup.send("one more word", wait=True)
        await word.edit(content="edited")
        assert [f.content for f in res.followups] == ["edited"]
        await word.delete()
        await interaction.delete_original_response()
        assert res.followups == [] and res.response is None
        assert {name for name, _ in installs.delivered_about(place)} == {"INTERACTION_CREATE"}
    assert installs.channel_requests(mark) == []
    assert {"MESSAGE_CREATE", "MESSAGE_UPDATE", "MESSAGE_DELETE"} <= set(installs.hidden_events())


async def test_commands_discord_would_not_offer_are_refused(table: Table) -> None:
    installs = Installs.of(table.env)
    group = installs.group_dm([table["alice"], table["bob"]])
    server = installs.server_without_bot(["dora"])
    with pytest.raises(SetupError, match="contexts"):  # guild_only
        await installs.slash(table["alice"], group, "leaderboard")
    with pytest.raises(SetupError, match="contexts"):  # private_channels=False
        await installs.slash(table["alice"], group, "reminders")
    with pytest.raises(SetupError, match="installation"):  # the server's install only
        await installs.slash(server["dora"], server, "leaderboard")
    with pytest.raises(SetupError, match="cannot see"):  # dave is not in the group
        await installs.slash(table["dave"], group, "help")
    with pytest.raises(SetupError, match="cannot see"):  # nor in the server
        await installs.slash(table["dave"], server, "help")


async def test_the_bot_token_cannot_reach_the_places(table: Table) -> None:
    env = table.env
    installs = Installs.of(env)
    group = installs.group_dm([table["alice"], table["bob"]])
    server = installs.server_without_bot(["dora"])
    other = server.text_channel("lounge")
    for channel_id in (group.id, server.channel.id, other.id):
        with pytest.raises(discord.Forbidden) as refused:
            await env.bot.get_partial_messageable(channel_id).send("hello")
        assert refused.value.status == 403 and refused.value.code == 50001
        with pytest.raises(discord.Forbidden) as refused:
            await env.bot.fetch_channel(channel_id)
        assert refused.value.code == 50001
    with pytest.raises(discord.Forbidden) as refused:
        await env.bot.fetch_guild(server.id)
    assert refused.value.code == 50001
    # what the people say there never reaches the bot
    said = await group.say(table["alice"], "anyone for a game?")
    await server.say(server["dora"], "hello")
    assert said.content == "anyone for a game?"
    assert installs.hidden_events().count("MESSAGE_CREATE") == 2
    assert installs.delivered_about(group) == [] and installs.delivered_about(server) == []


async def test_the_places_outlive_a_restart(table: Table,
                                            bot_factory: Callable[[], PandaBot]) -> None:
    env = table.env
    installs = Installs.of(env)
    alice = table["alice"]
    group = installs.group_dm([alice, table["bob"]])
    server = installs.server_without_bot(["dora"])
    before = await installs.slash(alice, group, "help")
    old = env.bot
    await env.restart_bot(bot_factory())
    await env.settle()
    await old.close()
    assert Installs.of(env) is installs
    assert env.bot.get_guild(server.id) is None and env.bot.get_channel(group.id) is None
    assert "GUILD_CREATE" in installs.hidden_events()
    mark = installs.mark()

    menu = next(c for c in components(before.response) if c.options)
    turned = await installs.select(alice, before.response, ["2"], custom_id=menu.custom_id)
    assert turned.acknowledged and "Page 3 of" in help_page(before)
    again = await installs.slash(server["dora"], server, "help")
    assert again.acknowledged and "Page 1 of" in text_of(private(again))
    assert installs.channel_requests(mark) == []
    assert env.bot.get_guild(server.id) is None
