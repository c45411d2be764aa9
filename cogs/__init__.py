"""The discord.py extensions: one package per game kind, plus core, stats and help."""
