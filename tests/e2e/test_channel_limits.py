"""Whole games under Discord's per-channel limit (5 message requests per 5 s, 429s announced
by no header, discord.py's sleep-and-retry): every message ends at its newest state, no edit
lands after a newer one of the same message, and every interaction is answered.
"""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

import pytest

from tests.e2e.ratelimit import ChannelLimits, channel_limits
from tests.e2e.table import PASSIVE, Table, click_together, components, text_of, verb

DECISIONS = ("pick", "pass", "fire", "save", "mtarget", "mdie")


async def _decide(table: Table, rng: random.Random, clicks: list[Any]) -> None:
    """The decision the game message shows now, as its player sees it (the message may be
    behind the game while edits wait on the limit: then the click is refused as stale)."""
    msg = table.game_message()
    who = table.decider(msg)
    comps = {verb(c.custom_id): c for c in components(msg)
             if getattr(c, "custom_id", None) and verb(c.custom_id) in DECISIONS}
    if who is None or not comps:
        return
    if "pick" in comps:
        picks = [c for c in components(msg) if verb(getattr(c, "custom_id", "")) == "pick"]
        res = await who.click(msg, custom_id=rng.choice(picks).custom_id)
    elif "fire" in comps:
        res = await who.click(msg, custom_id=comps[rng.choice(("fire", "save"))].custom_id)
    elif "mdie" in comps or "mtarget" in comps:
        sel = comps.get("mdie") or comps["mtarget"]
        res = await who.select(msg, [rng.choice(sel.options).value], custom_id=sel.custom_id)
    else:
        res = await who.click(msg, custom_id=comps["pass"].custom_id)
    clicks.append(res)
    if rng.random() < 0.5 and "pick" in comps:  # a double tap: the message is stale now
        await table.env.advance_time(0.1)
        picks = [c for c in components(msg) if verb(getattr(c, "custom_id", "")) == "pick"]
        clicks.extend(await click_together(table.env, [(who, msg, rng.choice(picks).custom_id)],
                                           stale_ok=True))


async def _play_under_limits(table: Table, limits: ChannelLimits, seed: int) -> list[Any]:
    db = table.env.bot.service.db
    rng = random.Random(seed)
    clicks: list[Any] = []
    for _ in range(4000):
        game = await db.games.latest_in_channel(table.channel.id)
        if game is not None and game.status == "finished":
            break
        await _decide(table, rng, clicks)
        await table.env.advance_time(0.3)  # quick players: the limit is met often
    else:
        raise AssertionError("the game did not end")
    await table.env.advance_time(60)  # every edit still waiting on the limit goes out
    return clicks


def _check_order(limits: ChannelLimits) -> None:
    """Per message, Discord applied the bot's requests in the order the bot started them,
    and the last request the bot started for each message was applied."""
    per_message: dict[int, list[int]] = defaultdict(list)
    for req in limits.applied():
        assert req.message_id is not None, req
        per_message[req.message_id].append(req.started)
    for message_id, started in per_message.items():
        assert started == sorted(started), (message_id, started)
    for req in limits.requests:
        if req.applied is None and req.message_id is not None:
            later = per_message.get(req.message_id, [])
            assert later and later[-1] > req.started, req


@pytest.mark.parametrize(("humans", "computers", "seed"), [(2, 2, 11)])
async def test_a_whole_game_under_the_channel_limit(
        table: Table, monkeypatch: pytest.MonkeyPatch,
        humans: int, computers: int, seed: int) -> None:
    names = ["alice", "bob", "carol", "dave"][:humans]
    # real seconds: a 429's retry_after (up to 5.8 s) is waited on the wall clock while the
    # test settles, and pictures are drawn while time advances
    table.env.settle_timeout = 60.0
    # every click deferred (as a move slower than ui.board.SHOW_WITHIN is): the boards'
    # edits then go through the webhook and meet the limit (a move answered by its own edit
    # meets no limit: tests/e2e/test_answers.py)
    monkeypatch.setattr("ui.board.SHOW_WITHIN", 0.0)
    with channel_limits(table.env, monkeypatch, seed) as limits:
        await table[names[0]].slash(table.channel, "royale new", mischief=True, cannon=True,
                                    mercenary=True, turn_timeout=3600)
        for name in names[1:]:
            await table[name].click(table.channel.last_message, label="Join")
            await table.env.advance_time(1.0)
        for _ in range(computers):
            await table.add_computer(table[names[0]], table.channel.last_message, "normal")
            await table.env.advance_time(1.0)
        await table[names[0]].click(table.channel.last_message, label="Start")
        await table.env.advance_time(1.0)
        clicks = await _play_under_limits(table, limits, seed)

    # the limit was really met, many times: the bot's edits were held back and retried
    assert limits.refused >= 10, limits.refused
    # every interaction was answered (acknowledged at once: the callback is not limited)
    assert clicks and all(res.acknowledged for res in clicks)
    _check_order(limits)
    # every message shows its newest state: no decision left on any message, the game over
    # announced by a new message that pings every player
    history = table.channel.history()
    for msg in history:
        live = [c.custom_id for c in components(msg) if getattr(c, "custom_id", None)
                and verb(c.custom_id) not in PASSIVE and not c.disabled]
        assert not live, (msg.id, live)
    last = history[-1]
    assert all(f"<@{table[n].id}>" in text_of(last) for n in names)
    assert "rematch" in {verb(c.custom_id) for c in components(last)
                         if getattr(c, "custom_id", None)}
    print(f"\n{humans}+{computers} players: {len(limits.requests)} message requests, "
          f"{limits.refused} refused with 429 and retried, {len(clicks)} clicks")
