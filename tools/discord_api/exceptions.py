"""The reviewed differences from Discord's OpenAPI description (a preview, by its own title),
each with its reason: :data:`EXCEPTIONS`, what the description refuses and Discord's
documentation takes (discord.py sends it so); :data:`STRICTER`, limits the documentation sets
and the description does not. None hides a payload of ours that Discord would refuse: such a
payload is fixed. tests/discord_api/test_exceptions.py checks that each entry still makes a
difference.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

SNOWFLAKE_BITS = 64


def snowflake_integer(value: Any) -> bool:
    """A snowflake written as a JSON integer (what discord.py sends for ids it holds)."""
    return isinstance(value, int) and not isinstance(value, bool) \
        and 0 <= value < 2**SNOWFLAKE_BITS


@dataclass(frozen=True)
class Allowance:
    """A breach the checker forgives: in ``operation`` (an operationId, or ``*``), in ``part``
    of the request, at places matching ``at`` (``*`` any characters, ``[*]`` any index),
    failing ``keyword``, with a value ``accepts`` says yes to.
    """

    operation: str
    part: str
    at: str
    keyword: str
    accepts: Callable[[Any], bool]
    reason: str

    @cached_property
    def _at(self) -> re.Pattern[str]:
        return re.compile(re.escape(self.at).replace(r"\[\*\]", r"\[[0-9]+\]")
                          .replace(r"\*", ".*"))

    def covers(self, operation: str, part: str, at: str, keyword: str, value: Any) -> bool:
        """Whether this entry forgives that breach."""
        return (self.operation in ("*", operation) and self.part == part
                and self.keyword == keyword and self._at.fullmatch(at) is not None
                and self.accepts(value))


@dataclass(frozen=True)
class Stricter:
    """A limit of Discord's documentation put into the description before checking: the schema
    at ``pointer`` (a JSON pointer in the document) gets ``keyword: value``.
    """

    pointer: str
    keyword: str
    value: Any
    reason: str


EXCEPTIONS: tuple[Allowance, ...] = (
    Allowance(
        "*", "body", "*attachments[*].id", "type", snowflake_integer,
        "A new file's id is the n of its files[n] part. The description types it as a "
        "snowflake string; Discord's reference (Uploading Files, the payload_json example) "
        "writes it as the integer 0, as discord.py sends it."),
    Allowance(
        "*", "body", "*allowed_mentions.users[*]", "type", snowflake_integer,
        "discord.py's AllowedMentions writes user ids as JSON integers. The description "
        "types snowflakes as strings; Discord's reference (Snowflakes, ID Serialization) "
        "returns them as strings and takes integer ids, as every discord.py bot sends them."),
    Allowance(
        "*", "body", "*emoji.id", "type", snowflake_integer,
        "discord.py's PartialEmoji writes a custom emoji's id as a JSON integer on buttons and "
        "select options. The description types snowflakes as strings; Discord's reference "
        "(Snowflakes, ID Serialization) takes integer ids, as every discord.py bot sends a "
        "custom emoji."),
    Allowance(
        "create_dm", "body", "recipient_id", "type", snowflake_integer,
        "discord.py's User.send opens the direct message with the user's id as a JSON integer. "
        "The description types snowflakes as strings; Discord's reference (Snowflakes, ID "
        "Serialization) takes integer ids, as every discord.py bot that sends a direct message "
        "writes it."),
)

CONTENT_2000 = ("Discord's documentation gives a message's content up to 2000 characters "
                "(Create Message, Edit Message; Start Thread in Forum or Media Channel, its "
                "message); the description says 4000, more than a bot may send.")
STRICTER: tuple[Stricter, ...] = (
    Stricter("/components/schemas/MessageCreateRequest/properties/content", "maxLength", 2000,
             CONTENT_2000),
    Stricter("/components/schemas/MessageEditRequestPartial/properties/content", "maxLength",
             2000, CONTENT_2000),
    Stricter("/components/schemas/BaseCreateMessageCreateRequest/properties/content",
             "maxLength", 2000, CONTENT_2000),
)
