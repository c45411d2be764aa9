"""/leaderboard, /stats and /help through Discord."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.rules.registry import ROYALE
from bot.service import Person, Place
from tests.e2e.table import Table, answers, components, text_of, verb
from ui.cards import TEXT_LIMIT


async def finish_game(table: Table, member: Any, channel_id: int, seed: int,
                      cancel: bool = False) -> None:
    """A game of ``member`` against a computer player, played through the service."""
    service = table.env.bot.service
    who = Person(member.id, member.name)
    game = await service.new_lobby(kind="royale", place=Place(table.guild.id, channel_id),
                                   host=who, settings={})
    await service.add_computer(game.id, who)
    outcome = await service.start(game.id, who)
    if cancel:
        await service.cancel(game.id, who, manager=False)
        return
    player = ROYALE.make_player("heuristic", seed)
    while outcome.game.status == "active":
        outcome = await service.act(game.id, Person(member.id, ""), outcome.game.version,
                                    lambda st, seat: player.choose(st))


def card(res: Any) -> Any:
    """The card an interaction was answered with (the response, else its first followup)."""
    shown = answers(res)
    assert shown, res
    return shown[0]


ENTRY = re.compile(r"^\*\*(\d+)\.\*\* ", re.M)
"""A leaderboard line: its position in bold ("**11.** p10")."""


def figures(text: str) -> dict[str, str]:
    """Each leaderboard player's figures (the small line under their name), by name."""
    lines = text.split("\n")
    return {line.split("** ", 1)[1]: lines[i + 1] for i, line in enumerate(lines[:-1])
            if ENTRY.match(line)}


@pytest.mark.both_backends
async def test_leaderboard_counts_finished_games_only(table: Table) -> None:
    await finish_game(table, table["alice"], 101, 1)
    await finish_game(table, table["alice"], 101, 2)
    await finish_game(table, table["bob"], 102, 3)
    await finish_game(table, table["carol"], 103, 4, cancel=True)
    res = await table["dave"].slash(table.channel, "leaderboard")
    text = text_of(card(res))
    assert "alice" in text and "bob" in text and "carol" not in text
    assert "computer" not in text and "🤖" not in text
    assert re.search(r"\d wins? in 2 games", figures(text)["alice"]), text  # her two games
    assert re.search(r"\d wins? in 1 game\b", figures(text)["bob"]), text
    res = await table["dave"].slash(table.channel, "leaderboard", computers=True)
    text = text_of(card(res))
    assert "(computer)" in text and "🤖" in text
    # ratings in words: whole numbers that start at 1,000, no μ or σ
    assert "Ratings start at 1,000" in text and "μ" not in text and "σ" not in text
    assert re.search(r"rating \d{1,3}(,\d{3})* · ", text), text
    res = await table["dave"].slash(table.channel, "leaderboard", period="month")
    assert "this month" in text_of(card(res))
    res = await table["dave"].slash(table.channel, "leaderboard", game="posing")
    assert "No finished games" in text_of(card(res))


async def test_leaderboard_pages(table: Table) -> None:
    names = [f"p{i}" for i in range(12)]
    members = {n: table.guild.add_member(table.env.create_user(n)) for n in names}
    for i, n in enumerate(names):
        await finish_game(table, members[n], 200 + i, 10 + i)
    res = await table["alice"].slash(table.channel, "leaderboard")
    msg = card(res)
    assert "page 1 of 2" in text_of(msg)
    assert [int(n) for n in ENTRY.findall(text_of(msg))] == list(range(1, 11))  # ten players
    res = await table["bob"].click(msg, label="Next")
    page2 = card(res)
    assert "page 2 of 2" in text_of(page2)
    assert [int(n) for n in ENTRY.findall(text_of(page2))] == [11, 12]
    nxt = next(c for c in components(page2) if c.label == "Next")
    assert nxt.disabled


async def test_stats_and_rating(table: Table) -> None:
    await finish_game(table, table["alice"], 301, 5)
    res = await table["bob"].slash(table.channel, "stats", member=table["alice"])
    text = text_of(card(res))
    assert "**Panda Royale**" in text
    assert re.search(r"\d wins? in 1 game\b", text), text
    # the rating: a whole number, said to start at 1,000 (no μ or σ)
    assert re.search(r"Rating \*\*\d{1,3}(,\d{3})*\*\* \(everyone starts at 1,000\)", text), text
    assert "μ" not in text and "σ" not in text
    res = await table["bob"].slash(table.channel, "stats")
    assert "No finished games" in text_of(card(res))
    ratings = await table.env.bot.service.db.results.ratings(table.guild.id, "royale",
                                                             [str(table["alice"].id), "cpu:1"])
    assert ratings[str(table["alice"].id)].games == 1 and ratings["cpu:1"].games == 1


def pages_menu(msg: Any) -> Any:
    """The /help card's menu of pages."""
    return next(c for c in components(msg) if verb(c.custom_id) == "page")


async def test_help_pages(table: Table) -> None:
    res = await table["alice"].slash(table.channel, "help")
    assert res.ephemeral and "/royale new" in text_of(res.response)
    menu = pages_menu(res.response)
    page2 = next(o for o in menu.options if o.label == "A round of Panda Royale")
    res2 = await table["alice"].select(res.response, [page2.value], custom_id=menu.custom_id)
    assert "Pity" in text_of(card(res2))
    assert "/royale new" not in text_of(card(res2))  # one page at a time


async def test_help_has_the_rules_inside_discord(table: Table) -> None:
    res = await table["alice"].slash(table.channel, "help")
    menu = pages_menu(res.response)
    labels = [o.label for o in menu.options]
    assert {"A round of Panda Royale", "Scoring", "Mayhem", "Posing Pandas"} <= set(labels)
    texts = [text_of(res.response)]
    for option in menu.options[1:]:
        shown = await table["alice"].select(res.response, [option.value],
                                            custom_id=menu.custom_id)
        page = text_of(card(shown))
        assert len(page) <= TEXT_LIMIT  # a Components V2 message's text, in all
        texts.append(page)
    everything = "\n".join(texts)
    assert "× the number of red dice" in everything and "value × 10" in everything
    assert ".md" not in everything and "docs/" not in everything
    rules = text_of(card(await table["alice"].slash(table.channel, "royale rules")))
    assert ".md" not in rules and "docs/" not in rules and "/help" in rules
