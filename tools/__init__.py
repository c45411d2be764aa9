"""Developer tools that are not part of the shipped bot: the crash drill and the bot benchmarks.

Nothing under ``bot/``, ``cogs/`` or ``storage/`` imports this package; it is not in the wheel
nor in the Docker image. ``./dev crash-drill`` and ``./dev bench-bot`` run it.
"""
