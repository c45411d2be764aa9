"""Failures the command line reports as one or two plain lines (never a traceback)."""

from __future__ import annotations

USAGE = 2
"""Exit code of a usage error: a bad argument or option."""

RUNTIME = 1
"""Exit code of a failure at run time: a bad setting, an unreachable Discord, a bad database."""


class Problem(Exception):
    """Something the person running the bot can fix; ``message`` says what and how.

    ``code`` is the exit code: :data:`USAGE` or :data:`RUNTIME`.
    """

    code = RUNTIME

    def __init__(self, message: str, code: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code


class UsageProblem(Problem):
    """A bad argument: exit code 2."""

    code = USAGE
