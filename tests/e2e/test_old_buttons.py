"""Buttons posted before the change keep working after it: the new bot is started on the
database the OLD Discord layer wrote (before the rebuild on items and cards), and the players
click the messages the old bot posted, as their Discord clients still show them.

The fixtures (tests/e2e/data/make_old_messages.py made them with the bot of ``main`` before
the rebuild): ``old_games.db``, the old bot's SQLite file, and ``old_messages.json``, its
messages as Discord stored them (content, embeds, action rows of buttons and selects: no
Components V2), with the guild, channels and members they are in. Here the guild, channels and
members are made again with the same ids, the old messages put back in their channels as the
bot's, with their ids, and only then the new bot connects (a restart after a deploy): it
migrates the database, finds its games in the guild, and must understand every old component.

What a click on an old message must do:

- the old lobby's Join, its per-level computer BUTTON (the new lobby has a select) and Start
  act on the game and redraw the lobby as a new card (or start the game);
- the old draft's pick button applies the pick: the game's state version did not move while
  the bot was away (its deadline was held), so the pick is the player's, not a refusal;
- the old game over's Review, Replay, Game log and Score sheet answer privately, with content;
  Rematch opens a new lobby;
- the old Posing Pandas turn's die toggle redraws the turn with the die held; its Roll rolls;
  its box select fills the box.

- the old replay's step buttons, the old /help's page buttons (one button per page, where
  the new /help has a menu) and the old /mydata forget question's buttons redraw their message
  as a Components V2 card (its old text and embed cleared).
"""

from __future__ import annotations

import contextlib
import json
import shutil
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
import pytest_asyncio
import simcord

from bot.client import PandaBot
from tests.e2e.conftest import dice_emojis_made
from tests.e2e.table import (
    Table,
    answers,
    components,
    custom_ids,
    pictures_of,
    private,
    refused,
    text_of,
    verb,
)

DATA = Path(__file__).resolve().parent / "data"
OLD = json.loads((DATA / "old_messages.json").read_text(encoding="utf-8"))
STATES: dict[str, dict[str, int]] = OLD["states"]
GAMES = [name for name, state in STATES.items() if "game_id" in state]
COMPONENTS_V2 = 1 << 15


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """A copy of the database the old bot wrote (the new bot migrates it as it starts)."""
    path = tmp_path / "panda.db"
    shutil.copyfile(DATA / "old_games.db", path)
    return path


@contextlib.contextmanager
def next_snowflake(backend: Any, value: int) -> Iterator[None]:
    """SimCord's next new id is ``value`` (reserved already); the ones after, its own."""
    def once() -> int:
        del backend.snowflake
        return value

    backend.snowflake = once
    try:
        yield
    finally:
        backend.__dict__.pop("snowflake", None)


def old_world(env: simcord.Env) -> tuple[Any, dict[int, Any], dict[str, Any]]:
    """The old bot's guild, channels (by id) and members (by name), with their old ids, and
    its messages in them, as the old bot left them. Before the bot connects."""
    backend = env.backend
    assert backend.bot_user.id == OLD["bot_user_id"]  # SimCord makes the same bot user
    assert backend.application_id == OLD["application_id"]
    for one in [*OLD["channels"], *OLD["members"], *OLD["messages"]]:
        backend.reserve_id(int(one["id"]))  # before anything else takes one of them
    guild = env.create_guild(OLD["guild"]["name"], id=OLD["guild"]["id"])
    channels = {}
    for c in OLD["channels"]:
        with next_snowflake(backend, c["id"]):
            channels[c["id"]] = guild.create_text_channel(c["name"])
    members = {}
    for m in OLD["members"]:
        with next_snowflake(backend, m["id"]):
            user = env.create_user(m["name"])
        members[m["name"]] = guild.add_member(user)
    for m in OLD["messages"]:
        assert int(m["author"]["id"]) == backend.bot_user.id
        message = backend.prepare_message(
            int(m["channel_id"]), backend.bot_user.id, m["content"], embeds=m["embeds"],
            components=m["components"], attachments=m["attachments"], flags=m["flags"],
            interaction_metadata=m.get("interaction_metadata"))
        message.id = int(m["id"])
        message.timestamp = m["timestamp"]
        message.edited_timestamp = m["edited_timestamp"]
        backend.commit_message(message, broadcast=False)  # posted while the bot was away
    return guild, channels, members


