"""Buttons and selects that survive restarts: :class:`discord.ui.DynamicItem` subclasses whose
custom_id carries the game, the state version, a verb and an argument.

``pr:<game>:<version>:<verb>:<arg>`` (buttons) and ``ps:...`` (selects). The bot keeps a table
verb -> handler (filled by each cog), so after a restart any old message's components still
reach the right code, and a stale version is refused politely by the service.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from cogs.common.replies import answer_error

if TYPE_CHECKING:
    from bot.client import PandaBot

log = logging.getLogger("cogs.components")

_PART = (
    r"(?P<game>[0-9]{1,19}):(?P<ver>[0-9]{1,9}):(?P<verb>[a-z_]{1,16}):"
    r"(?P<arg>[A-Za-z0-9_.|-]{0,60})"
)
BUTTON_TEMPLATE = "pr:" + _PART
SELECT_TEMPLATE = "ps:" + _PART


@dataclass(frozen=True, slots=True)
class Click:
    """What a component says: which game, which moment, what to do."""

    game_id: int
    version: int
    verb: str
    arg: str = ""

    def custom_id(self, prefix: str) -> str:
        cid = f"{prefix}:{self.game_id}:{self.version}:{self.verb}:{self.arg}"
        if len(cid) > 100:  # Discord's limit
            raise ValueError(f"custom_id too long: {cid}")
        return cid

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Click:
        return cls(int(match["game"]), int(match["ver"]), match["verb"], match["arg"])


Handler = Callable[[discord.Interaction[Any], Click, list[str]], Awaitable[None]]


async def dispatch(interaction: discord.Interaction[Any], click: Click, values: list[str]) -> None:
    """Run the handler of ``click.verb``; every failure reaches the user and the log."""
    bot: PandaBot = interaction.client
    handler = bot.handlers.get(click.verb)
    if handler is None:
        await answer_error(interaction, "This button is no longer supported: use the latest "
                                        "message.")
        return
    await bot.guarded(interaction, handler(interaction, click, values))


class GameButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_TEMPLATE):
    """A button of a game message."""

    def __init__(
        self,
        click: Click,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(label=label, style=style, emoji=emoji, disabled=disabled,
                              custom_id=click.custom_id("pr"), row=row)
        )
        self.click = click

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: re.Match[str], /,
    ) -> GameButton:
        return cls(Click.from_match(match))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await dispatch(interaction, self.click, [])


class GameSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_TEMPLATE):
    """A string select menu of a game message."""

    def __init__(
        self,
        click: Click,
        *,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        min_values: int = 1,
        max_values: int = 1,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(custom_id=click.custom_id("ps"), options=options or [],
                              placeholder=placeholder, min_values=min_values,
                              max_values=max_values, row=row)
        )
        self.click = click

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: re.Match[str], /,
    ) -> GameSelect:
        return cls(Click.from_match(match))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        data: dict[str, Any] = dict(interaction.data or {})
        values = [str(v) for v in data.get("values", [])]
        await dispatch(interaction, self.click, values)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (GameButton, GameSelect)
