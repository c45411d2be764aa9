"""``python -m tools.benchbot`` (``./dev bench-bot``): see :mod:`tools.benchbot.bot_bench`."""

from tools.benchbot.bot_bench import main

raise SystemExit(main())
