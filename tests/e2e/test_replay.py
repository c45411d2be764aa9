"""After the game, through Discord: the replay (the game-over message's Replay button,
``/royale replay``, ``/posing replay``), the game-over card's one picture and the picture of
``/stats``."""

from __future__ import annotations

import io
import random
import re
from typing import Any

import pytest
from PIL import Image
from simcord.results import ResponseMessage

from bot.errors import UserError, WrongPlace
from bot.service.logs import log_of
from pictures.charts import running_totals
from tests.e2e.forge import BUTTON, forged_component
from tests.e2e.phone import PHONE_LINES
from tests.e2e.table import (
    MEDIA_GALLERY,
    Table,
    components,
    custom_ids,
    pictures_of,
    private,
    refusals,
    text_of,
    verb,
)
from tests.e2e.test_phone import check_payload, named_table, open_royale, sent
from tests.e2e.test_posing_game import Player
from tests.e2e.test_request_budget import global_bucket
from ui.replay import parse_step

PNG = b"\x89PNG\r\n\x1a\n"
NAMES = ["Zoë Ærøskøbing-Ølstad", "李小龍", "🐼 Panda Fan 🐼", "مريم"]


def reread(env: Any, msg: Any) -> ResponseMessage:
    """A private message as it is now (after the edits its buttons made)."""
    return ResponseMessage(env, env.backend.get_message(msg.channel_id, msg.id))


def button(msg: Any, label: str) -> Any:
    return next(c for c in components(msg) if c.label == label)


def picture_words(msg: Any) -> str:
    """What a card's picture says in words (its description, for screen readers)."""
    said = []
    todo = list(msg.components)
    while todo:
        c = todo.pop(0)
        raw = c if isinstance(c, dict) else None
        kind = raw.get("type") if raw is not None else getattr(c.type, "value", c.type)
        if kind == MEDIA_GALLERY:
            said += [(i.get("description") if isinstance(i, dict) else i.description) or ""
                     for i in (raw["items"] if raw is not None else c.items)]
        todo += (raw.get("components") or []) if raw is not None else getattr(c, "children",
                                                                               None) or []
    (words,) = said
    return words


def game_totals(msg: Any) -> list[int]:
    """The game totals a replay step's picture shows, in seat order (its words: Royale's
    "name: game 123, round 4: 56", Posing's "name: 123 points, 5 of 11 poses")."""
    return [int(n) for n in re.findall(r": (?:game )?(-?\d+)(?:,| points?)",
                                       picture_words(msg))]


def step_of(msg: Any) -> str:
    """The replay card's position line ("**Round 3 of 10**")."""
    return text_of(msg).split("\n")[1]


async def picture(msg: Any) -> bytes:
    (att,) = msg.attachments
    data: bytes = await att.read()
    assert data.startswith(PNG)
    return data


async def step(table: Table, who: Any, msg: Any, label: str) -> ResponseMessage:
    res = await who.click(reread(table.env, msg), custom_id=button(reread(table.env, msg),
                                                                   label).custom_id)
    # the click edits the private message it is on; a refusal would be a followup
    assert res.acknowledged and not res.followups, [text_of(m) for m in res.followups]
    return reread(table.env, msg)


