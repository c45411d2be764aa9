"""Developer tools that are not part of the shipped bot: the crash drill, the bot benchmarks,
and Discord's API description with the checker the tests hold the bot's requests to.

Nothing under ``bot/``, ``cogs/`` or ``storage/`` imports this package; it is not in the wheel
nor in the Docker image. ``./dev crash-drill``, ``./dev bench-bot`` and ``./dev discord-spec``
run it.
"""
