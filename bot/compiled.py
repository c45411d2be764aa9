"""The optional mypyc build of the rules engines: where it lives, whether it may be used, and
the import hook that uses it.

``bot.rules`` is pure Python and stays the reference: the build only compiles the very same
modules (:func:`compiled_sources`) with mypyc into ``build/mypyc-<python tag>/`` of the source
tree, a build output that git ignores. ``./dev`` builds it at set-up where mypyc and a C
compiler are present, and again whenever a source of ``bot/rules`` changed
(:mod:`tools.compile_rules`). The build records every source's size and time; it
is used only while each of them is as it was built (an edit, a checkout, a new or removed file
makes it stale, and the pure-Python modules are imported instead), and only by the interpreter
it was built for.

``PANDA_RULES`` chooses: ``python`` (always the pure-Python modules), ``compiled`` (the build,
or an error if it cannot be used), unset (the build where it can be used, else Python).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from importlib.machinery import EXTENSION_SUFFIXES, ExtensionFileLoader, ModuleSpec
from pathlib import Path
from types import ModuleType
from typing import Final

# Every process imports this module first (``bot/__init__.py``): it imports only what the
# interpreter has already loaded or nearly (no importlib.abc, importlib.util or sysconfig).
ROOT: Final = Path(__file__).resolve().parent.parent
RULES: Final = ROOT / "bot" / "rules"
SUFFIX: Final = EXTENSION_SUFFIXES[0]  # this interpreter's own, sysconfig's EXT_SUFFIX
BUILD: Final = ROOT / "build" / f"mypyc{SUFFIX.removesuffix('.so').replace('.', '-')}"
MANIFEST: Final = BUILD / "manifest.json"
ENV: Final = "PANDA_RULES"
NOT_COMPILED: Final = ("validate", "posing", "errors.py", "registry.py", "api.py",
                       "gamelog.py", "__init__.py")
"""Left out of the build (mypyc compiles none of them, or they are not worth it): the log
validator (it reads each log once, replaying it through the compiled engine), Posing Pandas
(its engine checks the types of what it is given, which compiled code refuses before), the
error classes (subclasses of Exception), the registry and the protocols (no work at run time),
the game log (a dict subclass), package files."""


def rules_sources() -> list[Path]:
    """Every Python file of ``bot/rules`` (any of them changed makes the build stale)."""
    return sorted(RULES.rglob("*.py"))


def compiled_sources() -> list[Path]:
    """The files of ``bot/rules`` the build compiles."""
    return [p for p in rules_sources()
            if not any(part in NOT_COMPILED for part in p.relative_to(RULES).parts)]


def module_name(path: Path) -> str:
    """``bot/rules/royale/rounds.py`` -> ``bot.rules.royale.rounds``."""
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def stamp(path: Path) -> list[int]:
    """What the build records of a source: its time (ns) and size."""
    st = path.stat()
    return [st.st_mtime_ns, st.st_size]


def fresh_modules() -> dict[str, Path] | None:
    """The build's modules (module name -> file) if it may be used now, else None: it was
    built by this interpreter and every source of ``bot/rules`` is as it was built.
    """
    try:
        manifest = json.loads(MANIFEST.read_text(encoding="utf-8"))
        if manifest.get("suffix") != SUFFIX:
            return None
        sources = manifest["sources"]
        if set(sources) != {str(p.relative_to(ROOT)) for p in rules_sources()}:
            return None  # a file was added or removed
        if any(stamp(ROOT / rel) != recorded for rel, recorded in sources.items()):
            return None
        modules = {name: BUILD / rel for name, rel in manifest["modules"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    return modules if all(p.is_file() for p in modules.values()) else None


class CompiledRules:
    """Imports the build's extension module for each module it compiled (a meta path finder:
    :class:`importlib.abc.MetaPathFinder`'s one method).
    """

    def __init__(self, modules: dict[str, Path]) -> None:
        self.modules = modules

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        found = self.modules.get(fullname)
        if found is None:
            return None
        spec = ModuleSpec(fullname, ExtensionFileLoader(fullname, str(found)), origin=str(found))
        spec.has_location = True  # __file__ is the extension module's file
        return spec


def install() -> str:
    """Put the build in front of the pure-Python modules where it may be used (see the module
    docstring); which rules this process runs: ``"compiled"`` or ``"python"``.
    """
    wanted = os.environ.get(ENV, "")
    if wanted == "python":
        return "python"
    modules = fresh_modules()
    if modules is None:
        if wanted == "compiled":
            raise RuntimeError(f"{ENV}=compiled, but there is no mypyc build of bot/rules for "
                               "its sources as they are: run python -m tools.compile_rules")
        return "python"
    if not any(isinstance(f, CompiledRules) for f in sys.meta_path):
        sys.meta_path.insert(0, CompiledRules(modules))
    return "compiled"


def running() -> str:
    """Which rules this process imported: ``"compiled"`` or ``"python"``."""
    return "compiled" if any(isinstance(f, CompiledRules) for f in sys.meta_path) else "python"