@pytest.mark.both_backends
async def test_a_mayhem_games_replay_steps_every_round_and_back(simcord_env: Any) -> None:
    env = simcord_env
    table = await named_table(env, NAMES)
    await open_royale(table, list(table.members), cpus=0)
    await table.play_to_end(random.Random(29), trade_rate=0.4)
    final = table.channel.history()[-1]
    assert text_of(final).startswith("### 🏁 Panda Royale is over!")
    # one picture: the final round's (the running totals are in the replay's steps)
    assert [a.filename for a in final.attachments] == ["round-card.png"]
    assert pictures_of(final) == ["round-card.png"]
    db = env.bot.service.db
    game = await db.games.latest_in_channel(table.channel.id)
    assert game is not None and game.status == "finished"
    log = (await log_of(db, game)).events
    ids = [p.player_id for p in game.players]
    totals = running_totals("royale", log)

    viewer = table["u1"]
    start = len(env.http_requests)
    res = await viewer.click(final, custom_id=next(c for c in custom_ids(final)
                                                   if verb(c) == "replay"))
    msg = private(res)
    said = text_of(msg).split("\n")
    assert said[0] == f"### 🎬 Replay of Panda Royale game {game.id}"
    assert said[1] == "**Round 1 of 10**" and said[2].startswith("🐼 Panda token:")
    assert said[-1] == f"-# Only you see this replay · game {game.id}"
    assert [a.filename for a in msg.attachments] == [f"replay-{game.id}-1.png"]
    assert pictures_of(msg) == [f"replay-{game.id}-1.png"]
    assert [c.disabled for c in components(msg)] == [True, True, False, False]
    assert game_totals(msg) == [totals[p][0] for p in ids]
    seen = [await picture(msg)]
    for n in range(2, 11):
        msg = await step(table, viewer, msg, "Next")
        assert step_of(msg) == f"**Round {n} of 10**"
        assert [a.filename for a in msg.attachments] == [f"replay-{game.id}-{n}.png"]
        assert game_totals(msg) == [totals[p][n - 1] for p in ids]
        seen.append(await picture(msg))
        assert seen[-1] != seen[-2]
    assert [c.disabled for c in components(msg)] == [False, False, True, True]
    assert game_totals(msg) == [log[-1]["totals"][p] for p in ids]
    msg = await step(table, viewer, msg, "Previous")
    assert step_of(msg) == "**Round 9 of 10**"
    assert await picture(msg) == seen[8]  # the same round draws the same picture
    msg = await step(table, viewer, msg, "First")
    assert step_of(msg) == "**Round 1 of 10**"
    msg = await step(table, viewer, msg, "Last")
    assert step_of(msg) == "**Round 10 of 10**"
    # every step reads on a phone, within one screen
    payloads = sent(env, start)
    assert len(payloads) >= 13
    assert all(check_payload(p, max_lines=PHONE_LINES) for p in payloads)
    # all of it through the interactions: nothing from the bot's global budget
    app = env.backend.application_id
    assert not [r for r in env.http_requests[start:] if global_bucket(r, app)]
    assert table.channel.history()[-1].id == final.id  # and nothing posted in the channel


async def test_the_replay_buttons_survive_a_restart(table: Table,
                                                    bot_factory: Any) -> None:
    alice = table["alice"]
    await alice.slash(table.channel, "royale new")
    await table.add_computer(alice, table.channel.last_message, "normal")
    await alice.click(table.channel.last_message, label="Start")
    await table.play_to_end(random.Random(3))
    res = await alice.slash(table.channel, "royale replay")  # this channel's last game
    msg = private(res)
    msg = await step(table, alice, msg, "Next")
    assert step_of(msg) == "**Round 2 of 10**"
    old = table.env.bot
    await table.env.restart_bot(bot_factory())
    await old.close()
    msg = await step(table, alice, msg, "Next")
    assert step_of(msg) == "**Round 3 of 10**"


async def test_replay_anywhere_in_the_server_and_nowhere_else(table: Table) -> None:
    env = table.env
    alice, bob = table["alice"], table["bob"]
    await alice.slash(table.channel, "royale new")
    await bob.click(table.channel.last_message, label="Join")
    await alice.click(table.channel.last_message, label="Start")
    await table.play_to_end(random.Random(5))
    game = await env.bot.service.db.games.latest_in_channel(table.channel.id)
    assert game is not None
    elsewhere = table.guild.create_text_channel("chat")
    res = await bob.slash(elsewhere, "royale replay", game=game.id)
    msg = private(res)
    assert text_of(msg).startswith(f"### 🎬 Replay of Panda Royale game {game.id}\n")
    msg = await step(table, bob, msg, "Last")  # its buttons work in that channel too
    assert step_of(msg) == "**Round 10 of 10**"
    with refusals(env):
        res = await bob.slash(elsewhere, "posing replay", game=game.id)
    assert f"There is no Posing Pandas game {game.id} in this server." in text_of(private(res))
    # another server: the game is not theirs to see, by command or by a copied button
    other = env.create_guild("Elsewhere")
    there = other.create_text_channel("games")
    stranger = other.add_member(env.create_user("stranger"))
    await env.bot.tree.sync()
    with refusals(env):
        res = await stranger.slash(there, "royale replay", game=game.id)
    assert f"There is no Panda Royale game {game.id} in this server." in text_of(private(res))
    res = await stranger.slash(there, "help")  # a message of theirs, a copied button forged on it
    frame = button(msg, "First").custom_id
    res = await forged_component(env, stranger, private(res).message, frame, BUTTON)
    assert text_of(private(res)) == "This game is over." and not private(res).embeds
    assert not pictures_of(private(res))  # nothing of the game shown
    with pytest.raises(WrongPlace, match="a game of another server"):  # and the dispatcher's
        await env.bot.service.check_server(game.id, other.id)  # check for the replay's verbs
    await env.bot.service.check_server(game.id, table.guild.id)
    # a game still in play has no replay yet
    await alice.slash(table.channel, "royale new")
    await bob.click(table.channel.last_message, label="Join")
    await alice.click(table.channel.last_message, label="Start")
    with refusals(env):
        res = await alice.slash(table.channel, "royale replay")
    assert "is not over yet" in text_of(private(res))


