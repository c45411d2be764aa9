"""Every player-facing msgid: from the code (Babel's extractor, with the project's keywords)
and from the slash-command tree (names, descriptions, options, choices).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from discord import app_commands

from ui.i18n import NAME_CONTEXT, languages

ROOT: Final = Path(__file__).resolve().parents[2]
SOURCES: Final = ("ui", "cogs", "pictures", "bot")
ERRORS: Final = ("PlayerError", "RulesError", "IllegalAction", "NotYourTurn", "GameOver",
                 "InvalidSetup", "UserError", "NoGameHere", "GameNotRunning", "StaleClick",
                 "NotYourTurnError", "NotAllowed", "LobbyError", "WrongPlace", "GamePaused",
                 "QuietHoursError")
"""The errors a player reads: their first argument is a msgid (``StateFormatError`` is not:
a damaged saved game is an incident, not a player's mistake)."""
KEYWORDS: Final[dict[str, Any]] = {"tr": None, "N_": None, "ngettext": (1, 2), "words": None,
                                   "P_": ((1, "c"), 2),
                                   **{name: None for name in ERRORS}}
SKIPPED: Final = ("bot/rules/validate", "bot/sim", "bot/cli", "bot/app", "bot/problems")
"""Developer-facing text (the terminal, the log validator): English only."""


def code_messages() -> Iterator[tuple[str | tuple[str, ...], str, str | None]]:
    """(msgid or (singular, plural), where, msgctxt) of every marked string in the shipped
    code.
    """
    for package in SOURCES:
        for filename, lineno, message, _comments, context in extract_from_dir(
                ROOT / package, method_map=[("**.py", "python")], keywords=KEYWORDS,
                comment_tags=(), strip_comment_tags=True):
            where = f"{package}/{filename}"
            if where.startswith(SKIPPED):
                continue
            yield message, f"{where}:{lineno}", context


def _walk(commands: list[Any]) -> Iterator[tuple[str, str | None]]:
    for cmd in commands:
        yield cmd.name, NAME_CONTEXT
        yield cmd.description, None
        if isinstance(cmd, app_commands.Group):
            yield from _walk(list(cmd.commands))
            continue
        for param in cmd.parameters:
            yield param.locale_name.message, NAME_CONTEXT
            yield param.locale_description.message, None
            for choice in param.choices:
                if choice.value not in languages():  # a language's own name stays as it is
                    yield choice.name, None


def command_messages() -> list[tuple[str, str | None]]:
    """(msgid, msgctxt) of every slash command's name, description, option and choice."""
    from bot.client import PandaBot
    from bot.settings import Settings

    async def collect() -> list[tuple[str, str | None]]:
        settings = Settings(_env_file=None, discord_token=None)  # type: ignore[call-arg]
        bot = PandaBot(settings, sync_only=True)
        async with bot:
            await bot.setup_hook()
            await bot.load_features()
            return list(_walk(bot.tree.get_commands()))

    return asyncio.run(collect())


def template() -> Catalog:
    """The template catalogue: every msgid, English, no translation."""
    cat = Catalog(project="panda-royale-bot", version="1", charset="utf-8", fuzzy=False,
                  msgid_bugs_address="", copyright_holder="")
    for message, where, context in code_messages():
        if not message or (isinstance(message, tuple) and not all(message)):
            continue
        path, line = where.rsplit(":", 1)
        cat.add(message, locations=[(path, int(line))], context=context,
                flags=("python-brace-format",) if "{" in str(message) else ())
    for text, context in command_messages():
        if context is None and cat.get(text) is not None:
            continue
        cat.add(text, context=context, locations=[("slash commands", 0)])
    return cat
