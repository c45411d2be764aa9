"""Pictures of the games, drawn with Pillow: the Panda Royale score sheet and the Posing
Pandas score card.

The functions are synchronous and pure (plain values in, PNG bytes out; no discord), so the bot
calls them in a thread: ``await asyncio.to_thread(render_score_sheet, sheet_data(...))``.
:func:`render_round_card` draws the phone-sized card of the current round (attached to the
round message); :func:`render_score_sheet` the full ten-round sheet (game end, on demand).
"""

from pictures.posing_card import CardData, card_data, render_score_card
from pictures.round_card import RoundCardData, render_round_card, round_card_data
from pictures.royale_sheet import SheetData, render_score_sheet, sheet_data

__all__ = [
    "CardData",
    "RoundCardData",
    "SheetData",
    "card_data",
    "render_round_card",
    "render_score_card",
    "render_score_sheet",
    "round_card_data",
    "sheet_data",
]
