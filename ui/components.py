"""Buttons and selects that survive restarts: one :class:`discord.ui.DynamicItem` class per
kind of message, each with one custom_id template, and one parser.

A custom_id is ``<prefix>:<verb>:<game>:<version>:<arg>``: the prefix names the kind (``pr``
Panda Royale, ``pp`` Posing Pandas, ``lb`` leaderboards, ``hp`` help), the verb what to do, the
game its id (empty when the component is not about a game), the version the game's state
version the component was drawn at (empty when the verb does not depend on it), and the arg the
verb's argument (a die, a page, a hold mask). After a restart any old message's components still
reach the right handler, and a stale version is refused politely by the service.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Self

import discord

PREFIXES: Final = ("pr", "pp", "lb", "hp")
_TAIL: Final = (r":(?P<verb>[a-z]{1,12}):(?P<game>[0-9]{1,19})?:(?P<version>[0-9]{1,9})?:"
                r"(?P<arg>[A-Za-z0-9_.|-]{0,60})")
CUSTOM_ID: Final = re.compile(rf"(?P<prefix>[a-z]{{2}}){_TAIL}")
MAX_GAME_ID: Final = 2**63 - 1


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
    return m["prefix"], _click(m)


def _click(m: re.Match[str]) -> Click:
    game = int(m["game"]) if m["game"] else None
    if game is not None and game > MAX_GAME_ID:
        game = 0  # no such game: the service says so politely
    version = int(m["version"]) if m["version"] else None
    return Click(m["verb"], game, version, m["arg"])


class GameComponent(discord.ui.DynamicItem[discord.ui.Item[Any]], template=r"(?!)"):
    """A button or select of one prefix. Subclasses set ``prefix`` and a template; clicks go
    to :func:`ui.dispatch.dispatch`, which finds the verb's handler in the kind's table."""

    prefix: ClassVar[str] = ""

    def __init__(self, item: discord.ui.Item[Any], click: Click) -> None:
        """Wrap a built ``item`` carrying ``click``."""
        super().__init__(item)
        self.click = click

    @classmethod
    def button(cls, click: Click, *, label: str | None = None,
               style: discord.ButtonStyle = discord.ButtonStyle.secondary,
               emoji: str | None = None, disabled: bool = False, row: int | None = None
               ) -> Self:
        """A button carrying ``click``."""
        return cls(discord.ui.Button(label=label, style=style, emoji=emoji, disabled=disabled,
                                     custom_id=click.custom_id(cls.prefix), row=row), click)

    @classmethod
    def select(cls, click: Click, *, options: list[discord.SelectOption],
               placeholder: str | None = None, row: int | None = None) -> Self:
        """A one-choice string select carrying ``click``."""
        return cls(discord.ui.Select(custom_id=click.custom_id(cls.prefix), options=options,
                                     placeholder=placeholder, min_values=1, max_values=1,
                                     row=row), click)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str], /) -> Self:
        """Rebuild the component of a clicked custom_id (after a restart too)."""
        return cls(item, _click(match))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the click to its verb's handler."""
        from ui.dispatch import dispatch

        await dispatch(interaction, self.prefix, self.click)


class RoyaleComponent(GameComponent, template=template("pr")):
    """Components of Panda Royale messages (lobby and rounds)."""

    prefix = "pr"


class PosingComponent(GameComponent, template=template("pp")):
    """Components of Posing Pandas messages (lobby and turns)."""

    prefix = "pp"


class BoardComponent(GameComponent, template=template("lb")):
    """Previous / Next on a leaderboard."""

    prefix = "lb"


class HelpComponent(GameComponent, template=template("hp")):
    """The page buttons of /help."""

    prefix = "hp"


DYNAMIC_ITEMS: Final[tuple[type[GameComponent], ...]] = (
    RoyaleComponent, PosingComponent, BoardComponent, HelpComponent)


def values_of(interaction: discord.Interaction[Any]) -> list[str]:
    """The options chosen in a select (empty for a button)."""
    data: dict[str, Any] = dict(interaction.data or {})
    return [str(v) for v in data.get("values", [])]
