"""Whole games of Posing Pandas through Discord, clicked as the players would: the dice
toggles, Roll and the box select, with the REST requests each decision costs."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

import discord
import pytest

from bot.service.logs import log_of
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

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


# ------------------------------------------------------------------------- helpers


async def open_posing(table: Table, players: list[str], cpus: int = 0, seed: int = 2026,
                      **options: object) -> None:
    """The first player opens a lobby, the others join, the host adds computer players.
    ``seed`` is the game's (the service draws a random one otherwise)."""
    table.env.bot.service.seed_source = lambda: seed
    host = table[players[0]]
    res = await host.slash(table.channel, "posing new", **options)
    assert res.acknowledged and not refused(res), [text_of(a) for a in answers(res)]
    lobby = table.channel.last_message
    for name in players[1:]:
        click = await table[name].click(lobby, label="Join")
        assert click.acknowledged and not refused(click)
    for _ in range(cpus):  # the lobby's menu of computer players
        click = await table.add_computer(host, table.channel.last_message, "normal")
        assert click.acknowledged and not refused(click)
    lobby = table.channel.last_message
    assert f"Players ({len(players) + cpus}/10)" in text_of(lobby)


async def start_posing(table: Table, players: list[str], cpus: int = 0, seed: int = 2026,
                       **options: object) -> None:
    await open_posing(table, players, cpus, seed, **options)
    res = await table[players[0]].click(table.channel.last_message, label="Start")
    assert res.acknowledged and not refused(res)


def part(msg: discord.Message, wanted: str) -> list[Any]:
    """The components of a message whose verb is ``wanted``."""
    return [c for c in components(msg) if verb(getattr(c, "custom_id", None)) == wanted]


def roll_button(msg: discord.Message) -> Any:
    return part(msg, "roll")[0]


def box_select(msg: discord.Message) -> Any:
    return part(msg, "fill")[0]


def option_points(option: Any) -> int:
    """The points of a box option, from its label ("Set of 3 — 3 points")."""
    return int(option.label.rsplit("— ", 1)[1].split()[0])


@dataclass
class Decision:
    kind: str  # "hold", "roll" or "fill"
    requests: int
    posted: bool
    routes: list[str] = field(default_factory=list)


class Player:
    """Reads the turn message and clicks what it offers, recording each click's cost."""

    def __init__(self, table: Table, rng: random.Random, roll_rate: float = 0.6) -> None:
        self.table = table
        self.rng = rng
        self.roll_rate = roll_rate
        self.decisions: list[Decision] = []

    async def _do(self, kind: str, who: Any, msg: discord.Message, custom_id: str,
                  values: list[str] | None = None) -> Any:
        env = self.table.env
        before_requests = len(env.http_requests)
        before_messages = len(self.table.channel.history())
        if values is None:
            res = await who.click(msg, custom_id=custom_id)
        else:
            res = await who.select(msg, values, custom_id=custom_id)
        assert res.acknowledged, res
        assert not refused(res), f"refused: {[text_of(a) for a in answers(res)]}"
        new = env.http_requests[before_requests:]
        routes = [f"{r.method} {r.path.split('/')[1]}" for r in new]
        posted = "POST webhooks" in routes  # a new message: a followup of the click
        assert len(self.table.channel.history()) >= before_messages
        self.decisions.append(Decision(kind, len(new), posted, routes))
        return res

    async def toggle(self, who: Any, index: int) -> None:
        msg = self.table.game_message()
        await self._do("hold", who, msg, part(msg, "hold")[index].custom_id)

    async def roll(self, who: Any) -> None:
        msg = self.table.game_message()
        await self._do("roll", who, msg, roll_button(msg).custom_id)

    async def fill(self, who: Any, box: str) -> None:
        msg = self.table.game_message()
        await self._do("fill", who, msg, box_select(msg).custom_id, [box])

    async def decide(self) -> bool:
        """One decision of the player the message waits on (toggles count as part of it).
        False once the game is over."""
        msg = self.table.game_message()
        who = self.table.decider(msg)
        if who is None or not part(msg, "fill"):
            return False
        roll = roll_button(msg)
        if not roll.disabled and self.rng.random() < self.roll_rate:
            dice = part(msg, "hold")
            for index in self.rng.sample(range(len(dice)), self.rng.randint(0, 3)):
                await self.toggle(who, index)
            msg = self.table.game_message()
            if roll_button(msg).disabled:  # every die held: free one
                await self.toggle(who, 0)
            await self.roll(who)
            return True
        options = box_select(msg).options
        best = max(option_points(o) for o in options)
        choice = self.rng.choice([o for o in options if option_points(o) == best])
        await self.fill(who, choice.value)
        return True

    async def play_to_end(self, limit: int = 2000) -> int:
        for n in range(limit):
            if not await self.decide():
                return n
        raise AssertionError("the game did not end")


