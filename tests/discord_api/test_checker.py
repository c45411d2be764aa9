"""The checker of requests against Discord's OpenAPI description (tools/discord_api): what it
must catch, where it says the breach is, and that what Discord takes passes."""

from __future__ import annotations

import copy
from types import SimpleNamespace
from typing import Any

import pytest

from tools.discord_api.check import Breach, Checker, checker
from tools.discord_api.description import Description
from tools.discord_api.exceptions import Allowance, snowflake_integer

from .tiny import TINY

CALLBACK = "/interactions/1456074443980800001/a-token/callback"
MESSAGES = "/channels/1456074443980800002/messages"
WEBHOOK = "/webhooks/1456074443980800003/a-token"
LARGEST = 2**53 - 1


def request(method: str, path: str, body: Any = None, **params: Any) -> Any:
    return SimpleNamespace(method=method, path=path, params=params, json=body)


def breaches(method: str, path: str, body: Any = None, **params: Any) -> list[Breach]:
    return checker().check(request(method, path, body, **params))


def row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def button(label: str, custom_id: str = "pr:pick:1:4:2") -> dict[str, Any]:
    return {"type": 2, "style": 2, "label": label, "custom_id": custom_id, "disabled": False,
            "emoji": {"id": None, "name": "🐼"}}


def message() -> dict[str, Any]:
    """A game message as the bot sends one: a ping, an embed, buttons and a select."""
    return {
        "content": "<@1456074443980800015> your turn in Panda Royale: pick a die.",
        "allowed_mentions": {"parse": [], "users": ["1456074443980800015"]},
        "embeds": [{"type": "rich", "title": "Round 1", "color": 3066993,
                    "description": "Scores\n```\n  alice  1\n```",
                    "fields": [{"name": "Dice", "value": "**alice**: 🟡1", "inline": False}],
                    "image": {"url": "attachment://round-card.png"},
                    "footer": {"text": "Game 1"}}],
        "components": [
            row(button("Purple 12"), button("Yellow 3", "pr:pick:1:4:3")),
            row({"type": 3, "custom_id": "pr:ttarget:1:4:", "placeholder": "Trade with...",
                 "min_values": 1, "max_values": 1,
                 "options": [{"label": "bob", "value": "p2"}]})],
    }


def command(max_value: int) -> list[dict[str, Any]]:
    """A command sync of ``/royale cancel [game]`` with the given bound on ``game``."""
    game = {"type": 4, "name": "game", "description": "A game elsewhere in this server",
            "required": False, "min_value": 1, "max_value": max_value,
            "name_localizations": {"fr": "partie"}}
    cancel = {"type": 1, "name": "cancel", "description": "Cancel the game here",
              "options": [game]}
    return [{"type": 1, "name": "royale", "description": "Play Panda Royale",
             "options": [cancel], "contexts": [0], "integration_types": [0],
             "default_member_permissions": None}]


def test_a_game_message_as_the_bot_sends_it_passes_everywhere_it_goes() -> None:
    assert breaches("POST", MESSAGES, message()) == []
    assert breaches("POST", CALLBACK, {"type": 4, "data": {**message(), "flags": 64}},
                    with_response="1") == []
    assert breaches("POST", CALLBACK, {"type": 7, "data": message()}, with_response="1") == []
    assert breaches("POST", CALLBACK, {"type": 6}, with_response="true") == []
    assert breaches("POST", WEBHOOK, message(), wait="1", with_components="1") == []
    assert breaches("PATCH", f"{WEBHOOK}/messages/@original", message()) == []
    assert breaches("DELETE", f"{WEBHOOK}/messages/1456074443980800009") == []
    assert breaches("PUT", "/applications/1456074443980800004/commands", command(LARGEST)) == []


def test_a_command_sync_with_a_max_value_past_the_largest_integer_is_a_breach() -> None:
    found = breaches("PUT", "/applications/1456074443980800004/commands", command(2**53))
    assert [(b.operation.split()[0], b.part, b.at, b.keyword) for b in found] == [
        ("bulk_set_application_commands", "body", "[0].options[0].options[0].max_value",
         "maximum")]
    assert "[0](royale).options[0](cancel).options[0](game).max_value" in str(found[0])
    guild = "/applications/1456074443980800004/guilds/1456074443980800005/commands"
    assert [b.at for b in breaches("PUT", guild, command(2**53))] == [
        "[0].options[0].options[0].max_value"]


@pytest.mark.parametrize("where", ["content", "embeds"])
def test_a_message_over_discords_limits_is_a_breach(where: str) -> None:
    body = message()
    if where == "content":
        body["content"] = "x" * 2000
        assert breaches("POST", CALLBACK, {"type": 4, "data": body}) == []
        body["content"] += "x"
        expected = ("data.content", "maxLength")
    else:
        body["embeds"] *= 11
        expected = ("data.embeds", "maxItems")
    found = breaches("POST", CALLBACK, {"type": 4, "data": body})
    assert [(b.at, b.keyword) for b in found] == [expected]
    assert len(str(found[0])) < 400  # the value is quoted in part, not in whole


