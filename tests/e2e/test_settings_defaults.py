"""A server's defaults for new games through Discord (SimCord): ``/settings turn-time`` and
``/settings mayhem`` (its managers only, answered privately in the user's language), taken by
``/royale new`` and ``/posing new`` when the host gives none; a host's own options win.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest

from cogs.settings import mayhem_answer, turn_time_answer
from tests.e2e.speech import locales
from tests.e2e.table import Table, private, refusals, refused, text_of
from tests.services import servers_of
from ui.i18n import ENGLISH, tr_for

BOT_DEFAULT = 120
"""The e2e bots' ``DEFAULT_TURN_TIMEOUT`` (tests/e2e/conftest.py)."""


def manager(table: Table, name: str = "boss") -> Any:
    role = table.guild.create_role(f"{name}-role",
                                   permissions=discord.Permissions(manage_guild=True))
    return table.guild.add_member(table.env.create_user(name), roles=[role])


async def opened(table: Table, command: str, host: str = "alice",
                 **options: object) -> dict[str, Any]:
    """The settings of the game ``/<command>`` opened (then cancelled, freeing the channel)."""
    res = await table[host].slash(table.channel, command, **options)
    assert res.acknowledged and not refused(res)
    game = await table.env.bot.service.db.games.latest_in_channel(table.channel.id)
    assert game is not None and game.status == "lobby"
    lobby_text = text_of(table.channel.last_message)
    await table[host].click(table.channel.last_message, label="Cancel")
    return {**game.settings, "lobby": lobby_text}


@pytest.mark.both_backends
async def test_new_games_take_the_servers_defaults_unless_the_host_chooses(
        table: Table) -> None:
    boss = manager(table)
    res = await boss.slash(table.channel, "settings turn-time", seconds=45)
    assert private(res).content == turn_time_answer(ENGLISH, 45, BOT_DEFAULT)
    res = await boss.slash(table.channel, "settings mayhem", cannon=True, mercenary=True)
    assert private(res).content == mayhem_answer(ENGLISH, ("cannon", "mercenary"))
    assert "Cannon, Mercenary" in private(res).content
    # what /settings shows
    assert "45 seconds" in private(await boss.slash(table.channel,
                                                    "settings turn-time")).content
    assert private(await boss.slash(table.channel, "settings mayhem")).content \
        == mayhem_answer(ENGLISH, ("cannon", "mercenary"))

    # no options: the server's defaults
    plain = await opened(table, "royale new")
    assert (plain["turn_timeout"], plain["expansions"]) == (45, ["cannon", "mercenary"])
    assert "Mayhem: Cannon, Mercenary" in plain["lobby"]
    # the host's options win: any Mayhem option given is the host's whole choice
    own = await opened(table, "royale new", mischief=True, turn_timeout=20)
    assert (own["turn_timeout"], own["expansions"]) == (20, ["mischief"])
    without = await opened(table, "royale new", cannon=False)  # no Mayhem on this server
    assert (without["turn_timeout"], without["expansions"]) == (45, [])
    assert "Mayhem" not in without["lobby"]
    # Posing Pandas takes the turn time (it has no Mayhem)
    posing = await opened(table, "posing new", host="bob")
    assert posing["turn_timeout"] == 45 and "expansions" not in posing
    assert (await opened(table, "posing new", host="bob", turn_timeout=300))["turn_timeout"] \
        == 300

    # the options not given stay as they were; cleared: the bot's default, no Mayhem
    res = await boss.slash(table.channel, "settings mayhem", cannon=False, mischief=True)
    assert private(res).content == mayhem_answer(ENGLISH, ("mischief", "mercenary"))
    res = await boss.slash(table.channel, "settings turn-time", clear=True)
    assert private(res).content == turn_time_answer(ENGLISH, None, BOT_DEFAULT)
    assert f"{BOT_DEFAULT} seconds (the bot's default)" in private(res).content
    res = await boss.slash(table.channel, "settings mayhem", clear=True)
    assert private(res).content == mayhem_answer(ENGLISH, None)
    assert "without Mayhem" in private(res).content
    cleared = await opened(table, "royale new")
    assert (cleared["turn_timeout"], cleared["expansions"]) == (BOT_DEFAULT, [])
    assert (await opened(table, "posing new"))["turn_timeout"] == BOT_DEFAULT


async def test_the_defaults_are_for_managers_and_answered_in_the_users_language(
        table: Table) -> None:
    alice = table["alice"]
    commands = await table.env.bot.tree.fetch_commands()
    settings = next(c for c in commands if c.name == "settings")
    # a server that lets everyone see the command: the bot checks the permission itself
    table.guild.set_command_permissions(settings, {alice: True})
    with refusals(table.env):
        for command, options in (("settings turn-time", {"seconds": 60}),
                                 ("settings turn-time", {"clear": True}),
                                 ("settings mayhem", {"cannon": True}),
                                 ("settings mayhem", {"clear": True})):
            denied = await alice.slash(table.channel, command, **options)
            assert private(denied).content == ("Only someone who can manage this server can "
                                               "change its settings.")
        boss = manager(table)
        both = await boss.slash(table.channel, "settings turn-time", seconds=60, clear=True)
        assert private(both).content == "Give seconds or clear, not both."
        both = await boss.slash(table.channel, "settings mayhem", cannon=True, clear=True)
        assert private(both).content == "Choose Mayhem options or clear, not both."
    service = table.env.bot.service
    assert (await servers_of(service).defaults(table.guild.id)).turn_timeout is None
    assert (await servers_of(service).defaults(table.guild.id)).mayhem is None

    de = tr_for("de")
    with locales({boss.id: "de", alice.id: "ja"}, {}):
        res = await boss.slash(table.channel, "settings turn-time", seconds=90)
        assert private(res).content == turn_time_answer(de, 90, BOT_DEFAULT) \
            != turn_time_answer(ENGLISH, 90, BOT_DEFAULT)
        res = await boss.slash(table.channel, "settings mayhem", mischief=True)
        assert private(res).content == mayhem_answer(de, ("mischief",)) \
            != mayhem_answer(ENGLISH, ("mischief",))
        assert "Unfug" in private(res).content
        res = await alice.slash(table.channel, "settings mayhem")  # asking is for anyone
        assert private(res).content == mayhem_answer(tr_for("ja"), ("mischief",))
    assert (await servers_of(service).defaults(table.guild.id)).turn_timeout == 90
