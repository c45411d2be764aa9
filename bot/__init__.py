"""The Panda Royale bot: the application (command line, settings, client, game service) and
its pure rules engines (``bot.rules``).
"""
