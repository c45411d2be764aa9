"""Every catalogue, walked: complete, placeholders kept, plural forms valid for the language,
names legal for Discord, text that fits where it is shown. ``./dev i18n-check`` runs this file
(and the command-payload test beside it)."""

from __future__ import annotations

import re
import string
from pathlib import Path

import discord
import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

from ui.i18n import LOCALES, NAME_CONTEXT, SOURCE, languages, resolve, tr_for

LANGS = [lang for lang in languages() if lang != SOURCE]
NAME = re.compile(r"^[-_\w]{1,32}$")
"""Discord's rule for command and option names (letters of any script, digits, - and _)."""


def read(path: Path) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=None if path.suffix == ".pot" else path.stem)


TEMPLATE = read(LOCALES / "messages.pot")


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def key(m: Message) -> tuple[str | None, str]:
    return m.context, m.id[0] if isinstance(m.id, tuple | list) else m.id


def template_messages() -> list[Message]:
    return [m for m in TEMPLATE if m.id]


def test_the_languages() -> None:
    assert set(LANGS) >= {"es", "de", "fr", "ja"}
    assert len(template_messages()) > 300


def test_the_template_is_up_to_date_with_the_code() -> None:
    from tools.i18n.extract import template

    fresh = {key(m) for m in template() if m.id}
    assert fresh == {key(m) for m in template_messages()}, (
        "ui/locales/messages.pot is out of date: run ./dev i18n-extract")


@pytest.mark.parametrize("lang", LANGS)
def test_every_msgid_is_translated_with_its_placeholders(lang: str) -> None:
    cat = read(LOCALES / f"{lang}.po")
    plural = get_plural(lang)
    assert cat.num_plurals == plural.num_plurals
    assert cat.plural_expr == plural.plural_expr
    found = {key(m): m for m in cat if m.id}
    problems = []
    for m in template_messages():
        t = found.get(key(m))
        if t is None or t.fuzzy:
            problems.append(f"missing: {m.id!r}")
            continue
        if isinstance(m.id, tuple | list):
            forms = list(t.string)
            want = fields(m.id[1])
            if len(forms) != plural.num_plurals or not all(forms):
                problems.append(f"plural forms: {m.id[0]!r}")
            for form in forms:
                if not want - {"n"} <= fields(form) <= want | {"n"}:
                    problems.append(f"placeholders: {m.id[0]!r} -> {form!r}")
        elif not t.string:
            problems.append(f"untranslated: {m.id!r}")
        elif fields(t.string) != fields(m.id):
            problems.append(f"placeholders: {m.id!r} -> {t.string!r}")
    assert not problems, "\n".join(problems)
    assert not set(found) - {key(m) for m in template_messages()}, "obsolete msgids"


@pytest.mark.parametrize("lang", LANGS)
def test_plural_forms_follow_the_languages_rule(lang: str) -> None:
    tr = tr_for(lang)
    one, many = tr.ngettext("{n} point", "{n} points", 1), tr.ngettext("{n} point",
                                                                      "{n} points", 7)
    assert one.startswith("1") and many.startswith("7")
    assert tr.ngettext("{n} point", "{n} points", 12345).startswith(tr.num(12345))
    if lang != "ja":  # Japanese has one form
        assert one != many.replace("7", "1")


@pytest.mark.parametrize("lang", LANGS)
def test_names_are_legal_for_discord(lang: str) -> None:
    cat = read(LOCALES / f"{lang}.po")
    names = [m for m in cat if m.id and m.context == NAME_CONTEXT]
    assert len(names) >= 20
    for m in names:
        assert NAME.fullmatch(m.string) and m.string == m.string.lower(), m.string


def test_locales_fall_back_to_english() -> None:
    assert resolve("es-ES") == resolve("es-419") == "es"
    assert resolve("ja") == "ja" and resolve("de") == "de" and resolve("fr") == "fr"
    assert resolve("en-US") == resolve("en-GB") == resolve("pt-BR") == resolve(None) == "en"
    assert tr_for("pt-BR")("Join") == "Join"


@pytest.mark.parametrize("lang", languages())
def test_help_and_rules_fit_discords_cards(lang: str) -> None:
    """Every page of /help and the rules are Components V2 cards within Discord's limits (40
    components, 4,000 characters of text) in every language, and the pages' menu names each
    page within a select option's 100 characters."""
    from cogs.help import help_card
    from cogs.help.pages import PAGES
    from cogs.royale.words import rules_text
    from ui.cards import PLAYING, fits, layout, text

    tr = tr_for(lang)
    assert len(rules_text(tr)) <= 4000 and fits(layout(PLAYING, text(rules_text(tr))))
    for i in range(len(PAGES)):
        card = help_card(i, tr)
        assert fits(card)
        menu = next(item.item for item in card.walk_children()
                    if isinstance(getattr(item, "item", None), discord.ui.Select))
        assert len(menu.options) == len(PAGES)
        assert all(0 < len(option.label) <= 100 for option in menu.options)
        assert [option.default for option in menu.options].index(True) == i
