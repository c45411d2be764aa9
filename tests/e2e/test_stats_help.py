"""/leaderboard, /stats and /help through Discord."""

from __future__ import annotations

from typing import Any

import pytest

from bot.rules.royale.players import make_player
from bot.service import Person, Place
from tests.e2e.table import Table, components, verb


async def finish_game(table: Table, member: Any, channel_id: int, seed: int,
                      cancel: bool = False) -> None:
    """A game of ``member`` against a computer player, played through the service."""
    service = table.env.bot.service
    who = Person(member.id, member.name)
    game = await service.lobbies.new_lobby(kind="royale", place=Place(table.guild.id, channel_id),
                                   host=who, settings={})
    await service.lobbies.add_computer(game.id, who)
    outcome = await service.start(game.id, who)
    if cancel:
        await service.lobbies.cancel(game.id, who, manager=False)
        return
    player = make_player("heuristic", seed)
    while outcome.game.status == "active":
        outcome = await service.act(game.id, member.id, outcome.game.version,
                                    lambda st, seat: player.choose(st))


@pytest.mark.both_backends
async def test_leaderboard_counts_finished_games_only(table: Table) -> None:
    await finish_game(table, table["alice"], 101, 1)
    await finish_game(table, table["alice"], 101, 2)
    await finish_game(table, table["bob"], 102, 3)
    await finish_game(table, table["carol"], 103, 4, cancel=True)
    res = await table["dave"].slash(table.channel, "leaderboard")
    text = res.response.embeds[0].description
    assert "alice" in text and "bob" in text and "carol" not in text
    assert "computer" not in text
    assert "/2 wins" in text  # alice's two games
    res = await table["dave"].slash(table.channel, "leaderboard", computers=True)
    assert "(computer)" in res.response.embeds[0].description
    assert "🤖" in res.response.embeds[0].description
    footer = res.response.embeds[0].footer.text
    assert "cautious skill estimate" in footer and "μ" not in footer
    res = await table["dave"].slash(table.channel, "leaderboard", period="month")
    assert "this month" in res.response.embeds[0].title
    res = await table["dave"].slash(table.channel, "leaderboard", game="posing")
    assert "No finished games" in res.response.embeds[0].description


async def test_leaderboard_pages(table: Table) -> None:
    names = [f"p{i}" for i in range(12)]
    members = {n: table.guild.add_member(table.env.create_user(n)) for n in names}
    for i, n in enumerate(names):
        await finish_game(table, members[n], 200 + i, 10 + i)
    res = await table["alice"].slash(table.channel, "leaderboard")
    msg = res.response
    assert "page 1/2" in msg.embeds[0].footer.text
    assert msg.embeds[0].description.count("\n") == 9  # ten lines
    res = await table["bob"].click(msg, label="Next")
    assert "page 2/2" in res.response.embeds[0].footer.text
    assert res.response.embeds[0].description.startswith("**11.**")
    nxt = next(c for c in components(res.response) if c.label == "Next")
    assert nxt.disabled


async def test_stats_and_rating(table: Table) -> None:
    await finish_game(table, table["alice"], 301, 5)
    res = await table["bob"].slash(table.channel, "stats", member=table["alice"])
    field = res.response.embeds[0].fields[0]
    assert field.name == "Panda Royale"
    assert "Games **1**" in field.value and "Rating" in field.value
    assert "cautious skill estimate" in field.value and "give or take" in field.value
    assert "μ" not in field.value and "σ" not in field.value
    res = await table["bob"].slash(table.channel, "stats")
    assert "No finished games" in res.response.embeds[0].description
    ratings = await table.env.bot.service.db.results.ratings(table.guild.id, "royale",
                                                             [str(table["alice"].id), "cpu:1"])
    assert ratings[str(table["alice"].id)].games == 1 and ratings["cpu:1"].games == 1


async def test_help_pages(table: Table) -> None:
    res = await table["alice"].slash(table.channel, "help")
    assert res.ephemeral and "/royale new" in res.response.embeds[0].description
    page2 = next(c for c in components(res.response) if verb(c.custom_id) == "page"
                 and c.label == "A round of Panda Royale")
    res2 = await table["alice"].click(res.response, custom_id=page2.custom_id)
    assert "Pity" in res2.response.embeds[0].description


async def test_help_has_the_rules_inside_discord(table: Table) -> None:
    res = await table["alice"].slash(table.channel, "help")
    labels = [c.label for c in components(res.response) if verb(c.custom_id) == "page"]
    assert {"A round of Panda Royale", "Scoring", "Mayhem", "Posing Pandas"} <= set(labels)
    texts = [res.response.embeds[0].description]
    for label in labels[1:]:
        page = next(c for c in components(res.response) if c.label == label)
        shown = await table["alice"].click(res.response, custom_id=page.custom_id)
        embed = shown.response.embeds[0]
        assert len(embed.description) <= 4096
        texts.append(embed.description)
    everything = "\n".join(texts)
    assert "× the number of red dice" in everything and "value × 10" in everything
    assert ".md" not in everything and "docs/" not in everything
    rules = await table["alice"].slash(table.channel, "royale rules")
    embed = rules.response.embeds[0]
    assert ".md" not in (embed.footer.text or "") and "/help" in embed.footer.text