@pytest_asyncio.fixture
async def simcord_env(simcord_bot: PandaBot) -> AsyncIterator[simcord.Env]:
    """SimCord with the old bot's world in it, then the new bot started (as the conftest's,
    the dice emojis made by an earlier deploy)."""
    env = simcord.Env(simcord_bot)
    world = old_world(env)
    dice_emojis_made(env.backend)
    env.backend.clock.advance(OLD["clock_elapsed_s"] + 60)  # the deploy took a minute
    await env.start()
    env.old_world = world  # type: ignore[attr-defined]
    try:
        yield env
    finally:
        await env.shutdown()
        if env.check_errors:
            env.raise_errors()


@pytest_asyncio.fixture
async def table(simcord_env: simcord.Env) -> Table:
    """The old bot's guild and members (at the #games channel; :func:`at` moves it)."""
    await simcord_env.bot.tree.sync()
    guild, channels, members = simcord_env.old_world  # type: ignore[attr-defined]
    games = next(c for c in channels.values() if c.name == "games")
    return Table(simcord_env, guild, games, members, {m.id: m for m in members.values()})


def at(table: Table, state: str) -> Table:
    """The table in the channel of one of the old states."""
    channels = table.env.old_world[1]  # type: ignore[attr-defined]
    return Table(table.env, table.guild, channels[STATES[state]["channel_id"]], table.members,
                 table.by_id)


def old_message(t: Table, state: str) -> discord.Message:
    """The old bot's message of ``state``, as the channel shows it now."""
    wanted = STATES[state]["message_id"]
    asker = t.by_id.get(STATES[state].get("user", 0))  # a private answer: only they see it
    return next(m for m in t.channel.history(viewer=asker) if m.id == wanted)


def saved(state: str) -> dict[str, Any]:
    wanted = str(STATES[state]["message_id"])
    return next(m for m in OLD["messages"] if m["id"] == wanted)


def is_old(msg: discord.Message, state: str) -> bool:
    """The message is still as the old bot left it: its embed, its action rows, no card."""
    return (not msg.flags.value & COMPONENTS_V2 and len(msg.embeds) == len(saved(state)["embeds"])
            and custom_ids(msg) == [c["custom_id"] for row in saved(state)["components"]
                                    for c in row["components"]])


def is_card(msg: discord.Message) -> bool:
    """The message was redrawn by the new bot: a Components V2 card, no embed."""
    return bool(msg.flags.value & COMPONENTS_V2) and not msg.embeds and not msg.content


async def game(t: Table, state: str) -> Any:
    found = await t.env.bot.service.get_game(STATES[state]["game_id"])
    assert found is not None
    return found


def ok(res: Any) -> Any:
    assert res.acknowledged, res
    assert not refused(res), [text_of(a) for a in answers(res)]
    return res


async def test_the_new_bot_finds_the_old_games_and_leaves_their_messages(table: Table) -> None:
    """After the restart every old game is still open (none taken for gone), and no old
    message was touched: what the players click below is what the old bot wrote."""
    for state in GAMES:
        g = await game(table, state)
        expected = "finished" if state == "royale_over" else \
            "lobby" if state.startswith("lobby") else "active"
        assert g.status == expected, (state, g.status)
        assert is_old(old_message(at(table, state), state), state), state
    for state in STATES:
        assert is_old(old_message(at(table, state), state), state), state


