"""The bot token's global budget: Discord allows one bot 50 requests per second with its token,
all shards and clusters together; interaction callbacks and the interaction webhook are outside
that limit. A game played by people answers through the interactions: it spends almost nothing
of the budget, and every hand-over still pings the next player by a new message."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

import pytest

from bot.request_budget import counts_against_global_limit
from tests.e2e.table import Table, text_of
from tests.e2e.test_phone import named_table, open_royale
from tests.e2e.test_real_clients import allowed_users, is_new_message, play_recording


def global_bucket(r: Any, application_id: int) -> bool:
    """Whether a request SimCord received counts against the bot's global limit (everything
    sent with the bot token: not an interaction callback, not the interaction webhook); the
    one classification, shared with ``./dev bench-bot --which rest``."""
    return counts_against_global_limit(r.path, application_id)


def route(r: Any) -> str:
    parts = r.path.split("/")
    return f"{r.method} /{parts[1]}/…/{parts[-1] if parts[-1].isalpha() else 'id'}"


@pytest.mark.parametrize(("players", "mayhem", "thread", "limit"),
                         [(4, False, False, 0.1), (10, True, False, 0.15),
                          # in a thread: opening it, its first board and ping, the result in
                          # the channel (an interaction's followups cannot reach a thread)
                          (4, False, True, 0.15)])
async def test_a_game_of_people_spends_almost_nothing_of_the_global_budget(
        simcord_env: Any, players: int, mayhem: bool, thread: bool, limit: float) -> None:
    table = await named_table(simcord_env, [f"p{i}" for i in range(players)])
    first = len(simcord_env.http_requests)
    if mayhem:
        await open_royale(table, list(table.members), cpus=0)
    else:
        host = table["u0"]
        await host.slash(table.channel, "royale new", thread=thread)
        for name in list(table.members)[1:]:
            await table[name].click(table.channel.last_message, label="Join")
        await host.click(table.channel.last_message, label="Start")
    if thread:  # the game plays in the thread opened from its lobby
        (channel,) = table.channel.threads
        table = Table(simcord_env, table.guild, channel, table.members)
        table.by_id = {m.id: m for m in table.members.values()}
    steps = await play_recording(table, random.Random(players))
    requests = simcord_env.http_requests[first:]
    app = simcord_env.backend.application_id
    counted = [r for r in requests if global_bucket(r, app)]
    per_decision = len(counted) / len(steps)
    print(f"\n{players} people{' (Mayhem)' if mayhem else ''}{' in a thread' if thread else ''}: "
          f"{len(steps)} decisions, "
          f"{len(counted)} global ({per_decision:.3f} per decision), "
          f"{len(requests) - len(counted)} exempt; global by route: "
          f"{dict(Counter(route(r) for r in counted))}")
    assert per_decision <= limit, Counter(route(r) for r in counted)
    # every hand-over still pings exactly the next player, by a new message
    hand_overs = 0
    for (who, start), (nxt, end) in itertools.pairwise(steps):
        if nxt is who:
            continue
        hand_overs += 1
        window = [r.json for r in simcord_env.http_requests[start:end] if is_new_message(r)]
        pings = [p for p in window if p.get("content", "").startswith(f"<@{nxt.id}>")]
        assert len(pings) == 1, (who.id, nxt.id, [p.get("content") for p in window])
        assert allowed_users(pings[0]) == {nxt.id}
    assert hand_overs > len(steps) // 2
    assert text_of(table.channel.history()[-1]).startswith("### 🏁")


async def test_a_timeout_long_after_the_last_click_uses_the_bot_token(table: Table) -> None:
    """15 minutes after a click its token is dead: a turn timeout then posts with the bot
    token (within the budget), and the game goes on."""
    from tests.e2e.test_royale_guards import play_until, started

    env = table.env
    await started(table, ["alice", "bob"], turn_timeout=1200)
    await play_until(table, "pick", random.Random(3))
    since = len(env.http_requests)
    await env.advance_time(1201)
    app = env.backend.application_id
    new = env.http_requests[since:]
    assert any(global_bucket(r, app) and r.method == "POST" for r in new), \
        [f"{r.method} {r.path}" for r in new]
    assert not any(r.path.startswith(f"/webhooks/{app}/") for r in new)
    assert table.decider(table.game_message()) is not None


GAMES = 200


async def test_two_hundred_timeouts_in_one_second_stay_within_the_budget(
        table: Table, monkeypatch: pytest.MonkeyPatch, db_path: Any) -> None:
    """200 games whose turn timers fire in the same second, with no interaction to answer
    through (the bot restarted): the bot-token requests queue in the bot's budget (at most its
    rate per second, pings and new boards first) instead of a storm of 429s, and every game
    moves on."""
    from simcord.http import client as fake

    from bot.client import PandaBot
    from bot.service import Limits, Person, Place
    from bot.settings import Settings

    env = table.env
    service = env.bot.service
    service.limits = Limits(per_host=1000, per_server=1000)
    sent: list[tuple[float, str]] = []
    request = fake.FakeHTTPClient.request

    async def recorded(self: Any, route: Any, **kwargs: Any) -> Any:
        sent.append((env.backend.clock.elapsed, route.method))
        return await request(self, route, **kwargs)

    monkeypatch.setattr(fake.FakeHTTPClient, "request", recorded)
    alice, bob = table["alice"], table["bob"]
    games = []
    for i in range(GAMES):
        channel = table.guild.create_text_channel(f"g{i}")
        place = Place(table.guild.id, channel.id)
        game = await service.new_lobby(kind="royale", place=place,
                                       host=Person(alice.id, "alice"),
                                       settings={"turn_timeout": 600})
        await service.join(game.id, Person(bob.id, "bob"))
        games.append((await service.start(game.id, Person(alice.id, "alice"))).game.id)
    old = env.bot
    settings = Settings(_env_file=None, database_path=db_path,  # type: ignore[call-arg]
                        discord_token=None)
    await env.restart_bot(PandaBot(settings))  # its deadlines armed again by the new bot
    await old.close()
    bot = env.bot
    service = bot.service
    env.settle_timeout = 120.0  # 200 games' commits, on the wall clock
    await env.settle()
    sent.clear()
    await env.advance_time(601)  # every deadline passes in the same second
    for _ in range(40):
        await env.advance_time(1)
    moved = [g for g in games
             if any(a.actor.startswith("timeout:") for a in await service.db.games.action_log(g))]
    assert len(moved) == GAMES
    assert sent, "no bot-token request"
    rate = bot.budget.rate
    for second in range(int(max(t for t, _ in sent)) + 1):
        in_window = sum(1 for t, _ in sent if second <= t < second + 1)
        assert in_window <= rate + bot.budget.burst, (second, in_window, rate)
    assert rate + bot.budget.burst < 50
    assert bot.budget.waited > 0  # the burst really queued
    posts = [i for i, (_, m) in enumerate(sent) if m == "POST"]
    deletes = [i for i, (_, m) in enumerate(sent) if m == "DELETE"]
    assert not deletes or min(deletes) > sorted(posts)[len(posts) // 2]  # tidying waits
