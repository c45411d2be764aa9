"""The hook of the e2e and cluster tests (tests/discord_requests.py) checks the requests of
every SimCord environment a test starts, and fails the test on a breach."""

from __future__ import annotations

import contextlib

import discord
import pytest
import simcord

from tests.discord_requests import watch


async def test_a_message_discord_would_refuse_fails_the_test_that_sent_it(
        monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> None:
    hook = watch(monkeypatch, request.config)
    envs = next(hook)
    for content in ("fine", "x" * 2001):
        client = discord.Client(intents=discord.Intents.default())
        async with simcord.run(client) as env:
            channel = env.create_guild("Pandas").create_text_channel("games")
            # SimCord refuses the long one too (an HTTPException): it was sent all the same.
            with contextlib.suppress(discord.HTTPException):
                await client.get_partial_messageable(channel.id).send(content)
        await client.close()
    assert len(envs) == 2
    with pytest.raises(pytest.fail.Exception) as failed:
        next(hook)
    assert "create_message (POST /channels/{channel_id}/messages): body content" in \
        str(failed.value)
    assert "1 breach(es)" in str(failed.value)
