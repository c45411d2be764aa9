"""``python -m bot``: see :mod:`bot.cli`."""

from bot.cli import main

raise SystemExit(main())
