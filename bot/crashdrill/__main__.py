"""``python -m bot.crashdrill``: the crash drill (see :mod:`bot.crashdrill.drill`)."""

from bot.crashdrill.drill import main

raise SystemExit(main())