async def test_old_lobby_join_computer_button_and_start(table: Table) -> None:
    # Join: carol joins the old lobby of alice and bob; it is redrawn as a new card.
    t = at(table, "lobby_join")
    lobby = old_message(t, "lobby_join")
    ok(await t["carol"].click(lobby, custom_id=f"pr:join:{STATES['lobby_join']['game_id']}::"))
    g = await game(t, "lobby_join")
    assert g.status == "lobby"
    assert [p.player_id for p in g.players] == [str(t[n].id) for n in ("alice", "bob", "carol")]
    lobby = old_message(t, "lobby_join")
    assert is_card(lobby) and "Players (3/10)" in text_of(lobby)
    assert verb(next(c for c in custom_ids(lobby) if verb(c) == "cpu")) == "cpu"
    assert [c.type for c in components(lobby) if verb(c.custom_id) == "cpu"] == [
        discord.ComponentType.string_select]  # the new lobby's computer select

    # The old computer BUTTON of one level (the new lobby has a select): bob, the host,
    # adds a Hard computer (its level is the button's argument: not the default, Normal).
    t = at(table, "lobby_cpu")
    lobby = old_message(t, "lobby_cpu")
    button = f"pr:cpu:{STATES['lobby_cpu']['game_id']}::hard"
    assert button in custom_ids(lobby)
    ok(await t["bob"].click(lobby, custom_id=button))
    g = await game(t, "lobby_cpu")
    assert [(p.is_bot, p.player_id) for p in g.players] == [
        (False, str(t["bob"].id)), (False, str(t["carol"].id)), (True, "cpu:hard:1")]
    lobby = old_message(t, "lobby_cpu")
    assert is_card(lobby) and "Players (3/10)" in text_of(lobby) and "🤖" in text_of(lobby)

    # Start: carol, the host, starts her old lobby with dave: round 1 is on a new card.
    t = at(table, "lobby_start")
    lobby = old_message(t, "lobby_start")
    ok(await t["carol"].click(lobby, custom_id=f"pr:start:{STATES['lobby_start']['game_id']}::"))
    g = await game(t, "lobby_start")
    assert g.status == "active" and g.state is not None
    assert t.env.bot.service.state_of(g).round == 1
    board = t.game_message()
    assert board.id == g.message_id and is_card(board)
    assert t.decider(board) in (t["carol"], t["dave"])
    assert any(verb(c) in ("pick", "pass", "ttarget") for c in custom_ids(board))


async def test_old_draft_pick_is_applied(table: Table) -> None:
    """dave's pick on the old round message is his: the bot was away a minute, the state
    version did not move (the deadline was held), so the pick is applied, not refused."""
    t = at(table, "royale_draft")
    service = t.env.bot.service
    before = await game(t, "royale_draft")
    state = service.state_of(before)
    dave = t["dave"]
    assert STATES["royale_draft"]["decider"] == dave.id
    msg = old_message(t, "royale_draft")
    picks = [c for c in custom_ids(msg) if verb(c) == "pick"]
    assert picks and all(c.split(":")[3] == str(before.version) for c in picks), (
        "the state version moved while the bot was away", before.version, picks)
    die = picks[0].split(":")[4]
    assert die in state.pool
    seat = next(p.seat for p in before.players if p.player_id == str(dave.id))
    assert die not in state.hands[seat]

    # The old "My dice" button answers privately; the message stays as it was.
    hand = private(ok_private(await dave.click(msg, custom_id=f"pr:hand:{before.id}::")))
    assert text_of(hand).strip()
    assert is_old(old_message(t, "royale_draft"), "royale_draft")

    res = ok(await dave.click(msg, custom_id=picks[0]))
    after = await game(t, "royale_draft")
    assert after.version > before.version
    state = service.state_of(after)
    assert die in state.hands[seat] and die not in state.pool
    events = await service.db.games.events(after.id)
    assert any(e.get("event") == "pick" and e.get("die") == die for e in events), events[-5:]
    msg = old_message(t, "royale_draft")  # the old message became the round's new card
    assert msg.id == after.message_id and is_card(msg)
    assert "**dave** picked" in text_of(msg) and t.decider(msg) == t["erin"]
    assert picks[0] not in custom_ids(msg)
    assert not refused(res)


async def test_old_game_over_answers_privately(table: Table) -> None:
    t = at(table, "royale_over")
    over = old_message(t, "royale_over")
    gid = STATES["royale_over"]["game_id"]
    bob = t["bob"]

    review = private(ok_private(await bob.click(over, custom_id=f"pr:review:{gid}::")))
    assert text_of(review).strip()

    replay = private(ok_private(await bob.click(over, custom_id=f"pr:replay:{gid}::")))
    assert f"Replay of Panda Royale game {gid}" in text_of(replay)
    assert "Round 1 of" in text_of(replay) and pictures_of(replay)

    log = private(ok_private(await bob.click(over, custom_id=f"pr:log:{gid}::")))
    assert log.content.startswith(f"Game {gid}: ") and " events" in log.content
    assert log.attachments and log.attachments[0].filename == f"royale-game-{gid}.jsonl"

    sheet = private(ok_private(await bob.click(over, custom_id=f"pr:sheet:{gid}::")))
    assert sheet.attachments

    over = old_message(t, "royale_over")
    assert is_old(over, "royale_over")  # private answers: the message itself is unchanged

    # Rematch: a new lobby with the same people invited, in the same channel.
    ok(await bob.click(over, custom_id=f"pr:rematch:{gid}::"))
    rematch = await t.env.bot.service.db.games.latest_in_channel(t.channel.id)
    assert rematch is not None and rematch.id != gid and rematch.status == "lobby"
    assert str(rematch.host_id) == str(bob.id)
    lobby = t.channel.last_message
    assert is_card(lobby) and f"<@{t['alice'].id}>" in text_of(lobby)


