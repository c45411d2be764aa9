"""Headless games: the simulator, the terminal demos and the engine benchmark."""
