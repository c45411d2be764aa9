"""The Panda Royale bot: the application (command line, settings, client, game service) and
its pure rules engines (``bot.rules``).

Importing it puts the mypyc build of the rules in front of their pure-Python modules where that
build may be used (:mod:`bot.compiled`; ``PANDA_RULES=python`` keeps to Python).
"""

from bot.compiled import install as _install_compiled_rules

RULES = _install_compiled_rules()
"""Which rules engines this process runs: ``"compiled"`` (the mypyc build) or ``"python"``."""
