"""Players' data through Discord: /privacy in every language, /mydata export and forget (with
the game in play going on with the computer), /settings forget-server, and a removed server's
data kept through the retention period and deleted after it.
"""

from __future__ import annotations

import json
import random
from typing import Any

import discord
import pytest

from bot.service.privacy import DAY_MS
from tests.app.test_personal_data import everything as everything_in
from tests.conftest import Backend
from tests.e2e.speech import locales
from tests.e2e.table import Table, components, custom_ids, private, refused, text_of, verb
from tests.e2e.test_royale_game import open_lobby
from tests.services import privacy_of
from ui.i18n import languages, tr_for


def files_of(res: Any) -> list[Any]:
    return [f for r in [res.response, *res.followups] if r for f in r.attachments]


def everything(table: Table) -> str:
    """Every row of every table of the bot's database (either backend), as text."""
    settings = table.env.bot.settings
    url = settings.database_url
    backend = Backend("postgresql", url.get_secret_value()) if url is not None \
        else Backend("sqlite", settings.database_path)
    return everything_in(backend)


@pytest.mark.parametrize("lang", languages())
async def test_privacy_says_what_is_kept_in_every_language(table: Table, lang: str) -> None:
    alice = table["alice"]
    with locales({alice.id: {"en": "en-US", "ja": "ja"}.get(lang, lang)}, {}):
        res = await alice.slash(table.channel, "privacy")
    answer = private(res)
    assert not answer.embeds and not answer.content  # one card
    tr = tr_for(lang)
    said = text_of(answer)
    assert said.startswith(f"### {tr('Your data and the Panda Royale bot')}\n")
    sections = said.split("\n**")[1:]  # each a bold title, then its words
    assert len(sections) == 7 and "30" in sections[3]
    assert all(len(x.split("**\n", 1)) == 2 and x.split("**\n", 1)[1].strip()
               for x in sections)
    assert len(said) <= 4000  # a Components V2 message's text


@pytest.mark.both_backends
async def test_export_holds_the_users_data_and_only_theirs(table: Table) -> None:
    await open_lobby(table, ["alice", "bob"])
    await table["alice"].click(table.game_message(), label="Start")
    await table.play_to_end(random.Random(5))
    res = await table["alice"].slash(table.channel, "mydata export")
    (file,) = files_of(res)
    assert file.filename.endswith(".json")
    data = json.loads(await file.read())
    alice, bob = str(table["alice"].id), str(table["bob"].id)
    assert data["user_id"] == alice and len(data["games"]) == 1
    assert [r["display_name"] for r in data["results"]] == ["alice"]
    assert {r["server_id"] for r in data["ratings"]} == {table.guild.id}
    assert data["games"][0]["log"][-1]["event"] == "game_end"
    assert bob not in json.dumps(data["results"] + data["ratings"] + data["totals"])


@pytest.mark.both_backends
async def test_forget_me_after_the_button_and_the_game_goes_on(table: Table) -> None:
    env = table.env
    await open_lobby(table, ["alice", "bob"])
    await table["alice"].click(table.game_message(), label="Start")
    rng = random.Random(8)
    for _ in range(4):
        assert await table.play_decision(rng, trade_rate=0.0)
    alice = table["alice"]
    res = await alice.slash(table.channel, "mydata forget")
    question = private(res)
    assert "cannot be undone" in text_of(question)
    assert sorted(verb(c) for c in custom_ids(question)) == ["forget", "keep"]
    kept = await alice.click(question, label="Keep my data")
    assert kept.acknowledged
    assert str(alice.id) in everything(table)
    res = await alice.slash(table.channel, "mydata forget")
    done = await alice.click(private(res), label="Forget me")
    assert done.acknowledged
    text = everything(table)
    assert str(alice.id) not in text and "'alice'" not in text
    told = [r for r in env.http_requests if isinstance(r.json, dict) and "asked the bot to "
            "forget them" in json.dumps(r.json)]
    assert told  # announced on the board
    # the game goes on: bob plays, the computer plays the forgotten seat
    await table.play_to_end(rng)
    game = await env.bot.service.db.games.latest_in_channel(table.channel.id)
    assert game is not None and game.status == "finished"
    results = await env.bot.service.db.results.of_game(game.id)
    assert [r.player_id for r in results] == [str(table["bob"].id)]
    board = table.channel.history()[-1]
    assert "former player" in text_of(board)
    assert f"<@{alice.id}>" not in text_of(board) and alice.id not in board.raw_mentions


