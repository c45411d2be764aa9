"""A Spanish-locale server and a Japanese-locale player: the game's public messages (lobby,
rounds, pings, game over, the picture) speak Spanish, the player's private answers Japanese, and
no message holds a word that the Spanish or Japanese catalogue does not explain."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import discord
import pytest

from tests.e2e.phone import measure
from tests.e2e.speech import Catalogue, locales, message_texts, unexplained
from tests.e2e.table import (
    Table,
    components,
    custom_ids,
    pictures_of,
    private,
    refusals,
    text_of,
    verb,
)

ES, JA = Catalogue("es"), Catalogue("ja")


@pytest.fixture
def speaking(table: Table) -> Iterator[Table]:
    """alice's Discord speaks Japanese, bob's Spanish; the server's locale is Spanish."""
    users = {table["alice"].id: "ja", table["bob"].id: "es-419", table["carol"].id: "en-US"}
    with locales(users, {table.guild.id: "es-ES"}):
        yield table


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text drawn on the round cards."""
    import pictures.round_card as card

    texts: list[str] = []
    original = card.draw_line

    def draw_line(image: Any, xy: Any, text: str, *args: Any, **kw: Any) -> int:
        texts.append(text)
        return original(image, xy, text, *args, **kw)

    monkeypatch.setattr(card, "draw_line", draw_line)
    return texts


def names(table: Table) -> list[str]:
    """The names a message may hold: the members' and the computer players' own names (their
    "(computer, easy)" must be translated)."""
    from bot.service.model import CPU_NAMES

    return [*table.members, *CPU_NAMES]


def assert_fits(msg: Any) -> None:
    """Discord's limits and a phone's width, whatever the language."""
    embeds = [e for e in msg.embeds or [] if not isinstance(e, dict)]
    assert not measure(text_of(msg), embeds).too_wide(), text_of(msg)
    assert len(msg.content or "") <= 2000
    assert len(text_of(msg)) <= 4000  # a Components V2 message's text, in all
    for e in embeds:
        assert len(e.title or "") <= 256 and len(e.description or "") <= 4096
        assert len(e.footer.text or "") <= 2048 and len(e) <= 6000
        assert all(len(f.name) <= 256 and len(f.value) <= 1024 for f in e.fields)
    for c in components(msg):
        assert len(getattr(c, "label", None) or "") <= 80
        assert len(getattr(c, "placeholder", None) or "") <= 150
        for o in getattr(c, "options", None) or []:
            assert len(o.label or "") <= 100
            assert len(getattr(o, "description", None) or "") <= 100


def assert_spoken(msgs: list[Any], catalogue: Catalogue, table: Table) -> int:
    """Every text of ``msgs`` is explained by ``catalogue`` and fits; returns how many texts."""
    problems = [p for m in msgs for p in unexplained(m, catalogue, names(table))]
    assert not problems, f"not {catalogue.lang}:\n" + "\n".join(problems[:20])
    for m in msgs:
        assert_fits(m)
    return sum(len(message_texts(m)) for m in msgs)


def test_the_check_catches_english() -> None:
    from types import SimpleNamespace

    english = SimpleNamespace(content="", embeds=[], components=[
        {"type": 10, "content": "The host starts the game when everyone is in."}])
    spanish = SimpleNamespace(content="", embeds=[], components=[
        {"type": 10, "content": "El anfitrión empieza la partida cuando estén todos."}])
    assert unexplained(english, ES, [])
    assert not unexplained(spanish, ES, [])
    assert unexplained(spanish, JA, [])


async def test_royale_in_spanish_with_a_japanese_player(speaking: Table,
                                                        drawn: list[str]) -> None:
    table = speaking
    alice, bob = table["alice"], table["bob"]
    res = await alice.slash(table.channel, "royale new", mischief=True, cannon=True,
                            mercenary=True)
    assert res.acknowledged
    lobby = table.channel.last_message
    assert text_of(lobby).startswith("## Panda Royale · nueva partida\n")
    join = await bob.click(lobby, label="Unirse")
    assert join.acknowledged
    with refusals(table.env):
        mine = await alice.slash(table.channel, "royale join")  # the host is in already
    assert text_of(private(mine)) == "すでにこのゲームに参加しています。"
    await alice.click(table.channel.last_message, label="Empezar")
    first = table.game_message()
    assert text_of(first).startswith("**Panda Royale** · Ronda 1/10")
    # alice's private answers, in Japanese: her dice, the status, a click out of turn
    hand = await alice.click(first, custom_id=next(c for c in custom_ids(first)
                                                    if verb(c) == "hand"))
    assert text_of(private(hand)).startswith("### 自分のダイス")
    status = await alice.slash(table.channel, "royale status")
    assert text_of(private(status)).startswith("**パンダロワイヤル** · ラウンド 1/10")
    waiting = table.decider(first)
    other = bob if waiting is alice else alice
    pick = next(c for c in custom_ids(first) if verb(c) == "pick")
    refused = await other.click(first, custom_id=pick)
    refusal = text_of(private(refused))
    if other is alice:
        assert refusal == "bob の番です。あなたの番ではありません。"
    else:  # bob's Discord speaks Latin-American Spanish: es-419 -> es
        assert refusal == "Es el turno de alice, no el tuyo."
    ja_answers = [private(r) for r in (mine, hand, status)]
    ja_answers += [private(refused)] if other is alice else []
    assert assert_spoken(ja_answers, JA, table) >= 4

    await table.play_to_end(random.Random(5), trade_rate=0.5)
    history = table.channel.history()
    final = history[-1]
    assert text_of(final).startswith("### 🏁 ¡Panda Royale ha terminado!")
    texts = assert_spoken(history, ES, table)
    # the lobby, ten rounds of one line each, the game-over card with its standings and buttons
    assert texts >= 20 and sum(text_of(m).startswith("-# **Ronda ") for m in history) == 10
    # every round's line stays in the channel, in Spanish (the pings went out in Spanish too:
    # each is deleted when the next is posted; the check above saw the ones still there)
    assert any(text_of(m).startswith("-# **Ronda 10/10** · ") for m in history)
    # the picture: its labels in Spanish
    assert "Jugador · dados de esta ronda" in drawn and "Puntuación final" in drawn
    assert not {"Player · dice this round", "Final scores", "Game"} & set(drawn)
    # the sheet on demand follows the clicking player: alice reads hers in Japanese
    sheet = await alice.click(final, custom_id=next(c for c in custom_ids(final)
                                                    if verb(c) == "sheet"))
    assert private(sheet).attachments[0].filename == "score-sheet.png"
    log = await alice.click(final, custom_id=next(c for c in custom_ids(final)
                                                  if verb(c) == "log"))
    assert text_of(private(log)).startswith("ゲーム")
    assert_spoken([private(log)], JA, table)


async def test_posing_language_option_and_server_default(speaking: Table) -> None:
    """``/posing new language:fr`` overrides the server; ``/settings language`` sets the
    default, for managers only, kept in the database."""
    table = speaking
    alice, carol = table["alice"], table["carol"]
    res = await carol.slash(table.channel, "posing new", language="fr")
    assert res.acknowledged
    lobby = table.channel.last_message
    assert text_of(lobby).startswith("## Posing Pandas · nouvelle partie\n")
    await carol.click(lobby, label="Annuler")
    commands = await table.env.bot.tree.fetch_commands()
    settings = next(c for c in commands if c.name == "settings")
    assert settings.default_member_permissions is not None  # Discord shows it to managers
    assert settings.name_localizations[discord.Locale.spain_spanish] == "ajustes"
    # a server that lets everyone see the command: the bot checks the permission itself
    table.guild.set_command_permissions(settings, {alice: True})
    with refusals(table.env):
        denied = await alice.slash(table.channel, "settings language", language="de")
    assert text_of(private(denied)) == ("このサーバーの設定を変えられるのはサーバーを管理できる"
                                       "人だけです。")
    assert await table.env.bot.servers.language(table.guild.id) is None
    managers = table.guild.create_role("managers",
                                       permissions=discord.Permissions(manage_guild=True))
    dora = table.guild.add_member(table.env.create_user("dora"), roles=[managers])
    done = await dora.slash(table.channel, "settings language", language="de")
    assert text_of(private(done)) == "New games in this server will speak Deutsch."
    assert await table.env.bot.servers.language(table.guild.id) == "de"
    asked = await alice.slash(table.channel, "settings language")
    assert text_of(private(asked)) == "このサーバーのゲームはDeutschで進行します。"
    # the server's default now beats its Discord locale (Spanish); a game keeps its language
    await carol.slash(table.channel, "posing new")
    lobby = table.channel.last_message
    assert text_of(lobby).startswith("## Posing Pandas · neues Spiel\n")
    await carol.click(lobby, label="Starten")
    turn = table.game_message()
    assert text_of(turn).startswith("**Posing Pandas** · Zug 1/11")
    assert f"<@{carol.id}>" in text_of(turn).split("\n")[1]
    ping = table.channel.last_message.content  # a plain message, with a link to the card
    assert ping.startswith(f"<@{carol.id}> du bist dran bei Posing Pandas: würfeln, halten "
                           "und eine Pose ausfüllen. https://discord.com/channels/")
    assert ping.endswith(f"/{turn.id}")
    game = await table.env.bot.service.db.games.latest_in_channel(table.channel.id)
    assert game is not None and game.settings["language"] == "de"


async def test_posing_in_spanish_to_the_end(speaking: Table) -> None:
    """A whole Posing Pandas game of two people on the Spanish server: every public text
    Spanish and within the limits."""
    from tests.e2e.test_posing_game import Player

    table = speaking
    await table["bob"].slash(table.channel, "posing new")
    await table["alice"].click(table.channel.last_message, label="Unirse")
    await table.add_computer(table["bob"], table.channel.last_message, "easy")
    lobby = table.channel.last_message
    assert "(ordenador, fácil)" in text_of(lobby)
    await table["bob"].click(lobby, label="Empezar")
    turn = table.game_message()
    assert text_of(turn).startswith("**Posing Pandas** · turno 1/11")
    assert f"<@{table['bob'].id}>" in text_of(turn).split("\n")[1]
    await Player(table, random.Random(3)).play_to_end()
    history = table.channel.history()
    assert text_of(history[-1]).startswith("### 🏁 ¡Posing Pandas ha terminado!")
    assert assert_spoken(history, ES, table) > 20


async def test_the_games_language_survives_a_restart_and_a_rematch(
        table: Table, bot_factory) -> None:  # type: ignore[no-untyped-def]
    """On an English server, ``language:es``: the game speaks Spanish after a restart, and its
    rematch too."""
    carol, dave = table["carol"], table["dave"]
    await carol.slash(table.channel, "royale new", language="es")
    await dave.click(table.channel.last_message, label="Unirse")
    await carol.click(table.channel.last_message, label="Empezar")
    rng = random.Random(8)
    for _ in range(3):
        assert await table.play_decision(rng)
    old_bot = table.env.bot
    await table.env.restart_bot(bot_factory())
    await old_bot.close()
    assert await table.play_decision(rng)
    assert text_of(table.game_message()).startswith("**Panda Royale** · Ronda")
    await table.play_to_end(rng)
    final = table.channel.history()[-1]
    assert text_of(final).startswith("### 🏁 ¡Panda Royale ha terminado!")
    assert pictures_of(final) == ["round-card.png"]
    rematch = next(c for c in custom_ids(final) if verb(c) == "rematch")
    await dave.click(final, custom_id=rematch)
    lobby = table.channel.last_message
    assert "🔁 ¡Revancha!" in text_of(lobby)
    assert "## Panda Royale · nueva partida" in text_of(lobby)
    assert_spoken(table.channel.history(), ES, table)