async def latest_game(table: Table) -> Any:
    game = await table.env.bot.service.db.games.latest_in_channel(table.channel.id)
    assert game is not None
    return game


async def final_card(table: Table) -> bytes:
    final = table.channel.history()[-1]  # the game-over card
    assert sorted(verb(c) for c in custom_ids(final)) == [
        "log", "pcard", "rematch", "replay", "review"]
    (card,) = final.attachments  # the score card, shown by the card's media gallery
    assert card.filename == "posing-card.png"
    assert pictures_of(final) == ["posing-card.png"]
    data: bytes = await card.read()
    return data


# ------------------------------------------------------------------------- tests


async def test_solo_game_from_new_to_the_score_card(table: Table) -> None:
    alice = table["alice"]
    env = table.env
    await open_posing(table, ["alice"])
    lobby = table.channel.last_message
    before = len(env.http_requests)
    start = await alice.click(lobby, label="Start")
    assert start.acknowledged and not refused(start)
    # acknowledged first, the lobby message becomes the turn message, and a ping tells alice
    new = env.http_requests[before:]
    assert [(r.method, r.path.split("/")[1]) for r in new] == [
        ("POST", "interactions"), ("PATCH", "webhooks"), ("POST", "webhooks")]
    ping = new[-1].json
    assert ping["content"].startswith(f"<@{alice.id}>")
    assert ping["allowed_mentions"] == {"users": [alice.id], "parse": []}

    msg = table.game_message()
    assert msg.id == lobby.id and table.decider(msg) is alice
    assert len(part(msg, "hold")) == 5 and "(2 left)" in roll_button(msg).label
    labels = [o.label for o in box_select(msg).options]
    assert len(labels) == 11 and all(" — " in label and "point" in label for label in labels)

    player = Player(table, random.Random(7))
    # the first turn explicitly: hold two dice, let one go again, roll twice, then fill
    await player.toggle(alice, 1)
    await player.toggle(alice, 3)
    msg = table.game_message()
    held = [c for c in part(msg, "hold") if c.style is discord.ButtonStyle.success]
    assert len(held) == 2 and all("_held" in c.emoji.name for c in held)
    assert [i for i, c in enumerate(part(msg, "hold")) if c in held] == [1, 3]
    await player.toggle(alice, 3)
    faces = list(table.env.bot.service.state_of(await latest_game(table)).dice)
    await player.roll(alice)
    game = await latest_game(table)
    state = table.env.bot.service.state_of(game)
    assert state.dice[1] == faces[1] and state.rolls == 2
    msg = table.game_message()
    kept = part(msg, "hold")[1]  # the held die stays held after the roll
    assert kept.style is discord.ButtonStyle.success and "_held" in kept.emoji.name
    await player.roll(alice)
    msg = table.game_message()
    assert roll_button(msg).disabled and all(c.disabled for c in part(msg, "hold"))
    await player.fill(alice, box_select(msg).options[0].value)
    assert len(box_select(table.game_message()).options) == 10

    decisions = await player.play_to_end()
    assert decisions >= 10
    kinds = [d.kind for d in player.decisions]
    assert kinds.count("fill") == 11 and "roll" in kinds and "hold" in kinds
    # one turn message all game long, then the game-over announcement; each click is
    # answered by the message's edit itself (one callback, UPDATE_MESSAGE)
    history = table.channel.history()
    assert len(history) == 2
    assert text_of(history[-1]).startswith("### 🏁 Posing Pandas is over!")
    *playing, last = player.decisions
    assert all(d.routes == ["POST interactions"] for d in playing), playing
    # the last fill: the announcement posted, then the ping deleted, both through the click's
    # interaction (outside the bot's global request budget)
    assert last.routes == ["POST interactions", "POST webhooks", "DELETE webhooks"]

    final = table.channel.history()[-1]
    said = text_of(final)
    assert said.startswith(f"### 🏁 Posing Pandas is over!\n<@{alice.id}>")
    assert "🏆 **alice** wins with **" in said
    assert (await final_card(table)).startswith(PNG_MAGIC)

    game = await latest_game(table)
    assert game.status == "finished"
    state = table.env.bot.service.state_of(game)
    assert all(len(boxes) == 11 for boxes in state.filled)
    results = await table.env.bot.service.db.results.of_game(game.id)
    assert [(r.player_id, r.score, r.won) for r in results] == \
        [(str(alice.id), sum(state.filled[0].values()), True)]

    # the game log, privately, as JSON Lines
    res = await alice.slash(table.channel, "posing log")
    assert res.acknowledged and private(res)
    (att,) = res.response.attachments
    assert att.filename == f"posing-game-{game.id}.jsonl"
    events = [json.loads(line) for line in (await att.read()).decode().splitlines()]
    kinds_logged = [e["event"] for e in events]
    assert kinds_logged[0] == "setup" and kinds_logged[-1] == "game_end"
    assert {"roll", "fill"} <= set(kinds_logged) and kinds_logged.count("fill") == 11
    assert events[-1]["winners"] == [str(alice.id)]


