"""The package's build: pyproject.toml holds its metadata; this file adds the rules engines
compiled by mypyc, where they can be.

A wheel (``pip wheel .``, ``pip install .``, the Docker image's build stage) holds the modules
of :data:`COMPILED` compiled by mypyc beside their Python source, which stays the same pure
Python. Where mypyc, a C compiler or the interpreter's headers are missing, or with
``PANDA_MYPYC=0``, the wheel holds the Python modules only and they run as they are. An
editable install (``pip install -e .``, ``./dev``) never compiles: the source tree runs Python.
Where a compiler is present a compile that fails is an error, never a quiet fall-back.
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
from pathlib import Path

from setuptools import Extension, setup

RULES = Path("bot", "rules")
NOT_COMPILED = ("validate", "posing", "errors.py", "registry.py", "api.py", "gamelog.py",
                "__init__.py")
"""Left as Python: the log validator (it reads each log once, replaying it through the compiled
engine), Posing Pandas (its engine checks the types of what it is given, which compiled code
refuses before), the error classes (subclasses of Exception), the registry and the protocols
(no work at run time), the game log (a dict subclass), package files."""

SWITCH = "PANDA_MYPYC"
"""``PANDA_MYPYC=0`` builds the Python modules only, whatever this machine has."""

BUILDS = {"bdist_wheel", "build", "build_ext", "install"}
"""The setup commands that build the package (metadata and editable commands do not)."""


def compiled_sources() -> list[str]:
    """The files of ``bot/rules`` mypyc compiles, relative to this file's folder."""
    return sorted(str(p) for p in RULES.rglob("*.py")
                  if not any(part in NOT_COMPILED for part in p.relative_to(RULES).parts))


def why_not_compiled(argv: list[str]) -> str | None:
    """Why the rules stay Python in this build (``None``: they are compiled)."""
    if os.environ.get(SWITCH) == "0":
        return f"{SWITCH}=0"
    if not BUILDS & set(argv):
        return "not a build of the package"  # metadata, or an editable install
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return "mypyc is not installed"
    compiler = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    if shutil.which(compiler.split()[0]) is None:
        return f"no C compiler ({compiler.split()[0]})"
    if not Path(sysconfig.get_paths()["include"], "Python.h").is_file():
        return "no Python headers (Python.h)"
    return None


def ext_modules() -> list[Extension]:
    """The compiled rules' extension modules, or none (see :func:`why_not_compiled`)."""
    why = why_not_compiled(sys.argv[1:])
    if why is not None:
        if why != "not a build of the package":
            print(f"bot/rules: pure Python ({why})", file=sys.stderr)
        return []
    from mypyc.build import mypycify

    print("bot/rules: compiling with mypyc", file=sys.stderr)
    extensions: list[Extension] = mypycify(compiled_sources())
    return extensions


if __name__ == "__main__":  # as setuptools' build backend runs it
    setup(ext_modules=ext_modules())
