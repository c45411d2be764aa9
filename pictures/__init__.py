"""Pictures of the games, drawn with Pillow: the Panda Royale round picture and score sheet,
the Posing Pandas score card, and the dice as application emojis.

The functions are synchronous and pure (plain values in, PNG bytes out; no discord), so the bot
calls them in a thread: ``await asyncio.to_thread(render_score_sheet, sheet_data(...))``.
:func:`render_round_card` draws the picture of the current round (every player's dice and
scores, one phone screen for ten players) and :func:`describe_round_card` says it in words;
:func:`render_score_sheet` the ten-round sheet (game end, on demand). :mod:`pictures.emoji`
draws every die face as an emoji image (:func:`emoji_set`) and names the emoji of a die.
Every picture is made for a phone: 780 px wide, shown at half size.
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
