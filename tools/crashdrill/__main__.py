"""``python -m tools.crashdrill``: the crash drill (see :mod:`tools.crashdrill.drill`)."""

from tools.crashdrill.drill import main

raise SystemExit(main())
