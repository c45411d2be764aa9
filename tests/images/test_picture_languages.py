"""The pictures in every language: each label drawn (Japanese glyphs included, no box for a
missing glyph), the picture different from the English one."""

from __future__ import annotations

import io
import logging

import pytest
from PIL import Image

from bot.rules.posing.state import PosingState
from bot.rules.royale.state import RoyaleState
from pictures import (
    card_data,
    render_round_card,
    render_score_card,
    render_score_sheet,
    round_card_data,
    sheet_data,
)
from ui.i18n import SOURCE, languages, tr_for

from .games import names

LANGS = [lang for lang in languages() if lang != SOURCE]


def pixels(png: bytes) -> bytes:
    return Image.open(io.BytesIO(png)).convert("RGB").tobytes()


@pytest.mark.parametrize("lang", LANGS)
def test_every_picture_draws_its_labels(lang: str, finished_royale: dict[int, RoyaleState],
                                        finished_posing: dict[int, PosingState],
                                        caplog: pytest.LogCaptureFixture) -> None:
    tr = tr_for(lang)
    royale, posing = finished_royale[4], finished_posing[4]
    who = few = names(4)
    caplog.set_level(logging.WARNING, logger="pictures")
    pictures = [
        (render_round_card(round_card_data(who, royale, words=tr)),
         render_round_card(round_card_data(who, royale))),
        (render_score_sheet(sheet_data(who, royale, words=tr)),
         render_score_sheet(sheet_data(who, royale))),
        (render_score_card(card_data(few, posing, words=tr)),
         render_score_card(card_data(few, posing))),
    ]
    for local, english in pictures:
        assert pixels(local) != pixels(english)
    missing = [r.getMessage() for r in caplog.records if "No installed font" in r.getMessage()]
    assert not missing, missing
