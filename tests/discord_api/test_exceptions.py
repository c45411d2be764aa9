"""Each reviewed difference from the description (tools/discord_api/exceptions.py) still makes
one: an exception forgives something the description refuses, and only the values it names (a
sample request per entry breaches without the entry and passes with it; a value of another
kind at the same place still breaches); a stricter limit is stricter than the description's."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from tools.discord_api.check import Checker, checker
from tools.discord_api.exceptions import EXCEPTIONS, STRICTER, Allowance, Stricter

WEBHOOK = "/webhooks/1456074443980800003/a-token"
CALLBACK = "/interactions/1456074443980800001/a-token/callback"


def ping(user: Any) -> dict[str, Any]:
    return {"content": "your turn", "allowed_mentions": {"parse": [], "users": [user]}}


def picture(file_id: Any) -> dict[str, Any]:
    return {"embeds": [{"image": {"url": "attachment://card.png"}}],
            "attachments": [{"id": file_id, "filename": "card.png"}]}


def die_button(emoji_id: Any) -> dict[str, Any]:
    button = {"type": 2, "style": 2, "custom_id": "pr:pick:1:1:purple12-3", "label": "d12",
              "emoji": {"name": "pr_purple12_0a1b2c3d", "id": emoji_id}}
    return {"components": [{"type": 1, "components": [button]}]}


SAMPLES: dict[str, tuple[str, str, Any, Any]] = {
    # at pattern: (method, path, a body the entry forgives, one it does not)
    "*allowed_mentions.users[*]": ("POST", WEBHOOK, ping(1456074443980800015), ping(True)),
    "*attachments[*].id": ("POST", CALLBACK, {"type": 4, "data": picture(0)},
                           {"type": 4, "data": picture(0.5)}),
    "*emoji.id": ("POST", WEBHOOK, die_button(1456074443980800021), die_button(True)),
    "recipient_id": ("POST", "/users/@me/channels", {"recipient_id": 1456074443980800015},
                     {"recipient_id": True}),
}


def sent(method: str, path: str, body: Any) -> Any:
    return SimpleNamespace(method=method, path=path, params={}, json=body)


@pytest.mark.parametrize("entry", EXCEPTIONS, ids=lambda e: e.at)
def test_each_exception_is_needed_and_forgives_only_what_it_names(entry: Allowance) -> None:
    assert entry.reason.strip() and entry.at in SAMPLES, "add a sample for the new entry"
    method, path, forgiven, refused = SAMPLES[entry.at]
    without = Checker(checker().description, [e for e in EXCEPTIONS if e is not entry])
    found = without.check(sent(method, path, forgiven))
    assert found and all(b.keyword == entry.keyword for b in found), found
    assert checker().check(sent(method, path, forgiven)) == []
    assert checker().check(sent(method, path, refused)) != []


def test_a_snowflake_string_that_is_no_number_is_never_forgiven() -> None:
    found = checker().check(sent("POST", WEBHOOK, ping("alice")))
    assert [(b.at, b.keyword) for b in found] == [("allowed_mentions.users[0]", "pattern")]


def pointed(document: Any, pointer: str) -> Any:
    for part in pointer.strip("/").split("/"):
        document = document[int(part)] if isinstance(document, list) else document[part]
    return document


@pytest.mark.parametrize("entry", STRICTER, ids=lambda e: e.pointer.split("/")[3])
def test_each_stricter_limit_is_stricter_than_the_description(entry: Stricter) -> None:
    schema = pointed(checker().description.document, entry.pointer)
    assert entry.reason.strip() and schema.get(entry.keyword) != entry.value
    if entry.keyword == "maxLength":
        assert schema["maxLength"] > entry.value


@pytest.mark.parametrize(("method", "path"), [
    ("POST", "/channels/1456074443980800002/messages"),
    ("PATCH", "/channels/1456074443980800002/messages/1456074443980800009")])
def test_a_channel_message_holds_to_the_documented_2000_characters(method: str,
                                                                   path: str) -> None:
    body = {"content": "x" * 2001}
    assert Checker(checker().description, stricter=()).check(sent(method, path, body)) == []
    found = checker().check(sent(method, path, body))
    assert [(b.at, b.keyword) for b in found] == [("content", "maxLength")]
    assert checker().check(sent(method, path, {"content": "x" * 2000})) == []