def test_embeds_past_their_characters_together_are_a_breach() -> None:
    """Discord's documented limit on all a message's embeds (no schema keyword says it)."""
    body = message()
    body["embeds"] = [{"description": "d" * 2990}, {"title": "t" * 10, "description": "d" * 3000}]
    assert breaches("POST", MESSAGES, body) == []
    body["embeds"][1]["fields"] = [{"name": "n", "value": "  v  "}]
    found = breaches("POST", CALLBACK, {"type": 4, "data": body})
    assert [(b.at, b.keyword, b.value) for b in found] == [("data.embeds", "embedsTotal", 6002)]


def test_a_breach_inside_a_component_is_named_where_it_is_not_as_a_failed_union() -> None:
    body = message()
    body["components"][0]["components"][1]["label"] = "L" * 81
    found = breaches("POST", MESSAGES, body)
    assert [(b.at, b.keyword) for b in found] == [("components[0].components[1].label",
                                                   "maxLength")]
    body = message()
    body["components"][1]["components"][0]["options"] = []
    found = breaches("POST", CALLBACK, {"type": 7, "data": body})
    assert [(b.at, b.keyword) for b in found] == [("data.components[1].components[0].options",
                                                   "minItems")]


def test_query_and_path_parameters_are_checked_as_their_text_reads() -> None:
    found = breaches("POST", CALLBACK, {"type": 6}, with_response="yes")
    assert [(b.part, b.at, b.keyword) for b in found] == [("query", "with_response", "type")]
    found = breaches("POST", CALLBACK, {"type": 6}, with_response=True)  # aiohttp refuses it
    assert [(b.part, b.at, b.keyword) for b in found] == [("query", "with_response", "type")]
    found = breaches("POST", MESSAGES, message(), wait="1")
    assert [(b.part, b.at) for b in found] == [("query", "wait")]
    found = breaches("POST", "/channels/None/messages", message())
    assert [(b.part, b.at, b.keyword) for b in found] == [("path", "channel_id", "pattern")]


def test_a_route_or_a_body_the_description_does_not_have_is_a_breach() -> None:
    assert [b.part for b in breaches("POST", "/channels/1/nowhere", {})] == ["route"]
    assert [(b.part, b.keyword) for b in breaches("DELETE", f"{MESSAGES}/1", {"x": 1})] == [
        ("body", "requestBody")]
    assert [(b.part, b.keyword) for b in breaches("POST", CALLBACK)] == [
        ("body", "requestBody")]


def test_the_router_prefers_a_literal_segment_to_a_parameter() -> None:
    description = checker().description
    original = description.match("PATCH", f"{WEBHOOK}/messages/@original")
    other = description.match("PATCH", f"{WEBHOOK}/messages/1456074443980800009")
    assert original is not None and other is not None
    assert original[0].operation_id == "update_original_webhook_message"
    assert (other[0].operation_id, other[1]["message_id"]) == (
        "update_webhook_message", "1456074443980800009")


def test_an_unknown_field_where_the_schema_forbids_extras_is_a_breach() -> None:
    """Discord's request schemas allow fields they do not name; where a schema forbids them,
    the checker says so."""
    tiny = Checker(Description(copy.deepcopy(TINY)), exceptions=(), stricter=())
    assert tiny.check(request("PATCH", "/things/7", {"name": "panda"})) == []
    found = tiny.check(request("PATCH", "/things/7", {"name": "panda", "colour": "black"}))
    assert [(b.operation, b.at, b.keyword) for b in found] == [
        ("update_thing (PATCH /things/{thing_id})", "", "additionalProperties")]
    assert "colour" in found[0].message


def test_a_union_breached_only_where_an_exception_forgives_is_no_breach() -> None:
    """Of two branches, one with a real breach and one with two forgiven ones, the value is one
    Discord takes: the forgiven branch is the one that speaks."""
    document = copy.deepcopy(TINY)
    document["components"]["schemas"]["Thing"] = {"anyOf": [
        {"type": "object", "properties": {"name": {"type": "string", "maxLength": 1}}},
        {"type": "object", "properties": {"users": {"type": "array",
                                                    "items": {"type": "string"}}}}]}
    forgiving = Allowance("update_thing", "body", "users[*]", "type", snowflake_integer, "a test")
    tiny = Checker(Description(document), exceptions=[forgiving], stricter=())
    assert tiny.check(request("PATCH", "/things/7", {"name": "panda", "users": [5, 6]})) == []
    found = tiny.check(request("PATCH", "/things/7", {"name": "panda", "users": [5, "x", 6.5]}))
    assert [(b.at, b.keyword) for b in found] == [("name", "maxLength")]
