"""The engine alone, for developers: ``./dev simulate`` plays many headless games and writes
their game log; ``./dev bench`` measures the engine's speed (:mod:`tools.sim.bench`).
Not shipped: the product's command line is :mod:`bot.cli`.
"""