def test_a_step_buttons_argument() -> None:
    # the argument the replay card's buttons carry: "<step>.<which button>"
    assert [parse_step(f"{n}.{b}") for n, b in ((1, "f"), (9, "p"), (10, "l"))] == [1, 9, 10]
    for forged in ("", "x.y", "1", "1.q", "1234.n", "-1.f", "1.f.f"):
        with pytest.raises(UserError, match="not valid any more"):
            parse_step(forged)


async def test_a_posing_replay_goes_turn_by_turn(table: Table) -> None:
    alice = table["alice"]
    await alice.slash(table.channel, "posing new")
    await alice.click(table.channel.last_message, label="Start")
    await Player(table, random.Random(6)).play_to_end()
    final = table.channel.history()[-1]
    assert [a.filename for a in final.attachments] == ["posing-card.png"]
    res = await alice.click(final, custom_id=next(c for c in custom_ids(final)
                                                  if verb(c) == "replay"))
    msg = private(res)
    said = text_of(msg).split("\n")
    assert said[0].startswith("### 🎬 Replay of Posing Pandas game")
    assert said[1] == "**Turn 1 of 11**" and said[2].startswith("**alice** filled")
    assert "<@" not in text_of(msg)  # nobody is asked anything: nobody waits
    first = await picture(msg)
    msg = await step(table, alice, msg, "Last")
    assert step_of(msg) == "**Turn 11 of 11**"
    game = await table.env.bot.service.db.games.latest_in_channel(table.channel.id)
    assert game is not None
    (result,) = await table.env.bot.service.db.results.of_game(game.id)
    assert game_totals(msg) == [result.score]
    assert await picture(msg) != first


async def test_stats_shows_the_members_last_games(table: Table) -> None:
    alice, bob = table["alice"], table["bob"]
    await alice.slash(table.channel, "royale new")
    await table.add_computer(alice, table.channel.last_message, "normal")
    await alice.click(table.channel.last_message, label="Start")
    await table.play_to_end(random.Random(8))
    res = await bob.slash(table.channel, "stats", member=alice)
    answer = res.response
    assert text_of(answer).startswith("### Stats of alice\n")
    (att,) = answer.attachments
    assert att.filename == "stats.png" and pictures_of(answer) == ["stats.png"]
    image = Image.open(io.BytesIO(await att.read()))
    assert image.width == 800 and image.height > 600
    res = await bob.slash(table.channel, "stats")  # bob has played nothing
    assert "No finished games" in text_of(res.response)
    assert res.response.attachments == [] and pictures_of(res.response) == []


async def test_the_replay_speaks_the_users_language(table: Table) -> None:
    from tests.e2e.speech import locales

    alice = table["alice"]
    await alice.slash(table.channel, "royale new", language="es")
    await table.add_computer(alice, table.channel.last_message, "normal")
    await alice.click(table.channel.last_message, label="Empezar")
    await table.play_to_end(random.Random(12))
    final = table.channel.history()[-1]
    assert text_of(final).startswith("### 🏁 ¡Panda Royale ha terminado!")
    replay = next(c for c in components(final) if verb(c.custom_id) == "replay")
    assert replay.label == "Repetición"  # the game's language on its public message
    with locales({alice.id: "ja"}, {}):  # alice's Discord speaks Japanese
        res = await alice.click(final, custom_id=replay.custom_id)
        msg = private(res)
        assert text_of(msg).startswith("### 🎬 パンダロワイヤル・ゲーム")
        assert step_of(msg) == "**ラウンド 1/10**"
        assert [c.label for c in components(msg)] == ["最初", "前へ", "次へ", "最後"]
        msg = await step(table, alice, msg, "次へ")
        assert step_of(msg) == "**ラウンド 2/10**"
