"""Pictures of the games, drawn with Pillow: the Panda Royale score sheet and the Posing
Pandas score card.

The functions are synchronous and pure (plain values in, PNG bytes out; no discord), so the bot
calls them in a thread: ``await asyncio.to_thread(render_score_sheet, sheet_data(...))``.
"""

from pictures.posing_card import CardData, card_data, render_score_card
from pictures.royale_sheet import SheetData, render_score_sheet, sheet_data

__all__ = [
    "CardData",
    "SheetData",
    "card_data",
    "render_score_card",
    "render_score_sheet",
    "sheet_data",
]
