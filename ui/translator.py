"""Slash commands in the players' languages: discord.py's :class:`~discord.app_commands.Translator`
over the message catalogues.

``./dev sync`` (and the dev guild's sync at start-up) asks it for every name, description and
choice of every command in every Discord locale; it answers from the catalogue of the locale's
language (names under the msgctxt :data:`ui.i18n.NAME_CONTEXT`), or None (Discord then shows
the English) for English and for whatever a catalogue lacks.
"""

from __future__ import annotations

from typing import Final

from discord import Locale, app_commands
from discord.app_commands import TranslationContextLocation as Where

from ui.i18n import NAME_CONTEXT, SOURCE, resolve, tr_for

NAMES: Final = frozenset({Where.command_name, Where.group_name, Where.parameter_name})
"""Where a string is a name: lowercase, ``^[-_\\w]{1,32}$`` (Discord's rule)."""


class CatalogueTranslator(app_commands.Translator):
    """Command names, descriptions and choices from the catalogues."""

    async def translate(self, string: app_commands.locale_str, locale: Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        """``string`` in ``locale``'s language, or None to keep the English."""
        lang = resolve(locale)
        if lang == SOURCE:
            return None
        tr = tr_for(lang)
        if context.location in NAMES:
            return tr.pgettext(NAME_CONTEXT, string.message)
        return tr(string.message) if tr.known(string.message) else None
