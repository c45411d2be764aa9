"""Every input an abusive user or a broken client can send gets a short private answer: no
incident, no traceback, nothing stored that breaks the server later."""

from __future__ import annotations

import logging
import random
from typing import Any

import discord
import pytest

from tests.e2e.forge import (
    BUTTON,
    SELECT,
    commands_together,
    forged_command,
    forged_component,
    forged_modal,
)
from tests.e2e.table import Table, components, private, refusals, text_of, verb
from tests.e2e.test_royale_guards import play_until, started


def short_private(res: Any) -> str:
    said = text_of(private(res))
    assert said and len(said) < 200, said
    assert "incident" not in said, said
    return said


def no_traceback(caplog: pytest.LogCaptureFixture) -> None:
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


async def test_a_huge_echoed_value_is_cut(table: Table, caplog: pytest.LogCaptureFixture
                                          ) -> None:
    res = await forged_command(table.env, table["alice"], table.channel, "leaderboard",
                               [{"name": "game", "type": 3, "value": "x" * 5000}])
    assert "not a value this command takes" in short_private(res)  # not among its choices
    no_traceback(caplog)
    assert sum(len(r.getMessage()) for r in caplog.records) < 2000  # nor logged whole


@pytest.mark.parametrize("code", ["qq", "zz-zzzz", "x" * 300, "EN"])
async def test_an_unknown_language_is_refused_and_never_stored(
        table: Table, code: str, caplog: pytest.LogCaptureFixture) -> None:
    role = table.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    admin = table.guild.add_member(table.env.create_user("admin"), roles=[role])
    res = await forged_command(table.env, admin, table.channel, "settings",
                               [{"name": "language", "type": 3, "value": code}],
                               sub="language")
    assert "not a value this command takes" in short_private(res)
    assert await table.env.bot.servers.language(table.guild.id) is None
    no_traceback(caplog)


def test_an_error_quotes_back_at_most_a_few_dozen_characters() -> None:
    from bot.errors import UserError
    from ui.i18n import tr_for

    text = tr_for("en").error(UserError("There is no game called {kind}: choose {choices}.",
                                        kind="x" * 5000, choices="royale or posing"))
    assert len(text) < 100 and "xxxx" in text and text.endswith("royale or posing.")


async def test_a_stored_unknown_language_reads_as_english(table: Table) -> None:
    await table.env.bot.service.db.settings.set_language(table.guild.id, "qq", 1)
    res = await table["alice"].slash(table.channel, "royale new")
    assert res.response is not None and "Players (1/10):" in text_of(res.response)
    res = await table["alice"].slash(table.channel, "leaderboard")
    assert res.response is not None
    assert text_of(res.response).startswith("### Panda Royale leaderboard · ")


async def test_a_select_value_of_thousands_of_digits(table: Table,
                                                     caplog: pytest.LogCaptureFixture) -> None:
    await started(table, ["alice", "bob"])
    rng = random.Random(21)
    await play_until(table, "pass", rng)
    msg = table.game_message()
    who = table.decider(msg)
    target = next((c for c in components(msg) if verb(c.custom_id) == "ttarget"), None)
    if target is None:
        pytest.skip("no trade target here")  # pragma: no cover - seed 21 offers one
    res = await forged_component(table.env, who, msg, target.custom_id, SELECT, ["9" * 5000])
    short_private(res)
    no_traceback(caplog)


@pytest.mark.parametrize("value", ["abc", "1" * 40, "", "-5"])
async def test_a_forged_member_option(table: Table, value: str,
                                      caplog: pytest.LogCaptureFixture) -> None:
    res = await forged_command(table.env, table["alice"], table.channel, "stats",
                               [{"name": "member", "type": 6, "value": value}])
    short_private(res)
    no_traceback(caplog)


@pytest.mark.parametrize("value", ["fifteen", 0, 10**30, True, 1.5])
async def test_a_forged_number_option(table: Table, value: Any,
                                      caplog: pytest.LogCaptureFixture) -> None:
    res = await forged_command(table.env, table["alice"], table.channel, "royale",
                               [{"name": "turn_timeout", "type": 4, "value": value}], sub="new")
    short_private(res)
    assert await table.env.bot.service.db.games.open_in_channel(table.channel.id) is None
    no_traceback(caplog)


