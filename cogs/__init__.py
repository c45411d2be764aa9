"""The discord.py extensions, one per feature: each game kind's commands, card and items
(``cogs/<kind>/``), the commands every kind shares (``games.py``), stats, seasons, help, settings,
privacy, the greeting and the gateway's events (``upkeep.py``).
"""
