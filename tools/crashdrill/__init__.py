"""The hard-crash drill: SIGKILL the real game service and storage mid-game, again and again.

* :mod:`tools.crashdrill.child` is the process that gets killed: the real ``GameService`` on a
  real SQLite file, playing the human seats with seeded computer players through
  ``service.act`` and telling its parent, line by line, what it answered and when a
  transaction is open (:mod:`tools.crashdrill.hold` wraps the storage's parts to reach
  inside the transaction; the forget drill and the two-cluster test use it too).
* :mod:`tools.crashdrill.checks` reads the database after each kill (read-only ``sqlite3``) and
  replays every game with the engine.
* :mod:`tools.crashdrill.drill` is the parent: it chooses the kill points, kills, checks and
  restarts (``run_drill`` / ``main``), with :mod:`tools.crashdrill.plan` (the kill points),
  :mod:`tools.crashdrill.child_process` (one child, read and killed) and
  :mod:`tools.crashdrill.report` (what the drill found).

This module imports nothing: the child's start-up time is the drill's cost per kill.
"""
