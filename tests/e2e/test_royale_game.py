"""Whole games of Panda Royale through Discord, clicked as the players would."""

from __future__ import annotations

import json
import random

import pytest

from bot.service.logs import log_of
from tests.e2e.table import Table, custom_ids, pictures_of, private, refused, text_of, verb


async def open_lobby(table: Table, players: list[str], **options: object) -> None:
    host = table[players[0]]
    res = await host.slash(table.channel, "royale new", **options)
    assert res.acknowledged and not refused(res)
    lobby = table.channel.last_message
    for name in players[1:]:
        click = await table[name].click(lobby, label="Join")
        assert click.acknowledged and not refused(click)
    lobby = table.channel.last_message
    assert f"Players ({len(players)}/10)" in text_of(lobby)


@pytest.mark.both_backends
async def test_two_player_game_from_new_to_standings(table: Table) -> None:
    await open_lobby(table, ["alice", "bob"])
    start = await table["alice"].click(table.game_message(), label="Start")
    assert start.acknowledged
    decisions = await table.play_to_end(random.Random(2))
    assert decisions >= 18  # at least two picks a round for nine rounds
    history = table.channel.history()
    final = history[-1]  # a new message announces the end and pings both players
    said = text_of(final)
    assert said.startswith("### 🏁 Panda Royale is over!")
    assert f"<@{table['alice'].id}>" in said and f"<@{table['bob'].id}>" in said
    assert "wins with" in said or "Shared win" in said
    assert sorted(verb(c) for c in custom_ids(final)) == [
        "log", "rematch", "replay", "review", "sheet"]
    assert pictures_of(final) == ["round-card.png"]
    assert [a.filename for a in final.attachments] == ["round-card.png"]
    sheet = next(c for c in custom_ids(final) if verb(c) == "sheet")
    res = await table["bob"].click(final, custom_id=sheet)  # the full sheet, privately
    assert private(res).attachments[0].filename == "score-sheet.png"
    last_round = history[-2]  # collapsed to one line: no buttons, no picture, no countdown
    assert text_of(last_round).startswith("-# **Round 10/10** · ")
    assert custom_ids(last_round) == [] and pictures_of(last_round) == []
    assert "<t:" not in text_of(last_round)
    db = table.env.bot.service.db
    game = await db.games.latest_in_channel(table.channel.id)
    assert game is not None and game.status == "finished"
    results = await db.results.of_game(game.id)
    assert {r.player_id for r in results} == {str(table["alice"].id), str(table["bob"].id)}
    stored = await db.games.events(game.id)  # the stored log names seats, never Discord ids
    assert set(stored[-1]["totals"]) == {"p1", "p2"}
    assert str(table["alice"].id) not in json.dumps(stored)
    events = (await log_of(db, game)).events  # as shown: the people by their Discord ids
    assert events[0]["event"] == "setup" and events[-1]["event"] == "game_end"
    totals = events[-1]["totals"]
    assert {r.player_id: r.score for r in results} == totals
    json.dumps(events)


@pytest.mark.both_backends
async def test_five_player_game_with_every_mayhem_option(table: Table) -> None:
    players = ["alice", "bob", "carol", "dave", "erin"]
    await open_lobby(table, players, mischief=True, cannon=True, mercenary=True)
    await table["alice"].click(table.game_message(), label="Start")
    decisions = await table.play_to_end(random.Random(11), trade_rate=0.5)
    assert decisions >= 45
    db = table.env.bot.service.db
    game = await db.games.latest_in_channel(table.channel.id)
    assert game is not None and game.status == "finished"
    events = (await log_of(db, game)).events
    kinds = {e["event"] for e in events}
    assert {"mischief_dealt", "mischief", "captain", "trade", "pick", "game_end"} <= kinds
    final = table.channel.history()[-1]
    winners = events[-1]["winners"]
    for w in winners:
        assert f"<@{w}>" in text_of(final)
    ratings = await db.results.ratings(game.guild_id, "royale", [str(table[p].id) for p in players])
    assert len(ratings) == 5 and all(r.games == 1 for r in ratings.values())