def ok_private(res: Any) -> Any:
    assert res.acknowledged, res
    answer = private(res)
    assert text_of(answer) or answer.attachments, answer
    assert "not one of this bot's" not in text_of(answer)
    assert "no longer" not in text_of(answer)
    return res


async def test_old_posing_hold_roll_and_fill(table: Table) -> None:
    service = table.env.bot.service

    # The die toggle: erin holds die 1; the turn is redrawn with it held (nothing stored).
    t = at(table, "posing_hold")
    before = await game(t, "posing_hold")
    gid, v = before.id, before.version
    msg = old_message(t, "posing_hold")
    ok(await t["erin"].click(msg, custom_id=f"pp:hold:{gid}:{v}:10000"))
    msg = old_message(t, "posing_hold")
    assert is_card(msg)
    assert f"pp:roll:{gid}:{v}:10000" in custom_ids(msg)  # Roll keeps die 1
    assert f"pp:hold:{gid}:{v}:00000" in custom_ids(msg)  # its toggle now releases it
    assert (await game(t, "posing_hold")).version == v

    # Roll: frank rolls every die; his second roll is stored.
    t = at(table, "posing_roll")
    before = await game(t, "posing_roll")
    gid, v = before.id, before.version
    assert service.state_of(before).rolls == 1
    msg = old_message(t, "posing_roll")
    card = private(ok_private(await t["frank"].click(msg, custom_id=f"pp:pcard:{gid}::")))
    assert card.attachments  # the old Score card button: the card's picture, privately
    ok(await t["frank"].click(msg, custom_id=f"pp:roll:{gid}:{v}:00000"))
    after = await game(t, "posing_roll")
    assert after.version > v and service.state_of(after).rolls == 2
    assert is_card(old_message(t, "posing_roll"))

    # The box select: grace fills a box with her first roll; heidi's turn comes.
    t = at(table, "posing_fill")
    before = await game(t, "posing_fill")
    gid, v = before.id, before.version
    msg = old_message(t, "posing_fill")
    select = next(c for c in components(msg) if verb(c.custom_id) == "fill")
    box = select.options[0].value
    ok(await t["grace"].select(msg, [box], custom_id=select.custom_id))
    after = await game(t, "posing_fill")
    state = service.state_of(after)
    assert after.version > v and box in state.filled[0] and state.seat == 1
    board = t.game_message()
    assert is_card(board) and t.decider(board) == t["heidi"]


def unrefused(res: Any) -> Any:
    """A click on a private message: answered by its edit, with no private word after it (a
    refusal, or "Discord didn't accept my reply")."""
    assert res.acknowledged, res
    assert not res.followups, [text_of(a) for a in res.followups]
    return res


async def test_old_replay_step_button(table: Table) -> None:
    t = at(table, "replay")
    gid = STATES["royale_over"]["game_id"]
    msg = old_message(t, "replay")
    assert f"pr:frame:{gid}::2.n" in custom_ids(msg)
    unrefused(await t["bob"].click(msg, custom_id=f"pr:frame:{gid}::2.n"))
    msg = old_message(t, "replay")
    assert is_card(msg) and "Round 2 of 10" in text_of(msg)


async def test_old_help_page_button(table: Table) -> None:
    t = at(table, "help")
    msg = old_message(t, "help")
    unrefused(await t["erin"].click(msg, custom_id="hp:page:::1"))
    msg = old_message(t, "help")
    assert is_card(msg) and "Page 2 of" in text_of(msg)


async def test_old_mydata_keep_button(table: Table) -> None:
    t = at(table, "mydata_forget")
    msg = old_message(t, "mydata_forget")
    unrefused(await t["heidi"].click(msg, custom_id="pv:keep:::"))
    msg = old_message(t, "mydata_forget")
    assert is_card(msg) and "Nothing was changed." in text_of(msg)
