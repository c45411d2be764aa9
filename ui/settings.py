"""A new game's settings from its host's options and its server's defaults, and which
language a game speaks.

A game's public messages (lobby, rounds, pings, game over, pictures) speak the game's language,
kept in its settings (``language``) so that it survives restarts and carries over to a rematch:
the ``language`` option of ``/royale new`` or ``/posing new``, else the server's default set by
its admins with ``/settings language``, else the server's Discord locale, else English.
Ephemeral replies speak the clicking user's own language (:func:`ui.i18n.for_user`). The turn
timeout and the Mayhem options a host leaves out come from the server's defaults
(``/settings turn-time``, ``/settings mayhem``) the same way.
"""

from __future__ import annotations

from typing import Any, Final

import discord
from babel import Locale
from discord import app_commands
from discord.app_commands import locale_str as loc

from bot.errors import UserError
from bot.service import NewSettings, Reach, ServerDefaults
from bot.service.lobby import SLOW_PACES, THREAD
from ui.i18n import GAME_LANGUAGE, N_, SOURCE, languages, resolve
from ui.items import bot_of, place_of


def language_name(code: str) -> str:
    """A language's name in itself (Babel): ``Español``, ``Deutsch``, ``日本語``."""
    name = Locale.parse(code).get_display_name(code) or code
    return name[:1].upper() + name[1:]


LANGUAGE_CHOICES: Final = [app_commands.Choice(name=language_name(code), value=code)
                           for code in languages()]
"""The ``language`` options' choices: every catalogue (25 at most, Discord's limit)."""


PACE_CHOICES: Final = [
    app_commands.Choice(name=loc("live: a decision within the turn timeout (default)"),
                        value="live"),
    app_commands.Choice(name=loc("slow: a turn within 4 hours"), value="4h"),
    app_commands.Choice(name=loc("slow: a turn within a day"), value="1d"),
    app_commands.Choice(name=loc("slow: a turn within 3 days"), value="3d"),
]
"""The ``pace`` options' choices: live (the turn timeout's seconds) or a slow pace."""


SLOW_WORDS: Final = {
    SLOW_PACES["4h"]: N_("🐢 slow game: a turn within 4 hours, a reminder before each deadline"),
    SLOW_PACES["1d"]: N_("🐢 slow game: a turn within a day, a reminder before each deadline"),
    SLOW_PACES["3d"]: N_("🐢 slow game: a turn within 3 days, a reminder before each deadline"),
}
"""How the lobby and the board name a slow game's pace, by the seconds a turn may take."""


def turn_time(pace: str | None, turn_timeout: int | None) -> int | None:
    """The seconds a turn may take at ``pace`` (None: the server's default turn timeout)."""
    if pace is None or pace == "live":
        return turn_timeout
    if turn_timeout is not None:
        raise UserError("Choose a turn timeout for a live game or a slow pace, not both.")
    return SLOW_PACES[pace]


async def server_language(interaction: discord.Interaction[Any]) -> str:
    """The server's default language: its admins' choice, else its Discord locale (where the
    bot is not in the server, or in a group DM: the server's locale, else the user's).
    """
    place = place_of(interaction)
    if place.reach is not Reach.BOT:
        return resolve(interaction.guild_locale or interaction.locale)
    stored = await bot_of(interaction.client).servers.language(place.guild_id)
    return resolve(stored or interaction.guild_locale)


def game_settings(interaction: discord.Interaction[Any], chosen: dict[str, Any],
                  language: str | None, thread: bool | None = None) -> NewSettings:
    """A new game's settings: ``chosen`` (the host's options; one left out is None and takes
    the server's default, as the module's docstring says), its language and whether it plays in
    a thread (``thread``, else the server's choice), read in the transaction that opens the game.
    """
    locale = interaction.guild_locale or interaction.locale  # a group DM has no server's

    def made(server: ServerDefaults) -> dict[str, Any]:
        lang = resolve(language) if language else resolve(server.language or locale)
        settings = {key: value for key, value in chosen.items() if value is not None}
        if "turn_timeout" in chosen and "turn_timeout" not in settings \
                and server.turn_timeout is not None:
            settings["turn_timeout"] = server.turn_timeout
        if "expansions" in chosen and "expansions" not in settings:
            settings["expansions"] = list(server.mayhem or ())
        if lang != SOURCE:
            settings[GAME_LANGUAGE] = lang
        if thread if thread is not None else server.threads:
            settings[THREAD] = True
        return settings

    return made
