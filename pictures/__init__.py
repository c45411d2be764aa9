"""Pictures of the games, drawn with Pillow: the Panda Royale round picture and score sheet,
the Posing Pandas score card, and the dice as application emojis.

Every function here, and in :mod:`pictures.charts`, is synchronous and pure (plain values in,
PNG bytes out; no discord), so the bot calls them in a thread:
``await asyncio.to_thread(render_score_sheet, sheet_data(...))``.

Every picture is made for a phone: about 780 px wide, shown at half size, its digits drawn at
25 px or more (about 18 px tall, 9 px on a phone); each module's ``DIGIT_SIZES`` lists its
sizes for the tests that hold them to that.
"""

from pictures.emoji import (
    die_emoji_name,
    emoji_set,
    face_emoji_name,
    fingerprints,
    pose_emoji_name,
)
from pictures.posing_card import CardData, box_number, card_data, render_score_card
from pictures.round_card import (
    RoundCardData,
    describe_round_card,
    render_round_card,
    round_card_data,
)
from pictures.royale_sheet import SheetData, render_score_sheet, sheet_data

__all__ = [
    "CardData",
    "RoundCardData",
    "SheetData",
    "box_number",
    "card_data",
    "describe_round_card",
    "die_emoji_name",
    "emoji_set",
    "face_emoji_name",
    "fingerprints",
    "pose_emoji_name",
    "render_round_card",
    "render_score_card",
    "render_score_sheet",
    "round_card_data",
    "sheet_data",
]