@pytest.mark.both_backends
async def test_three_people_and_a_computer_player(table: Table) -> None:
    names = ["alice", "bob", "carol"]
    env = table.env
    await start_posing(table, names, cpus=1)
    game = await latest_game(table)
    assert [p.is_bot for p in game.players] == [False, False, False, True]

    player = Player(table, random.Random(3))
    deciders: list[int] = []
    opening: list[str] = []  # what each person's turn card says when their turn comes
    for _ in range(2000):
        msg = table.game_message()
        who = table.decider(msg)
        if who is None or not part(msg, "fill"):  # the standings mention the winners
            break
        if not deciders or deciders[-1] != who.id:
            deciders.append(who.id)
            opening.append(text_of(msg))
        assert await player.decide()
    order = [table[n].id for n in names]
    assert deciders[:6] == order + order  # the computer's turns never wait on anybody

    # a click is answered by the message's edit; when the turn passes on to another
    # person, this message is closed and the next one posted, pinging them (the game's first
    # ping, posted at the start, is deleted in the background at the first hand-over)
    for d in player.decisions:
        if not d.posted:
            assert d.routes == ["POST interactions"], d
        else:
            assert d.kind == "fill" and d.routes[0] == "POST interactions", d
            kept = [r for r in d.routes if not r.startswith("DELETE")]
            assert kept == ["POST interactions", "POST webhooks"], d  # closed, then the next
            assert sum(r.startswith("DELETE") for r in d.routes) <= 1, d  # the start's ping
    *turns, last = player.decisions
    posts = [d for d in turns if d.posted]
    assert len(posts) == 3 * 11 - 1  # every human turn but the very first got a new message
    assert last.posted  # the game-over announcement

    history = table.channel.history()
    assert len(history) == 1 + len(posts) + 1
    for old in history[:-1]:
        assert not custom_ids(old), "a closed turn message still has components"
    # the computer's turns are summarised in the next person's card (alice follows Bao):
    # every one of her turns but the first opens with Bao's fill in the small print
    alices = [t for who, t in zip(deciders, opening, strict=True) if who == table["alice"].id]
    assert len(alices) == 11
    assert all("-# 🤖 **Bao (computer)** filled **" in t for t in alices[1:]), alices

    game = await latest_game(table)
    assert game.status == "finished"
    events = (await log_of(env.bot.service.db, game)).events
    totals = events[-1]["totals"]
    winners = events[-1]["winners"]
    final = history[-1]
    standings = text_of(final)
    names = {p.player_id: p.display_name for p in game.players}
    for w in winners:  # named in the standings; the card's heading pings the people
        assert names[w].split(" ")[0] in standings
    heading = standings.split("\n🏆", 1)[0]
    for seat in game.players:
        if not seat.is_bot:
            assert f"<@{seat.player_id}>" in heading
    if len(winners) > 1:
        assert "Shared win" in standings
    assert (await final_card(table)).startswith(PNG_MAGIC)
    results = await env.bot.service.db.results.of_game(game.id)
    assert {r.player_id: r.score for r in results} == totals
    assert {r.player_id for r in results if r.won} == set(winners)
    assert len(results) == 4


def test_standings_share_the_win() -> None:
    """Equal totals share the win (the standings are plain text of the game-over card)."""
    from bot.rules.posing.engine import ENGINE
    from bot.rules.posing.poses import BOX_IDS
    from bot.rules.posing.state import PosingState
    from bot.rules.rng import Rng
    from storage import Game, Seat
    from ui.ending import standings_text
    from ui.i18n import ENGLISH

    players = (Seat(0, "101", "alice"), Seat(1, "cpu:1", "Bao (computer)", True),
               Seat(2, "102", "bob"))
    cards = [dict.fromkeys(BOX_IDS, 2), dict.fromkeys(BOX_IDS, 2), dict.fromkeys(BOX_IDS, 1)]
    state = PosingState(seed=1, players=tuple(p.player_id for p in players), rng=Rng(1),
                        seat=2, dice=(1, 2, 3, 4, 5), rolls=1, filled=cards)
    game = Game(id=1, guild_id=1, channel_id=1, kind="posing", status="finished",
                   host_id=101, settings={}, seed=1, state=None, version=1, message_id=None,
                   deadline_ms=None, created_ms=0, updated_ms=0, finished_ms=0,
                   players=players)
    text = standings_text(ENGLISH, game, ENGINE.totals(state))
    assert text.splitlines() == [  # the winners once, then the other places
        "🏆 Shared win, **22** each: **alice**, **Bao (computer)**",
        "3. bob · 11",
    ]
