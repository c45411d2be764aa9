"""Abuse: crowds on one button, dead games' buttons, option limits, Discord failing."""

from __future__ import annotations

import random

import pytest

from tests.e2e.table import (
    Table,
    click_together,
    components,
    custom_ids,
    private,
    refused,
    text_of,
    token_of,
    verb,
)
from tests.e2e.test_royale_guards import play_until, started


async def actions_of(table: Table) -> list:  # type: ignore[type-arg]
    db = table.env.bot.service.db
    game = await db.games.latest_in_channel(table.channel.id)
    return await db.games.action_log(game.id)


async def test_a_crowd_on_one_button(table: Table) -> None:
    await started(table, ["alice", "bob", "carol"])
    await play_until(table, "pick", random.Random(31))
    msg = table.game_message()
    button = next(c for c in components(msg) if verb(c.custom_id) == "pick")
    before = len(await actions_of(table))
    crowd = [table[n] for n in ("alice", "bob", "carol", "dave", "erin")] * 2
    results = await click_together(table.env, [(m, msg, button.custom_id) for m in crowd])
    assert all(r.acknowledged for r in results)  # everyone got exactly one answer
    applied = [r for r in results if not refused(r)]
    assert len(applied) == 1
    assert len(await actions_of(table)) > before
    game = await table.env.bot.service.db.games.latest_in_channel(table.channel.id)
    picks = [a for a in (await actions_of(table))[before:] if a.action["type"] == "pick"
             and a.actor == token_of(game, table.decider(msg).id)]
    assert len(picks) == 1


async def test_buttons_of_a_cancelled_game(table: Table) -> None:
    await started(table, ["alice", "bob"])
    await play_until(table, "pick", random.Random(32))
    msg = table.game_message()
    who = table.decider(msg)
    old = next(c for c in components(msg) if verb(c.custom_id) == "pick").custom_id
    await table["alice"].slash(table.channel, "royale cancel")
    assert not [c for c in components(table.game_message()) if verb(c.custom_id) == "pick"]
    [res] = await click_together(table.env, [(who, msg, old)], stale_ok=True)
    assert "cancelled" in text_of(private(res))


async def test_buttons_of_a_finished_game(table: Table) -> None:
    await started(table, ["alice", "bob"])
    rng = random.Random(33)
    await play_until(table, "pick", rng)
    msg = table.game_message()
    old = next(c for c in components(msg) if verb(c.custom_id) == "pick").custom_id
    who = table.decider(msg)
    await table.play_to_end(rng)
    [res] = await click_together(table.env, [(who, msg, old)], stale_ok=True)
    assert "over" in text_of(private(res))
    before = len(await actions_of(table))
    assert len(await actions_of(table)) == before


async def test_slash_options_at_their_limits(table: Table) -> None:
    res = await table["alice"].slash(table.channel, "royale new", turn_timeout=3600,
                                     mischief=True, cannon=True, mercenary=True)
    assert not refused(res) and "3600 s a decision" in text_of(res.response)
    assert "Mayhem: Mischief, Cannon, Mercenary" in text_of(res.response)
    await table["alice"].slash(table.channel, "royale cancel")
    res = await table["alice"].slash(table.channel, "royale new", turn_timeout=15)
    assert "15 s a decision" in text_of(res.response)
    await table["alice"].slash(table.channel, "royale cancel")
    for bad in (14, 3601):
        with pytest.raises(Exception, match="must be"):
            await table["alice"].slash(table.channel, "royale new", turn_timeout=bad)
    assert await table.env.bot.service.db.games.open_in_channel(table.channel.id) is None


@pytest.mark.parametrize("status", [429, 500])
async def test_discord_failing_an_answer(table: Table, status: int) -> None:
    await started(table, ["alice", "bob"])
    await play_until(table, "pick", random.Random(34))
    msg = table.game_message()
    who = table.decider(msg)
    button = next(c for c in components(msg) if verb(c.custom_id) == "pick")
    before = len(await actions_of(table))
    table.env.inject_error("POST", "/interactions/*/*/callback", status=status, code=0,
                           message="injected")
    since = len(table.env.http_requests)
    res = await who.click(msg, custom_id=button.custom_id)
    assert len(await actions_of(table)) == before + 1  # the decision was committed once
    # Discord refused the acknowledgement, yet the move is shown (the message is edited by
    # id) and the next player is pinged: no committed move stays unshown
    routes = [f"{r.method} {r.path.split('/')[1]}" for r in table.env.http_requests[since:]]
    assert "PATCH channels" in routes, routes
    # the ping follows the edit (the previous ping is deleted after it, in the background),
    # through the webhook of an earlier interaction of the game (this one was not answered)
    assert "POST webhooks" in routes[routes.index("PATCH channels"):], routes
    fresh = table.game_message()
    assert fresh.id == msg.id  # the clicked card, redrawn at the game's new version
    assert custom_ids(fresh) != custom_ids(msg) and text_of(fresh) != text_of(msg)
    nxt = table.decider(fresh)
    if nxt is not None and nxt is not who:
        assert table.channel.history()[-1].content.startswith(f"<@{nxt.id}>")
    # a second click on the old button (a client that missed the edit) applies nothing
    (res,) = await click_together(table.env, [(who, msg, button.custom_id)], stale_ok=True)
    assert res.acknowledged and refused(res)
    assert len(await actions_of(table)) == before + 1