async def test_a_modal_nobody_asked_for(table: Table, caplog: pytest.LogCaptureFixture) -> None:
    res = await forged_modal(table.env, table["alice"], table.channel, "pr:join:1::")
    short_private(res)
    no_traceback(caplog)


async def test_a_button_sent_as_a_select_and_a_select_as_a_button(
        table: Table, caplog: pytest.LogCaptureFixture) -> None:
    await started(table, ["alice", "bob"])
    await play_until(table, "pick", random.Random(22))
    msg = table.game_message()
    who = table.decider(msg)
    pick = next(c for c in components(msg) if verb(c.custom_id) == "pick")
    res = await forged_component(table.env, who, msg, pick.custom_id, SELECT, ["1"])
    short_private(res)
    res = await forged_component(table.env, who, msg, "lb:page::: ", BUTTON)
    short_private(res)
    no_traceback(caplog)


async def test_a_crowd_of_leaderboard_and_stats_gets_one_public_answer_per_window(
        table: Table) -> None:
    env = table.env
    answered = 0
    for step in range(40):  # 10 s of five people sending both commands four times a second
        for name in ("alice", "bob", "carol", "dave", "erin"):
            command = "leaderboard" if step % 2 else "stats"
            res = await table[name].slash(table.channel, command)
            assert res.acknowledged and res.response is not None
            answered += 1
        await env.advance_time(0.25)
    public = [m for m in table.channel.history() if m.author.bot]
    assert answered == 200 and 1 <= len(public) <= 2, len(public)


@pytest.mark.both_backends
async def test_a_hundred_new_lobbies_at_once_by_one_host_open_three(table: Table) -> None:
    channels = [table.guild.create_text_channel(f"c{i}") for i in range(100)]
    table.env.settle_timeout = 60.0  # a hundred commands at once, on the wall clock
    with refusals(table.env):  # 97 of them refused
        results = await commands_together(table.env, table["alice"], channels, "royale", "new")
    assert all(r.acknowledged for r in results)
    opened = [r for r in results if r.response is not None and not r.response.ephemeral]
    refused = [r for r in results if r.response is not None and r.response.ephemeral]
    assert len(opened) == 3 and len(refused) == 97
    assert all("already host 3 open games" in text_of(r.response) for r in refused)
    hosted = await table.env.bot.service.db.games.all_open()
    assert len([g for g in hosted if g.host_id == table["alice"].id]) == 3


GAME_NUMBER_COMMANDS = [(kind, sub) for kind in ("royale", "posing")
                        for sub in ("cancel", "review", "replay")]


async def test_a_game_number_is_any_discord_takes_and_past_it_a_clear_answer(
        table: Table, caplog: pytest.LogCaptureFixture) -> None:
    """The ``game`` options declare the largest integer Discord takes (a larger ``max_value``
    can make Discord refuse the whole command sync); that number is answered as a game that is
    not here, and one past it, which only a forged interaction can send, as a bad option."""
    largest = 2**53 - 1
    for kind, sub in GAME_NUMBER_COMMANDS:
        command = table.env.backend.find_command(kind, table.guild.id)
        game = next(o for s in command["options"] if s["name"] == sub
                    for o in s["options"] if o["name"] == "game")
        assert (game["min_value"], game["max_value"]) == (1, largest)
        with refusals(table.env):
            res = await table["alice"].slash(table.channel, f"{kind} {sub}", game=largest)
        assert f"no {'Panda Royale' if kind == 'royale' else 'Posing Pandas'} game " \
            f"{largest} in this server" in short_private(res)
        res = await forged_command(table.env, table["alice"], table.channel, kind,
                                   [{"name": "game", "type": 4, "value": largest + 1}], sub=sub)
        assert "not a value this command takes" in short_private(res)
    no_traceback(caplog)
