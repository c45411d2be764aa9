"""A developer tool: the expert Royale player's win share and decision times (not shipped)."""
