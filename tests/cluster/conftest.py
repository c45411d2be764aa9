"""The cluster tests: the in-process ones hold their bots' requests to Discord's OpenAPI
description as the e2e tests do; the cluster processes of the two-cluster test check their own
(tests/cluster/node.py)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def requests_discord_accepts(checked_requests: list[object]) -> None:
    """Every request of the test's bots is one Discord's OpenAPI description accepts
    (tests/discord_requests.py; the exceptions: tools/discord_api/exceptions.py)."""
