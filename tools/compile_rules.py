"""``python -m tools.compile_rules [--when-stale | --clean]``: build the mypyc build of the rules
engines that :mod:`bot.compiled` uses (``./dev`` runs it with ``--when-stale`` at set-up and
whenever a source of ``bot/rules`` changed), or remove it.

Either way it also writes the bytecode of the ``bot`` package where it is missing or older than
its source (:func:`write_bytecode`): with ``PYTHONDONTWRITEBYTECODE=1`` (this project's
container sets it) an interpreter never writes it, so every ``python -m bot`` compiled each of
its modules from source again, a third of ``simulate``'s start-up. Interpreters read it
whatever that setting, and check it against the source as always.
"""

from __future__ import annotations

import compileall
import importlib.util
import json
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from bot.compiled import (
    BUILD,
    MANIFEST,
    ROOT,
    RULES,
    SUFFIX,
    compiled_sources,
    fresh_modules,
    rules_sources,
    stamp,
)


def build() -> None:
    """Compile :func:`compiled_sources` with mypyc into :data:`BUILD` (replacing it)."""
    stamps = {str(p.relative_to(ROOT)): stamp(p) for p in rules_sources()}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        shutil.copytree(RULES, work / "bot" / "rules",
                        ignore=shutil.ignore_patterns("__pycache__", "*.so"))
        (work / "bot" / "__init__.py").write_text('"""The package of the rules."""\n')
        files = [str(p.relative_to(ROOT)) for p in compiled_sources()]
        subprocess.run([sys.executable, "-m", "mypyc", *files], cwd=work, check=True,
                       stdout=subprocess.DEVNULL)
        built = sorted(work.rglob(f"*{SUFFIX}"))
        shutil.rmtree(BUILD, ignore_errors=True)
        modules: dict[str, str] = {}
        for so in built:
            rel = so.relative_to(work)
            if "build" in rel.parts:  # mypyc's own intermediate files
                continue
            (BUILD / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(so, BUILD / rel)
            name = ".".join((*rel.parent.parts, rel.name.removesuffix(SUFFIX)))
            modules[name] = str(rel)
    MANIFEST.write_text(json.dumps({"suffix": SUFFIX, "sources": stamps, "modules": modules},
                                   indent=1), encoding="utf-8")


def write_bytecode() -> None:
    """Write the bytecode (``__pycache__``) of every module of the ``bot`` package that has none
    or an older one (as ``python -m compileall`` does).
    """
    compileall.compile_dir(ROOT / "bot", quiet=1)


def can_build() -> bool:
    """Whether this machine can build: mypyc importable and a C compiler."""
    return (importlib.util.find_spec("mypyc") is not None
            and any(shutil.which(cc) for cc in ("cc", "gcc", "clang")))


def main(argv: Sequence[str] | None = None) -> int:
    """Build (or with ``--clean`` remove) the mypyc build; ``--when-stale``: only if it is
    missing or stale and this machine can build it.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    if args == ["--clean"]:
        shutil.rmtree(BUILD, ignore_errors=True)
        return 0
    if args in ([], ["--when-stale"]):
        write_bytecode()
    if args == ["--when-stale"]:
        if fresh_modules() is not None or not can_build():
            return 0
        print("Compiling bot/rules with mypyc (a minute; the pure-Python rules are used "
              "meanwhile and wherever it cannot be built)...", file=sys.stderr)
    elif args:
        print("usage: python -m tools.compile_rules [--when-stale | --clean]", file=sys.stderr)
        return 2
    try:
        build()
    except (OSError, subprocess.CalledProcessError) as exc:
        shutil.rmtree(BUILD, ignore_errors=True)
        print(f"Could not compile bot/rules ({exc}): the pure-Python rules are used (the same "
              "games, slower).", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
