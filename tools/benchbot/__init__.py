"""Benchmarks of the Discord bot run inside SimCord (a simulated Discord, in-process).

``tools.benchbot.bot_bench`` is the entry point (``main(argv)``); ``tools.benchbot.simworld``
holds the
harness: the real bot on a SQLite file, simulated players, and the timing hooks.
"""
