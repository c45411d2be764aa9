"""Our custom_ids and what they say: ``<prefix>:<verb>:<game>:<version>:<arg>``.

The prefix names the kind of message (``pr`` Panda Royale, ``pp`` Posing Pandas, ``lb``
leaderboards, ``hp`` help), the verb what to do, the game its id (empty when the component is not
about a game), the version the game's state version the component was drawn at (empty when the
verb does not depend on it), and the arg the verb's argument (a die, a page, a hold mask). One
parser, :func:`parse_custom_id`, reads them all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final

import discord

_TAIL: Final = (r":(?P<verb>[a-z]{1,12}):(?P<game>[0-9]{1,19})?:(?P<version>[0-9]{1,9})?:"
                r"(?P<arg>[A-Za-z0-9_.|-]{0,60})")
CUSTOM_ID: Final = re.compile(rf"(?P<prefix>[a-z]{{2}}){_TAIL}")
MAX_GAME_ID: Final = 2**63 - 1
SERVER_WIDE: Final = frozenset({"frame"})
"""Verbs that only read a finished game (the replay's steps): their components work in any
channel of the game's server (``/royale replay`` answers anywhere), not only in its own."""


def template(prefix: str) -> str:
    """The custom_id template of one prefix's components."""
    return rf"(?P<prefix>{prefix}){_TAIL}"


@dataclass(frozen=True, slots=True)
class Click:
    """What a component says; each field means one thing."""

    verb: str
    game_id: int | None = None
    """The game the component acts on (None: not about one game)."""
    version: int | None = None
    """The game's state version the component was drawn at (None: any version)."""
    arg: str = ""
    """The verb's argument: a die id, a seat, a page, a hold mask..."""

    def custom_id(self, prefix: str) -> str:
        """The custom_id carrying this click, for components of ``prefix``."""
        game = "" if self.game_id is None else str(self.game_id)
        version = "" if self.version is None else str(self.version)
        cid = f"{prefix}:{self.verb}:{game}:{version}:{self.arg}"
        if len(cid) > 100 or not CUSTOM_ID.fullmatch(cid):  # Discord's limit; our shape
            raise ValueError(f"not a valid custom_id: {cid!r}")
        return cid


def parse_custom_id(custom_id: str) -> tuple[str, Click] | None:
    """The prefix and click of a custom_id of ours, or None for anything else."""
    m = CUSTOM_ID.fullmatch(custom_id)
    if m is None:
        return None
    return m["prefix"], click_from_match(m)


def click_from_match(m: re.Match[str]) -> Click:
    """The click of a custom_id matched by :data:`CUSTOM_ID` or a :func:`template`."""
    game = int(m["game"]) if m["game"] else None
    if game is not None and game > MAX_GAME_ID:
        game = 0  # no such game: the service says so politely
    version = int(m["version"]) if m["version"] else None
    return Click(m["verb"], game, version, m["arg"])


def values_of(interaction: discord.Interaction[Any]) -> list[str]:
    """The options chosen in a select (empty for a button)."""
    data: dict[str, Any] = dict(interaction.data or {})
    return [str(v) for v in data.get("values", [])]
