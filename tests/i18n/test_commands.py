"""What ``./dev sync`` sends: every command, option and choice with its names and descriptions
in each language (the tree's translated payload), legal for Discord."""

from __future__ import annotations

import re
from typing import Any

import pytest
from discord import app_commands

from bot.client import PandaBot
from bot.settings import Settings

NAME = re.compile(r"^[-_\w]{1,32}$")
LOCALES = {"es-ES": "es", "es-419": "es", "de": "de", "fr": "fr", "ja": "ja"}


@pytest.fixture
async def payloads() -> list[dict[str, Any]]:
    settings = Settings(_env_file=None, discord_token=None)  # type: ignore[call-arg]
    bot = PandaBot(settings, sync_only=True)
    async with bot:
        await bot.setup_hook()
        await bot.load_features()
        translator = bot.tree.translator
        assert translator is not None  # set by the bot's setup: sync translates
        return [await c.get_translated_payload(bot.tree, translator)
                for c in bot.tree.get_commands()]


def walk(items: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Each level of siblings (commands, sub-commands, options), depth first."""
    levels = [items]
    for item in items:
        levels += walk(item.get("options") or [])
    return levels


def check_name(item: dict[str, Any]) -> None:
    for locale in LOCALES:
        name = item["name_localizations"][locale]
        assert NAME.fullmatch(name) and name == name.lower() and len(name) <= 32, name
    for text in [item["description"], *item["description_localizations"].values()]:
        assert 1 <= len(text) <= 100, text


async def test_every_command_option_and_choice_is_localised(
        payloads: list[dict[str, Any]]) -> None:
    names = {p["name"] for p in payloads}
    assert names >= {"royale", "posing", "leaderboard", "stats", "help", "settings"}
    checked = 0
    for level in walk(payloads):
        for item in level:
            if "name" in item and "value" not in item:
                check_name(item)
                checked += 1
            for choice in item.get("choices") or []:
                for text in [choice["name"], *(choice.get("name_localizations") or {}).values()]:
                    assert 1 <= len(text) <= 100
        for locale in LOCALES:  # siblings keep distinct names in every language
            local = [i["name_localizations"][locale] for i in level if "value" not in i]
            assert len(local) == len(set(local)), (locale, local)
    assert checked >= 30
    royale = next(p for p in payloads if p["name"] == "royale")
    new = next(o for o in royale["options"] if o["name"] == "new")
    assert new["name_localizations"]["es-ES"] == "nueva"
    assert new["name_localizations"]["ja"] == "新規"
    assert new["description_localizations"]["de"] == ("Ein Panda-Royale-Spiel in diesem Kanal "
                                                      "eröffnen")
    language = next(o for o in new["options"] if o["name"] == "language")
    assert language["name_localizations"]["fr"] == "langue"
    assert {c["value"] for c in language["choices"]} >= {"en", "es", "de", "fr", "ja"}
    board = next(p for p in payloads if p["name"] == "leaderboard")
    game = next(o for o in board["options"] if o["name"] == "game")
    assert [c["name_localizations"]["ja"] for c in game["choices"]] == [
        "パンダロワイヤル", "ポージングパンダ"]
    assert "en-US" not in new["name_localizations"]  # English is the names themselves


async def test_the_translator_answers_none_for_english_and_unknown_text() -> None:
    from discord import Locale
    from discord.app_commands import TranslationContext, TranslationContextLocation

    from ui.i18n import CatalogueTranslator

    t = CatalogueTranslator()
    where = TranslationContext(location=TranslationContextLocation.other, data=None)
    assert await t.translate(app_commands.locale_str("Join"), Locale.american_english,
                             where) is None
    assert await t.translate(app_commands.locale_str("Join"), Locale.german, where) == \
        "Beitreten"
    assert await t.translate(app_commands.locale_str("not a msgid"), Locale.japanese,
                             where) is None
    assert await t.translate(app_commands.locale_str("Join"), Locale.brazil_portuguese,
                             where) is None


async def test_translations_name_the_commands_as_discord_shows_them(
        payloads: list[dict[str, Any]]) -> None:
    """A translation that mentions a command (``/royale nueva``) uses the names a client of
    that language shows."""
    from babel.messages.pofile import read_po

    from ui.i18n import LOCALES as FILES

    stop = "\\s`/{}:,.;)（）、。：\\]"
    mention = re.compile(rf"(?<![\w./])/([^{stop}]+)(?: ([^{stop}]+))?")
    for locale, lang in LOCALES.items():
        top = {p["name_localizations"][locale]: p for p in payloads}
        with (FILES / f"{lang}.po").open("rb") as f:
            cat = read_po(f, locale=lang)
        seen = 0
        for m in cat:
            for text in m.string if isinstance(m.string, tuple) else [m.string]:
                for first, second in mention.findall(text or ""):
                    assert first in top, (lang, first, text[:80])
                    subs = {o["name_localizations"][locale] for o in top[first]["options"]
                            if o["type"] in (1, 2)}
                    if subs and second and not second.startswith("["):
                        assert second in subs, (lang, first, second, text[:80])
                    seen += 1
        assert seen > 20


async def test_help_names_every_command(payloads: list[dict[str, Any]]) -> None:
    """Every command and sub-command the tree sends is named on a page of /help."""
    from cogs.help.pages import PAGES

    text = "\n".join(body for _, body in PAGES)
    names: list[str] = []
    for top in payloads:
        subs = [o["name"] for o in top.get("options") or [] if o["type"] in (1, 2)]
        names += [f"/{top['name']} {sub}" for sub in subs] or [f"/{top['name']}"]
    missing = [n for n in names if n not in text]
    assert not missing, missing
    assert len(names) > 30
