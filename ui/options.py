"""A slash command's raw options checked against what the command declares, before discord.py
reads them.

Discord's clients only send what a command's schema allows, but anyone can send a forged
interaction: a user option that is not an id, a number for a text, a value outside a range or
not among the choices, thousands of characters. discord.py converts some of these itself and
fails without an answer (a user id that is not a number), lets others through (a turn timeout
of 0), or passes them on to be echoed back. :func:`option_problem` finds the first such option
so that the command is answered with one short private message instead.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from typing import Any, Final

import discord
from discord import AppCommandOptionType, app_commands

MAX_TEXT: Final = 6000
"""Discord's longest string option value (far more than any of ours needs)."""
MAX_SNOWFLAKE_DIGITS: Final = 20
LARGEST_INTEGER: Final = 2**53 - 1
"""The largest integer option Discord takes, as a value and as the ``max_value`` a command
declares (its documentation: -2^53+1 to 2^53-1). A sync of a command with a larger bound can be
refused whole, leaving the bot with no commands."""
LARGEST_NUMBER: Final = 2**53
"""The largest number option (a double) Discord takes (-2^53 to 2^53)."""
GameNumber = app_commands.Range[int, 1, LARGEST_INTEGER]
"""A ``game`` option: a game's number. Game ids count up from 1 in the database, so every game
the bot can have is within it, and Discord takes the bound in a command sync."""
ID_TYPES: Final = frozenset({AppCommandOptionType.user, AppCommandOptionType.channel,
                             AppCommandOptionType.role, AppCommandOptionType.mentionable,
                             AppCommandOptionType.attachment})


def _leaves(options: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for option in options:
        if option.get("type") in (1, 2):  # a subcommand (group): its own options
            yield from _leaves(list(option.get("options") or []))
        else:
            yield option


def _value_fits(kind: AppCommandOptionType, value: Any) -> bool:
    if kind is AppCommandOptionType.string:
        return isinstance(value, str) and len(value) <= MAX_TEXT
    if kind is AppCommandOptionType.integer:
        return isinstance(value, int) and not isinstance(value, bool) \
            and abs(value) <= LARGEST_INTEGER
    if kind is AppCommandOptionType.number:
        return isinstance(value, int | float) and not isinstance(value, bool) \
            and math.isfinite(value) and abs(value) <= LARGEST_NUMBER
    if kind is AppCommandOptionType.boolean:
        return isinstance(value, bool)
    if kind in ID_TYPES:
        text = str(value) if isinstance(value, int) and not isinstance(value, bool) else value
        return isinstance(text, str) and text.isdigit() \
            and len(text) <= MAX_SNOWFLAKE_DIGITS and int(text) > 0
    return True


def _within(parameter: app_commands.Parameter, value: Any) -> bool:
    if parameter.choices and value not in {c.value for c in parameter.choices}:
        return False
    if isinstance(value, int | float) and not isinstance(value, bool):
        if parameter.min_value is not None and value < parameter.min_value:
            return False
        if parameter.max_value is not None and value > parameter.max_value:
            return False
    if isinstance(value, str) and parameter.type is AppCommandOptionType.string:
        low, high = parameter.min_value, parameter.max_value
        if (low is not None and len(value) < low) or (high is not None and len(value) > high):
            return False
    return True


def option_problem(interaction: discord.Interaction[Any]) -> str | None:
    """The name of the first option of a slash command that its command would not accept
    (its type, its range, its choices), or None when every option is one it declares.
    """
    if interaction.type is not discord.InteractionType.application_command:
        return None
    data: Mapping[str, Any] = interaction.data or {}
    command = interaction.command
    parameters: dict[str, app_commands.Parameter] = {}
    if isinstance(command, app_commands.Command):
        parameters = {p.display_name: p for p in command.parameters}
    for option in _leaves(list(data.get("options") or [])):
        name = str(option.get("name", ""))[:40]
        parameter = parameters.get(name)
        if parameter is None:
            return name or "?"
        if option.get("focused"):
            continue
        if not _value_fits(parameter.type, option.get("value")):
            return name
        if not _within(parameter, option.get("value")):
            return name
    return None


def is_manager(interaction: discord.Interaction[Any]) -> bool:
    """Whether the user can manage this channel (may cancel anybody's game here)."""
    perms = getattr(interaction, "permissions", None)
    return bool(perms and (perms.manage_channels or perms.administrator))


def can_manage_server(interaction: discord.Interaction[Any]) -> bool:
    """Whether the user may manage the server (its settings, any game in it)."""
    perms = getattr(interaction, "permissions", None)
    return bool(perms and (perms.manage_guild or perms.administrator))
