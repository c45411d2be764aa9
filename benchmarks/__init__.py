"""Benchmarks of the Discord bot run inside SimCord (a simulated Discord, in-process).

``benchmarks.bot_bench`` is the entry point (``main(argv)``); ``benchmarks.simworld`` holds the
harness: the real bot on a SQLite file, simulated players, and the timing hooks.
"""
