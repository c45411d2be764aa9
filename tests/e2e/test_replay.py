"""After the game, through Discord: the replay (the game-over message's Replay button,
``/royale replay``, ``/posing replay``), the chart of the running totals on the game-over
message and the picture of ``/stats``."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from PIL import Image
from simcord.results import ResponseMessage

from bot.errors import UserError, WrongPlace
from bot.service.logs import log_of
from pictures.charts import running_totals
from pictures.charts.game import chart_size, game_chart_data
from tests.e2e.forge import BUTTON, forged_component
from tests.e2e.table import Table, components, custom_ids, private, verb
from tests.e2e.test_phone import check_payload, named_table, open_royale, sent
from tests.e2e.test_posing_game import Player
from tests.e2e.test_request_budget import global_bucket
from ui.phone import PHONE_LINES
from ui.replay import parse_step, step_arg

PNG = b"\x89PNG\r\n\x1a\n"
NAMES = ["Zoë Ærøskøbing-Ølstad", "李小龍", "🐼 Panda Fan 🐼", "مريم"]


def reread(env: Any, msg: Any) -> ResponseMessage:
    """A private message as it is now (after the edits its buttons made)."""
    return ResponseMessage(env, env.backend.get_message(msg.channel_id, msg.id))


def button(msg: Any, label: str) -> Any:
    return next(c for c in components(msg) if c.label == label)


def game_totals(msg: Any) -> list[int]:
    """The game totals of a replay step's score table, in seat order."""
    field = next(f for f in msg.embeds[0].fields if f.name in ("Scores",))
    rows = field.value.strip("`\n").split("\n")[1:]
    return [int(row.split()[-1]) for row in rows]


async def picture(msg: Any) -> bytes:
    (att,) = msg.attachments
    data: bytes = await att.read()
    assert data.startswith(PNG)
    return data


async def step(table: Table, who: Any, msg: Any, label: str) -> ResponseMessage:
    res = await who.click(reread(table.env, msg), custom_id=button(reread(table.env, msg),
                                                                   label).custom_id)
    # the click edits the private message it is on; a refusal would be a followup
    assert res.acknowledged and not res.followups, [m.content for m in res.followups]
    return reread(table.env, msg)


@pytest.mark.both_backends
async def test_a_mayhem_games_replay_steps_every_round_and_back(simcord_env: Any) -> None:
    env = simcord_env
    table = await named_table(env, NAMES)
    await open_royale(table, list(table.members), cpus=0)
    await table.play_to_end(random.Random(29), trade_rate=0.4)
    final = table.channel.history()[-1]
    assert final.content.startswith("🏁 Panda Royale is over!")
    assert [a.filename for a in final.attachments] == ["round-card.png", "running-totals.png"]
    db = env.bot.service.db
    game = await db.games.latest_in_channel(table.channel.id)
    assert game is not None and game.status == "finished"
    log = (await log_of(db, game)).events
    chart = Image.open(io.BytesIO(await final.attachments[1].read()))
    expected = game_chart_data("royale", log, NAMES)
    assert chart.size == chart_size(expected)  # one legend row per player
    ids = [p.player_id for p in game.players]
    totals = running_totals("royale", log)

    viewer = table["u1"]
    start = len(env.http_requests)
    res = await viewer.click(final, custom_id=next(c for c in custom_ids(final)
                                                   if verb(c) == "replay"))
    msg = private(res)
    embed = msg.embeds[0]
    assert embed.title == f"🎬 Replay of Panda Royale game {game.id}"
    assert embed.description.startswith("**Round 1 of 10**\n🐼 Panda token:")
    assert [a.filename for a in msg.attachments] == [f"replay-{game.id}-1.png"]
    assert [c.disabled for c in components(msg)] == [True, True, False, False]
    assert game_totals(msg) == [totals[p][0] for p in ids]
    seen = [await picture(msg)]
    for n in range(2, 11):
        msg = await step(table, viewer, msg, "Next")
        assert msg.embeds[0].description.startswith(f"**Round {n} of 10**")
        assert [a.filename for a in msg.attachments] == [f"replay-{game.id}-{n}.png"]
        assert game_totals(msg) == [totals[p][n - 1] for p in ids]
        seen.append(await picture(msg))
        assert seen[-1] != seen[-2]
    assert [c.disabled for c in components(msg)] == [False, False, True, True]
    assert game_totals(msg) == [log[-1]["totals"][p] for p in ids]
    msg = await step(table, viewer, msg, "Previous")
    assert msg.embeds[0].description.startswith("**Round 9 of 10**")
    assert await picture(msg) == seen[8]  # the same round draws the same picture
    msg = await step(table, viewer, msg, "First")
    assert msg.embeds[0].description.startswith("**Round 1 of 10**")
    msg = await step(table, viewer, msg, "Last")
    assert msg.embeds[0].description.startswith("**Round 10 of 10**")
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
    await alice.click(table.channel.last_message, label="Add Normal computer")
    await alice.click(table.channel.last_message, label="Start")
    await table.play_to_end(random.Random(3))
    res = await alice.slash(table.channel, "royale replay")  # this channel's last game
    msg = private(res)
    msg = await step(table, alice, msg, "Next")
    assert msg.embeds[0].description.startswith("**Round 2 of 10**")
    old = table.env.bot
    await table.env.restart_bot(bot_factory())
    await old.close()
    msg = await step(table, alice, msg, "Next")
    assert msg.embeds[0].description.startswith("**Round 3 of 10**")


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
    assert msg.embeds[0].title == f"🎬 Replay of Panda Royale game {game.id}"
    msg = await step(table, bob, msg, "Last")  # its buttons work in that channel too
    assert msg.embeds[0].description.startswith("**Round 10 of 10**")
    res = await bob.slash(elsewhere, "posing replay", game=game.id)
    assert f"There is no Posing Pandas game {game.id} in this server." in private(res).content
    # another server: the game is not theirs to see, by command or by a copied button
    other = env.create_guild("Elsewhere")
    there = other.create_text_channel("games")
    stranger = other.add_member(env.create_user("stranger"))
    await env.bot.tree.sync()
    res = await stranger.slash(there, "royale replay", game=game.id)
    assert f"There is no Panda Royale game {game.id} in this server." in private(res).content
    res = await stranger.slash(there, "help")  # a message of theirs, a copied button forged on it
    frame = button(msg, "First").custom_id
    res = await forged_component(env, stranger, private(res).message, frame, BUTTON)
    assert private(res).content == "This game is over." and not private(res).embeds
    with pytest.raises(WrongPlace, match="a game of another server"):  # and the dispatcher's
        await env.bot.service.check_server(game.id, other.id)  # check for the replay's verbs
    await env.bot.service.check_server(game.id, table.guild.id)
    # a game still in play has no replay yet
    await alice.slash(table.channel, "royale new")
    await bob.click(table.channel.last_message, label="Join")
    await alice.click(table.channel.last_message, label="Start")
    res = await alice.slash(table.channel, "royale replay")
    assert "is not over yet" in private(res).content


