"""Every request a test's bots send through SimCord, held to Discord's OpenAPI description
(:mod:`tools.discord_api.check`): a payload Discord would refuse fails the test that sent it.

The e2e and cluster conftests make :func:`watch` autouse (through the ``checked_requests``
fixture of tests/conftest.py). It notes every SimCord environment the test starts (the
``simcord_env`` fixture's, one of ``simcord.run``, several), whose request log outlives bot
restarts, and checks each log once the test and its fixtures are done.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
import simcord

from tools.discord_api.check import Breach, checker

SHOWN = 20
"""Breaches a failure lists (the rest are counted)."""


def report(breaches: list[Breach], requests: int) -> str:
    """The failure's text: each distinct breach once, with how often it happened."""
    counts: dict[str, int] = {}
    for breach in breaches:
        counts[str(breach)] = counts.get(str(breach), 0) + 1
    lines = [f"{len(breaches)} breach(es) of Discord's OpenAPI description in {requests} "
             "request(s) (the exceptions: tools/discord_api/exceptions.py):"]
    lines += [f"  {text}" + (f"  (x{n})" if n > 1 else "")
              for text, n in list(counts.items())[:SHOWN]]
    if len(counts) > SHOWN:
        lines.append(f"  ... and {len(counts) - SHOWN} more")
    return "\n".join(lines)


CHECKED = pytest.StashKey[tuple[int, float]]()
"""How many requests this pytest process checked, and the seconds it took (the session's
summary says them)."""


def watch(monkeypatch: pytest.MonkeyPatch, config: pytest.Config) -> Iterator[list[Any]]:
    """Note the environments started until the generator resumes; then check their requests
    and fail the test on a breach."""
    envs: list[Any] = []
    start = simcord.Env.start

    async def noted_start(self: Any) -> None:
        envs.append(self)
        await start(self)

    monkeypatch.setattr(simcord.Env, "start", noted_start)
    yield envs
    check = checker()
    before, began = check.checked, time.perf_counter()
    breaches = [b for env in envs for b in check.check_all(env.http_requests)]
    count, seconds = config.stash.get(CHECKED, (0, 0.0))
    config.stash[CHECKED] = (count + check.checked - before,
                             seconds + time.perf_counter() - began)
    if breaches:
        pytest.fail(report(breaches, check.checked - before), pytrace=False)