async def test_forget_me_closes_the_lobbies_they_host_and_leaves_the_others(
        table: Table) -> None:
    env = table.env
    hosted = table.guild.create_text_channel("hosted")
    joined = table.guild.create_text_channel("joined")
    res = await table["alice"].slash(hosted, "royale new")
    assert res.acknowledged and not refused(res)
    assert (await table["bob"].click(hosted.last_message, label="Join")).acknowledged
    res = await table["carol"].slash(joined, "royale new")
    assert res.acknowledged and not refused(res)
    assert (await table["alice"].click(joined.last_message, label="Join")).acknowledged
    boards = env.bot.boards
    assert boards.sizes()["boards"] == 2
    alice = table["alice"]
    res = await alice.slash(table.channel, "mydata forget")
    assert (await alice.click(private(res), label="Forget me")).acknowledged
    await env.settle()
    db = env.bot.service.db
    closed = await db.games.latest_in_channel(hosted.id)
    still = await db.games.latest_in_channel(joined.id)
    assert closed.status == "cancelled" and still.status == "lobby"
    board = hosted.history()[-1]  # closed, no buttons, no name of hers
    assert "Cancelled by former player" in text_of(board) and not custom_ids(board)
    assert "alice" not in text_of(board)
    lobby = joined.history()[-1]  # drawn again without her
    assert "Players (1/10)" in text_of(lobby)
    assert "alice" not in text_of(lobby)
    assert "Join" in [getattr(c, "label", None) for c in components(lobby)]
    assert boards.sizes()["boards"] == 1  # the closed lobby's entries are gone


@pytest.mark.both_backends
async def test_a_server_manager_forgets_the_server(table: Table) -> None:
    await open_lobby(table, ["alice", "bob"])
    await table["alice"].click(table.game_message(), label="Start")
    role = table.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    admin = table.guild.add_member(table.env.create_user("admin"), roles=[role])
    res = await admin.slash(table.channel, "settings forget-server")
    done = await admin.click(private(res), label="Delete this server's data")
    assert done.acknowledged
    db = table.env.bot.service.db
    nothing = {t: 0 for t in await db.personal.server_counts(0)}
    assert await db.personal.server_counts(table.guild.id) == nothing
    assert table.env.bot.service.pending_timers == 0


@pytest.mark.both_backends
async def test_a_removed_servers_data_goes_after_the_retention(table: Table) -> None:
    env = table.env
    await open_lobby(table, ["alice", "bob"])
    await table["alice"].click(table.game_message(), label="Start")
    await table.play_to_end(random.Random(2))
    env.backend.remove_guild(table.guild.id)
    await env.settle()
    svc = env.bot.service
    assert [d.guild_id for d in await privacy_of(svc).departures()] == [table.guild.id]
    cog: Any = env.bot.get_cog("Upkeep")
    assert cog.purge.is_running()  # every few hours
    privacy = env.bot.privacy
    start = privacy.clock()
    await cog.purge()
    assert (await svc.db.personal.server_counts(table.guild.id))["games"] == 1  # not before
    privacy.clock = lambda: start + 31 * DAY_MS
    await cog.purge()
    assert (await svc.db.personal.server_counts(table.guild.id))["games"] == 0
    assert await privacy_of(svc).departures() == []


def test_a_big_copy_is_zipped_then_split_into_parts() -> None:
    import io
    import zipfile

    from cogs.privacy.export import export_files

    rng = random.Random(11)
    games = [{"game_id": i, "log": [{"event": "roll", "values": [rng.randrange(1000)
                                                                 for _ in range(60)]}]}
             for i in range(300)]
    data = {"format": "panda-royale-bot/my-data", "games": games, "results": [1],
            "ratings": [2], "totals": [3]}
    (one,) = export_files(data, stem="me", limit=10**7)
    assert one[0] == "me.json" and json.loads(one[1]) == data
    whole = len(one[1])
    (packed,) = export_files(data, stem="me", limit=whole - 1)
    assert packed[0] == "me.zip" and len(packed[1]) < whole

    def unzip(blob: bytes) -> Any:
        with zipfile.ZipFile(io.BytesIO(blob)) as z:
            (name,) = z.namelist()
            return json.loads(z.read(name))

    assert unzip(packed[1]) == data
    limit = len(packed[1]) // 3
    parts = export_files(data, stem="me", limit=limit)
    assert len(parts) >= 3 and all(len(b) <= limit for _, b in parts)
    docs = [unzip(b) for _, b in parts]
    assert [g for d in docs for g in d["games"]] == games  # every game once, in order
    assert docs[0]["results"] == [1] and all(d["results"] == [] for d in docs[1:])
    assert {d["parts"] for d in docs} == {len(parts)}
