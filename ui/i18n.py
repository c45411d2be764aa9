"""Speaking the players' language: gettext message catalogues read with Babel.

English is the source language: every player-facing text in the code is an English msgid, and
``ui/locales/<lang>.po`` holds one language's translations (``messages.pot`` is the template a new
language starts from). The catalogues are read once, at first use, with
:func:`babel.messages.pofile.read_po`: no compile step, so the file a translator edits is the
file the bot reads, in the wheel and the Docker image alike.

A :class:`Tr` speaks one language: ``tr("Game {id}", id=7)`` looks the msgid up and fills its
named placeholders; ``tr.ngettext(singular, plural, n)`` picks the plural form by the
language's rule (Babel's plural table, the ``Plural-Forms`` of the catalogue) and formats ``n``
with the language's number format (Babel). A msgid missing from a catalogue shows in English.
Who reads which language: docs/architecture.md, *Languages*.
"""

from __future__ import annotations

import functools
import gettext
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Final

import discord
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from discord import Locale, app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.rules.errors import PlayerError, Term

LOCALES: Final = Path(__file__).resolve().parent / "locales"
SOURCE: Final = "en"
"""The language of the msgids (and of anything a catalogue lacks)."""
NAME_CONTEXT: Final = "discord name"
"""The msgctxt of slash-command, group and option names (lowercase, at most 32 characters)."""
GAME_LANGUAGE: Final = "language"
"""The key of a game's language in its settings."""

Key = tuple[str | None, str]
_ENGLISH_PLURAL: Final = gettext.c2py(get_plural(SOURCE).plural_expr)
"""The source language's plural rule (Babel's): which of msgid / msgid_plural a number takes."""


def N_(msgid: str) -> str:  # noqa: N802 - gettext's marker name
    """Mark ``msgid`` for the catalogue without translating it (translated where it is shown)."""
    return msgid


@functools.cache
def languages() -> tuple[str, ...]:
    """Every language the bot speaks: English and one per catalogue file, sorted (the
    catalogue folder is read once: every public message asks, through :func:`resolve`).
    """
    return (SOURCE, *sorted(p.stem for p in LOCALES.glob("*.po")))


def resolve(locale: object) -> str:
    """The language for a Discord locale (``es-ES``, ``es-419``, ``ja``, ``en-US``, a
    :class:`discord.Locale`, a stored code): the exact language, else its primary subtag,
    else English.
    """
    code = str(getattr(locale, "value", locale) or "").strip().replace("_", "-").lower()
    known = languages()
    if code in known:
        return code
    primary = code.split("-", 1)[0]
    return primary if primary in known else SOURCE


class Tr:
    """One language's translations."""

    def __init__(self, lang: str, messages: Mapping[Key, str | tuple[str, ...]],
                 plural: Callable[[int], int] | None = None) -> None:
        self.lang = lang
        self._messages = messages
        self._plural = plural or _ENGLISH_PLURAL

    def __call__(self, msgid: str, **params: Any) -> str:
        """``msgid`` in this language, its ``{placeholders}`` filled from ``params``."""
        found = self._messages.get((None, msgid))
        text = found if isinstance(found, str) else msgid
        return text.format(**params) if params else text

    def ngettext(self, singular: str, plural: str, n: int, **params: Any) -> str:
        """The form for ``n`` of a message with plural forms; ``{n}`` is ``n`` formatted."""
        found = self._messages.get((None, singular))
        index = self._plural(n)
        if isinstance(found, tuple) and index < len(found):
            text = found[index]
        else:  # not translated: the English forms, by the English rule
            text = (singular, plural)[min(1, _ENGLISH_PLURAL(n))]
        return text.format(n=self.num(n), **params)

    def pgettext(self, context: str, msgid: str) -> str | None:
        """The translation of ``msgid`` in ``context``, or None when there is none."""
        found = self._messages.get((context, msgid))
        return found if isinstance(found, str) else None

    def num(self, value: float) -> str:
        """A number as this language writes it (Babel): ``1,234`` or ``1.234``."""
        return format_decimal(value, locale=self.lang)

    def known(self, msgid: str) -> bool:
        """Whether the catalogue translates ``msgid``."""
        return (None, msgid) in self._messages

    def error(self, error: PlayerError) -> str:
        """A player error's message in this language: its template translated, then filled
        (the game's words among its values, :class:`~bot.rules.errors.Term`, translated too).
        """
        params = {k: self(v) if isinstance(v, Term) else _echo(v)
                  for k, v in error.params.items()}
        return self(error.template, **params)


ECHO_LIMIT: Final = 40
"""Characters of a value a user sent that an error message quotes back (a forged value can be
thousands long; Discord refuses a reply over 2,000)."""


def _echo(value: Any) -> Any:
    """A value quoted back to the user (a name, a die someone sent): cut to
    :data:`ECHO_LIMIT` characters, its markdown and mentions escaped (it shows as written).
    """
    if not isinstance(value, str):
        return value
    if len(value) > ECHO_LIMIT:
        value = value[:ECHO_LIMIT - 1] + "…"
    return discord.utils.escape_mentions(discord.utils.escape_markdown(value))


def _load(lang: str) -> Tr:
    path = LOCALES / f"{lang}.po"
    with path.open("rb") as f:
        catalog = read_po(f, locale=lang)
    messages: dict[Key, str | tuple[str, ...]] = {}
    for m in catalog:
        if not m.id or m.fuzzy:
            continue
        if isinstance(m.id, tuple | list):
            forms = tuple(str(s) for s in (m.string or ()))
            if all(forms):
                messages[(m.context, str(m.id[0]))] = forms
        elif m.string:
            messages[(m.context, str(m.id))] = str(m.string)
    expr = get_plural(lang).plural_expr
    return Tr(lang, messages, gettext.c2py(expr))


@functools.cache
def tr_for(lang: str) -> Tr:
    """The translations of ``lang`` (English: the msgids as they are), read once."""
    lang = resolve(lang)
    if lang == SOURCE:
        return Tr(SOURCE, {})
    return _load(lang)


ENGLISH: Final = Tr(SOURCE, {})


def for_user(interaction: Any) -> Tr:
    """The clicking user's language (their Discord client's ``interaction.locale``)."""
    return tr_for(resolve(getattr(interaction, "locale", None)))


def game_language(settings: Mapping[str, Any]) -> str:
    """The language a game's public messages speak (kept in its settings, else English)."""
    return resolve(settings.get(GAME_LANGUAGE))


def for_game(game: Any) -> Tr:
    """A game's language (its settings ``language``), for its public messages."""
    return tr_for(game_language(getattr(game, "settings", {}) or {}))


NAMES: Final = frozenset({Where.command_name, Where.group_name, Where.parameter_name})
"""Where a string is a name: lowercase, ``^[-_\\w]{1,32}$`` (Discord's rule)."""


class CatalogueTranslator(app_commands.Translator):
    """Command names, descriptions and choices from the catalogues; None (Discord then shows
    the English) for English and for whatever a catalogue lacks.
    """

    async def translate(self, string: app_commands.locale_str, locale: Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        lang = resolve(locale)
        if lang == SOURCE:
            return None
        tr = tr_for(lang)
        if context.location in NAMES:
            return tr.pgettext(NAME_CONTEXT, string.message)
        return tr(string.message) if tr.known(string.message) else None
