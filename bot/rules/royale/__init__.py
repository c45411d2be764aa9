"""Panda Royale, base game and the Mayhem expansion's options, as a pure engine."""
