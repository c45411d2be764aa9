"""What players on real Discord clients live through: a mention notifies only in the content of a
new message, so every hand-over is a new ping message that mentions exactly the next player, game
messages never ping anyone, and a new message pings every player when the game ends. Players
carry names in many scripts, and one is named like a mention of a member who does not play."""

from __future__ import annotations

import itertools
import random
from typing import Any

from tests.e2e.table import PASSIVE, Table, components, private, text_of, verb
from tests.e2e.test_phone import NAMES, named_table, open_royale

GAME_MESSAGE_MENTIONS = {"parse": [], "users": []}


def channel_posts(env: Any, start: int = 0) -> list[dict[str, Any]]:
    """The new messages the bot posted in channels, with its token or as an interaction's
    followup (not the first answers to interactions), in order."""
    return [r.json for r in env.http_requests[start:] if is_new_message(r)]


def is_new_message(r: Any) -> bool:
    """A request that creates a message in a channel: a post with the bot token, or a
    followup through an interaction's webhook."""
    if r.method != "POST" or not isinstance(r.json, dict):
        return False
    if r.path.startswith("/channels/"):
        return bool(r.path.endswith("/messages"))
    return r.path.startswith("/webhooks/") and r.path.count("/") == 3


def allowed_users(payload: dict[str, Any]) -> set[int]:
    mentions = payload.get("allowed_mentions") or {}
    assert "everyone" not in mentions.get("parse", []) and "roles" not in mentions.get("parse",
                                                                                         [])
    assert "users" not in mentions.get("parse", []), mentions  # never "anyone mentioned"
    return {int(u) for u in mentions.get("users", [])}


async def play_recording(table: Table, rng: random.Random) -> list[tuple[Any, int]]:
    """Play to the end; (who decided, index of the first request of their decision) each."""
    env = table.env
    steps = []
    for _ in range(3000):
        msg = table.game_message()
        who = table.decider(msg)
        start = len(env.http_requests)
        if not await table.play_decision(rng, trade_rate=0.4):
            return steps
        steps.append((who, start))
    raise AssertionError("the game did not end")


async def test_every_hand_over_pings_the_next_player_by_a_new_message(simcord_env: Any) -> None:
    table = await named_table(simcord_env, NAMES[:4])
    humans = list(table.members)
    first = len(simcord_env.http_requests)
    await open_royale(table, humans, cpus=0)
    steps = await play_recording(table, random.Random(11))
    assert len(steps) > 40
    hand_overs = 0
    for (who, start), (nxt, end) in itertools.pairwise(steps):
        if nxt is who:
            continue
        hand_overs += 1
        window = [r.json for r in simcord_env.http_requests[start:end] if is_new_message(r)]
        pings = [p for p in window if p.get("content", "").startswith(f"<@{nxt.id}>")]
        assert len(pings) == 1, (who.id, nxt.id, [p.get("content") for p in window])
        assert allowed_users(pings[0]) == {nxt.id}
    assert hand_overs > 30  # 4 players: nearly every decision passes the turn on
    # game messages (lobby, rounds) never ping: edits and posts carry no allowed mention
    for r in simcord_env.http_requests[first:]:
        body = r.json if isinstance(r.json, dict) else {}
        if r.method == "PATCH" and "allowed_mentions" in body:
            assert allowed_users(body) == set(), body
    # at most one ping stands at any time: the channel keeps no trail of old pings
    history = table.channel.history()
    standing = [m for m in history if m.content.startswith("<@") and "your turn" in m.content]
    assert len(standing) == 0  # the end took the last one away
    # the end: a new message that pings every player once
    final = history[-1]
    posted = channel_posts(simcord_env, first)[-1]
    assert text_of(final).startswith("### 🏁 Panda Royale is over!")
    assert allowed_users(posted) == {m.id for m in table.members.values()}
    for m in table.members.values():
        assert text_of(final).count(f"<@{m.id}>") == 1


async def test_a_name_that_is_a_mention_pings_nobody(simcord_env: Any) -> None:
    base = await named_table(simcord_env, ["alice", "bob", "onlooker"])
    onlooker = base.members["u2"]
    # bob shows as a mention of the onlooker, who does not play
    bob = base.guild.add_member(simcord_env.create_user("trickster"),
                                nick=f"<@{onlooker.id}> @everyone **bold**")
    table = Table(simcord_env, base.guild, base.channel,
                  {"u0": base.members["u0"], "u1": bob})
    table.by_id = {m.id: m for m in table.members.values()}
    first = len(simcord_env.http_requests)
    await open_royale(table, ["u0", "u1"], cpus=1)
    await play_recording(table, random.Random(5))
    assert text_of(table.channel.history()[-1]).startswith("### 🏁")
    for r in simcord_env.http_requests[first:]:
        body = r.json if isinstance(r.json, dict) else {}
        if "allowed_mentions" in body:
            assert onlooker.id not in allowed_users(body), body
    # the final standings show the trickster's name as text, its markdown escaped
    standings = text_of(table.channel.history()[-1])
    assert "\\*\\*bold\\*\\*" in standings, standings


async def test_a_name_quoted_in_an_error_shows_as_written_and_pings_nobody(
        simcord_env: Any) -> None:
    base = await named_table(simcord_env, ["alice", "onlooker"])
    onlooker = base.members["u1"]
    name = f"||x||<@{onlooker.id}>**b**"
    assert len(name) <= 32  # a Discord nickname
    trickster = base.guild.add_member(simcord_env.create_user("trickster"), nick=name)
    table = Table(simcord_env, base.guild, base.channel, {"u0": base.members["u0"],
                                                          "u1": trickster})
    table.by_id = {m.id: m for m in table.members.values()}
    res = await table["u1"].slash(table.channel, "royale new")
    assert res.acknowledged
    await table["u0"].click(table.channel.last_message, label="Join")
    await table["u1"].click(table.channel.last_message, label="Start")
    msg = table.game_message()
    if table.decider(msg) is not trickster:  # the trickster's turn: alice clicks anyway
        assert await table.play_decision(random.Random(3), trade_rate=0.0)
        msg = table.game_message()
    assert table.decider(msg) is trickster
    first = len(simcord_env.http_requests)
    button = next(c for c in components(msg)
                  if verb(getattr(c, "custom_id", None)) not in ("", *PASSIVE))
    res = await table["u0"].click(msg, custom_id=button.custom_id)
    text = private(res).content
    assert text.startswith("It's ") and text.endswith("'s turn, not yours."), text
    assert "\\|\\|x\\|\\|" in text and "\\*\\*b\\*\\*" in text, text
    assert f"<@{onlooker.id}>" not in text, text
    sent = [r.json for r in simcord_env.http_requests[first:]
            if isinstance(r.json, dict) and "turn, not yours" in str(r.json)]
    assert sent, "the answer was not seen"
    for payload in sent:
        body = payload.get("data", payload)
        assert (body.get("allowed_mentions") or {}).get("parse") == [], body
        assert allowed_users(body) == set(), body
