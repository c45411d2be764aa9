"""Who speaks which language in SimCord, and a check that a message's text comes from a
catalogue.

SimCord sends every interaction with ``locale`` and ``guild_locale`` ``en-US``: :func:`locales`
patches its payload builder to give chosen users and guilds their own locales, as Discord does.
:class:`Catalogue` holds every translated text of one language, cut at its placeholders, and
:meth:`Catalogue.leftover` says what of a message's text none of them (nor a name or a number)
explains: words of another language.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from typing import Any

from babel.messages.pofile import read_po

from tests.e2e.table import components, text_of
from ui.i18n import LOCALES

_SPLIT = re.compile(r"\{[^{}]*\}")
_NOISE = re.compile(
    r"<@!?\d+>|https?://\S+|`[^`]*`|\bd\d+\b|[-+−]?\d+(?:[.,\u202f\u00a0]\d+)*|[*_~>#|•·…]"
)
LETTER = re.compile(r"[^\W\d_]", re.UNICODE)
_LINKS = re.compile(r"<@!?\d+>|<#\d+>|<a?:\w+:\d+>|<t:-?\d+(?::[tTdDfFR])?>|https?://\S+")
"""Mentions, custom emojis (the dice), timestamps and links: not words of a language."""


@contextlib.contextmanager
def locales(users: dict[int, str], guilds: dict[int, str]) -> Iterator[None]:
    """Interactions of these users carry their locale; of these guilds, the guild's locale."""
    from simcord import interactions as si

    original = si.base_payload

    def base_payload(backend: Any, **kw: Any) -> Any:
        record, payload = original(backend, **kw)
        if kw.get("user_id") in users:
            payload["locale"] = users[kw["user_id"]]
        if kw.get("guild_id") in guilds:
            payload["guild_locale"] = guilds[kw["guild_id"]]
        return record, payload

    si.base_payload = base_payload
    try:
        yield
    finally:
        si.base_payload = original


class Catalogue:
    """Every translated text of one language, as the literal pieces between placeholders."""

    def __init__(self, lang: str) -> None:
        with (LOCALES / f"{lang}.po").open("rb") as f:
            cat = read_po(f, locale=lang)
        texts: list[str] = []
        for m in cat:
            if not m.id:
                continue
            texts += list(m.string) if isinstance(m.string, tuple | list) else [m.string]
        lines = {line.strip() for t in texts for p in _SPLIT.split(t) for line in p.split("\n")
                 if LETTER.search(line)}
        # longest first, so that a sentence goes before the words it holds
        self.pieces = sorted(lines, key=len, reverse=True)
        self.lang = lang

    def leftover(self, text: str, names: list[str]) -> str:
        """The words of ``text`` that neither the catalogue nor a name nor a number explain."""
        text = _LINKS.sub(" ", text)
        for name in sorted(names, key=len, reverse=True):
            text = text.replace(name, " ")
        for piece in self.pieces:
            text = text.replace(piece, " ")
        text = _NOISE.sub(" ", text)
        return " ".join(w for w in text.split() if LETTER.search(w))


def message_texts(msg: Any) -> list[str]:
    """Every text a user reads on a message: content and Text Displays, embeds (a private
    answer may still be one), buttons, select menus."""
    out = text_of(msg).split("\n")  # content, every Text Display, embed descriptions
    for e in getattr(msg, "embeds", None) or []:
        if isinstance(e, dict):
            out += [e.get("title") or "", (e.get("footer") or {}).get("text") or ""]
            for f in e.get("fields") or []:
                out += [f.get("name") or "", f.get("value") or ""]
            continue
        out += [e.title or "", e.footer.text or ""]
        for f in e.fields:
            out += [f.name or "", f.value or ""]
    for c in components(msg):
        out.append(getattr(c, "label", None) or "")
        out.append(getattr(c, "placeholder", None) or "")
        for o in getattr(c, "options", None) or []:
            out += [getattr(o, "label", None) or "", getattr(o, "description", None) or ""]
    return [t for t in out if t and t.strip()]


def unexplained(msg: Any, catalogue: Catalogue, names: list[str]) -> list[str]:
    """The texts of ``msg`` with words the catalogue does not explain (empty: all explained)."""
    found = []
    for text in message_texts(msg):
        rest = catalogue.leftover(text, names)
        if rest:
            found.append(f"{text!r} -> {rest!r}")
    return found


__all__ = ["Catalogue", "locales", "message_texts", "unexplained"]
