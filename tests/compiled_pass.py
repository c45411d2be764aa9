"""A pytest plugin: ``pytest -p tests.compiled_pass --compiled-rules DIR ...`` runs the tests
against the package installed in DIR (the wheel built as the Docker image builds it, by
``python -m tools.compiled_rules``) instead of the source tree. ``./dev test`` runs tests/rules
and tests/sim so, after the whole suite on the source tree's pure-Python rules.

DIR goes first on ``sys.path`` and the bot's rules are imported from it at once, before any test
module: pytest puts the source tree first on ``sys.path`` again as it imports each test module,
but a package imported once is not looked up again. The processes the tests start get DIR
first on their path too (``PYTHONPATH``, and ``PYTHONSAFEPATH`` so that ``python -c`` and
``python -m`` do not put the working directory before it). The run stops at once unless the
rules imported are DIR's and compiled.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--compiled-rules", metavar="DIR",
                     help="run against the package installed in DIR, whose rules are compiled")


def pytest_configure(config: pytest.Config) -> None:
    option = config.getoption("compiled_rules")
    if not option:
        return
    site = Path(option).resolve()
    sys.path.insert(0, str(site))
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(site),
                                                             os.environ.get("PYTHONPATH")]))
    os.environ["PYTHONSAFEPATH"] = "1"
    import bot.rules
    from bot.rules.royale import rounds

    where = Path(str(rounds.__file__)).resolve()
    if not (where.is_relative_to(site) and bot.rules.compiled()):
        raise pytest.UsageError(f"--compiled-rules {site}: the rules' engine was imported from "
                                f"{where}, not a compiled module of that folder")

