"""Buttons and selects that survive restarts: one :class:`discord.ui.DynamicItem` class per
kind of message, each with one custom_id template, and one parser.

Here are the base of them all, :class:`GameComponent`, and the components of no game (``lb``
leaderboards, ``hp`` help). Each game kind's component class is in its extension
(``cogs/royale/components.py``, ``cogs/posing/components.py``), which registers it.

A custom_id is ``<prefix>:<verb>:<game>:<version>:<arg>``: the prefix names the kind (``pr``
Panda Royale, ``pp`` Posing Pandas, ``lb`` leaderboards, ``hp`` help), the verb what to do, the
game its id (empty when the component is not about a game), the version the game's state
version the component was drawn at (empty when the verb does not depend on it), and the arg the
verb's argument (a die, a page, a hold mask). After a restart any old message's components still
reach the right handler, and a stale version is refused politely by the service.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar, Final, Self

import discord

from ui.clicks import Click, click_from_match, template
from ui.dispatch import dispatch
from ui.hub import hub_of
from ui.late import still_answerable


class GameComponent(discord.ui.DynamicItem[discord.ui.Item[Any]], template=r"(?!)"):
    """A button or select of one prefix. Subclasses set ``prefix`` and a template; clicks go
    to :func:`ui.dispatch.dispatch`, which finds the verb's handler in the kind's table.
    """

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
        return cls(item, click_from_match(match))

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        """A click that may have come too late is answered first with a deferral, and
        dropped if Discord refuses it (its user saw it fail: :mod:`ui.late`); one whose
        component type is not this component's (forged) is left to ``cogs.core``, which
        refuses it.
        """
        data: dict[str, Any] = dict(interaction.data or {})
        if data.get("component_type") != self.item.type.value:
            return False
        verdict = hub_of(interaction.client).lateness.judge(interaction)
        return await still_answerable(interaction, verdict)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the click to its verb's handler."""
        await dispatch(interaction, self.prefix, self.click)


class BoardComponent(GameComponent, template=template("lb")):
    """Previous / Next on a leaderboard."""

    prefix = "lb"


class HelpComponent(GameComponent, template=template("hp")):
    """The page buttons of /help."""

    prefix = "hp"


DYNAMIC_ITEMS: Final[tuple[type[GameComponent], ...]] = (BoardComponent, HelpComponent)
"""The components that belong to no game kind (registered by ``cogs.core``); each game kind's
extension registers its own (``cogs/royale/components.py``: ``pr``)."""

