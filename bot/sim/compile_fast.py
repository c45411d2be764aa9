"""``./dev compile-fast``: compile the simulator's fast path with mypyc (optional).

Builds ``bot/rules/royale/fast_compiled*.so`` from a copy of ``bot/rules/royale/fast.py`` that
records the sha256 of its source (see :mod:`bot.sim.fastpath`). Needs mypy (a dev dependency),
setuptools and a C compiler; nothing else in the project needs it, and without it the same
games run in pure Python. ``--clean`` removes the compiled files.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]  # bot/
TARGET_DIR = PACKAGE / "rules" / "royale"
SETUP = """\
from setuptools import setup
from mypyc.build import mypycify

setup(name="fast-compiled", py_modules=[],
      ext_modules=mypycify(["bot/rules/royale/fast_compiled.py"], opt_level="3"))
"""


def clean() -> list[Path]:
    """Remove the compiled fast path; the files removed."""
    gone = sorted(TARGET_DIR.glob("fast_compiled*.so"))
    for path in gone:
        path.unlink()
    return gone


def build() -> list[Path]:
    """Compile a copy of the fast path with mypyc; the files built."""
    from bot.sim.fastpath import source_sha256

    source = (TARGET_DIR / "fast.py").read_bytes()
    digest = source_sha256(TARGET_DIR)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        shutil.copytree(PACKAGE, work / "bot",
                        ignore=shutil.ignore_patterns("*.so", "__pycache__"))
        copy = work / "bot" / "rules" / "royale" / "fast_compiled.py"
        copy.write_bytes(source + f'\n\nSOURCE_SHA256 = "{digest}"\n'.encode())
        (work / "setup.py").write_text(SETUP)
        subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=work,
                       check=True, stdout=subprocess.DEVNULL)
        clean()
        built = sorted((work / "bot" / "rules" / "royale").glob("fast_compiled*.so"))
        if not built:
            raise SystemExit("mypyc produced no module")
        for path in built:
            shutil.copy2(path, TARGET_DIR / path.name)
    return [TARGET_DIR / p.name for p in built]


def main(argv: list[str] | None = None) -> int:
    """``./dev compile-fast [--clean]``."""
    args = sys.argv[1:] if argv is None else argv
    if "--clean" in args:
        for path in clean():
            print(f"removed {path}")
        return 0
    for path in build():
        print(f"built {path}")
    from bot.sim.fastpath import compiled_module

    module, why = compiled_module()
    print("the simulator will use it" if module is not None else f"not usable: {why}")
    return 0 if module is not None else 1


if __name__ == "__main__":
    raise SystemExit(main())