def test_a_step_buttons_argument() -> None:
    assert [parse_step(step_arg(n, b)) for n, b in ((1, "f"), (9, "p"), (10, "l"))] == [1, 9, 10]
    for forged in ("", "x.y", "1", "1.q", "1234.n", "-1.f", "1.f.f"):
        with pytest.raises(UserError, match="not valid any more"):
            parse_step(forged)


async def test_a_posing_replay_goes_turn_by_turn(table: Table) -> None:
    alice = table["alice"]
    await alice.slash(table.channel, "posing new")
    await alice.click(table.channel.last_message, label="Start")
    await Player(table, random.Random(6)).play_to_end()
    final = table.channel.history()[-1]
    assert [a.filename for a in final.attachments] == ["posing-card.png", "running-totals.png"]
    res = await alice.click(final, custom_id=next(c for c in custom_ids(final)
                                                  if verb(c) == "replay"))
    msg = private(res)
    assert msg.embeds[0].title.startswith("🎬 Replay of Posing Pandas game")
    assert msg.embeds[0].description.startswith("**Turn 1 of 11**\n**alice** filled")
    assert "\n> " not in msg.embeds[0].fields[0].value  # nobody is marked: nobody waits
    first = await picture(msg)
    msg = await step(table, alice, msg, "Last")
    assert msg.embeds[0].description.startswith("**Turn 11 of 11**")
    game = await table.env.bot.service.db.games.latest_in_channel(table.channel.id)
    assert game is not None
    (result,) = await table.env.bot.service.db.results.of_game(game.id)
    assert game_totals(msg) == [result.score]
    assert await picture(msg) != first


async def test_stats_shows_the_members_last_games(table: Table) -> None:
    alice, bob = table["alice"], table["bob"]
    await alice.slash(table.channel, "royale new")
    await alice.click(table.channel.last_message, label="Add Normal computer")
    await alice.click(table.channel.last_message, label="Start")
    await table.play_to_end(random.Random(8))
    res = await bob.slash(table.channel, "stats", member=alice)
    answer = res.response
    assert answer.embeds[0].title == "Stats of alice"
    (att,) = answer.attachments
    assert att.filename == "stats.png"
    image = Image.open(io.BytesIO(await att.read()))
    assert image.width == 800 and image.height > 600
    res = await bob.slash(table.channel, "stats")  # bob has played nothing
    assert "No finished games" in res.response.embeds[0].description
    assert res.response.attachments == []


async def test_the_replay_speaks_the_users_language(table: Table) -> None:
    from tests.e2e.speech import locales

    alice = table["alice"]
    await alice.slash(table.channel, "royale new", language="es")
    await alice.click(table.channel.last_message, label="Añadir ordenador normal")
    await alice.click(table.channel.last_message, label="Empezar")
    await table.play_to_end(random.Random(12))
    final = table.channel.history()[-1]
    assert final.content.startswith("🏁 ¡Panda Royale ha terminado!")
    replay = next(c for c in components(final) if verb(c.custom_id) == "replay")
    assert replay.label == "Repetición"  # the game's language on its public message
    with locales({alice.id: "ja"}, {}):  # alice's Discord speaks Japanese
        res = await alice.click(final, custom_id=replay.custom_id)
        msg = private(res)
        assert msg.embeds[0].title.startswith("🎬 パンダロワイヤル・ゲーム")
        assert msg.embeds[0].description.startswith("**ラウンド 1/10**")
        assert [c.label for c in components(msg)] == ["最初", "前へ", "次へ", "最後"]
        msg = await step(table, alice, msg, "次へ")
        assert msg.embeds[0].description.startswith("**ラウンド 2/10**")
