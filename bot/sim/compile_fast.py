"""``./dev compile-fast``: compile the simulator's fast path with mypyc (optional).

Builds ``bot/rules/royale/fast_compiled*.so`` and ``fast_write_compiled*.so`` (one mypyc group,
so their calls to each other are plain C calls) from copies of ``bot/rules/royale/fast.py`` and
``fast_write.py``, and ``fast_lines*.so`` from ``fast_lines.c`` (the busiest log lines, in C);
each records the sha256 of its sources (see :mod:`bot.sim.fastpath`). With GCC the build is
profile-guided: built once instrumented, it plays a few hundred games (:data:`TRAINING`), then
is built again from the counts (``--no-pgo`` builds it once, plainly). Needs mypy (a dev
dependency: its runtime library's headers), setuptools and a C compiler; nothing else in the
project needs it, and without it the same games run in pure Python. ``--clean`` removes the
compiled files.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]  # bot/
TARGET_DIR = PACKAGE / "rules" / "royale"
SETUP = """\
import os

import mypyc
from mypyc.build import mypycify
from setuptools import Extension, setup

RUNTIME = os.path.join(os.path.dirname(mypyc.__file__), "lib-rt")  # librt's headers and API
lines = Extension("bot.rules.royale.fast_lines",
                  ["bot/rules/royale/fast_lines.c",
                   os.path.join(RUNTIME, "strings", "librt_strings_api.c")],
                  include_dirs=[RUNTIME], extra_compile_args=["-O3", "-Wno-unused-function"],
                  define_macros=[("SOURCE_SHA256", '"{lines_sha256}"')])
setup(name="fast-compiled", py_modules=[],
      ext_modules=mypycify(["bot/rules/royale/fast_compiled.py",
                            "bot/rules/royale/fast_write_compiled.py"],
                           opt_level="3", group_name="bot.rules.royale.fast_compiled") + [lines])
"""
# Calls inside the module may be inlined: without this, -fPIC makes every C function of the
# module (mypyc's list and int helpers included) replaceable at load time, so GCC calls them.
# (CPython builds itself with it too.) Callgrind, 10 players: 1% fewer instructions a game,
# 3.5% fewer to write its log.
CFLAGS = "-fno-semantic-interposition"
# the group's shared library included
BUILT = ("fast_compiled*.so", "fast_write_compiled*.so", "fast_lines*.so")


# Profile-guided optimisation (GCC): callgrind, a game without its log 11-12 % fewer
# instructions (4 and 10 players), building its log 9-11 % fewer. Code the training never runs
# (other options) stays optimised as usual (-fprofile-partial-training).
PGO_GENERATE = "-fprofile-generate -fprofile-update=single"
PGO_USE = "-fprofile-use -fprofile-partial-training -Wno-missing-profile"
TRAINING = """\
import os
from librt.strings import BytesWriter
from bot.rules.royale import fast_compiled, fast_lines
from bot.sim.simulate import ai_seeds
# the instrumented copies just built, not an installed one
assert fast_compiled.__file__.startswith(os.getcwd()), fast_compiled.__file__
assert fast_lines.__file__.startswith(os.getcwd()), fast_lines.__file__
for players, options, games in ((4, [], 400), (10, [], 200), (6, ["mischief", "cannon"], 60)):
    table = fast_compiled.RandomGames([f"cpu{i + 1}" for i in range(players)], options,
                                      fast_lines)
    out = BytesWriter()
    for g in range(1, games + 1):  # every other game without its log
        table.play(g, ai_seeds(g, players), f"royale-{g}" if g % 2 else None, out)
        out.truncate(0)
"""


def build_env(extra: str = "", *, link: str = "") -> dict[str, str]:
    """The environment of the C build: the caller's, with :data:`CFLAGS` and ``extra`` after its
    own ``CFLAGS`` and ``link`` after its own ``LDFLAGS``.
    """
    env = dict(os.environ)
    env["CFLAGS"] = " ".join(f"{env.get('CFLAGS', '')} {CFLAGS} {extra}".split())
    if link:
        env["LDFLAGS"] = " ".join(f"{env.get('LDFLAGS', '')} {link}".split())
    return env


def gcc() -> bool:
    """Whether the C compiler setuptools will use is GCC (the profile flags are GCC's)."""
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    try:
        found = subprocess.run([compiler, "--version"], capture_output=True, text=True,
                               check=False)
    except OSError:
        return False
    return "clang" not in found.stdout.lower() and (
        "gcc" in found.stdout.lower() or "free software foundation" in found.stdout.lower())


def clean() -> list[Path]:
    """Remove the compiled fast path; the files removed."""
    gone = sorted(path for pattern in BUILT for path in TARGET_DIR.glob(pattern))
    for path in gone:
        path.unlink()
    return gone


def _setup(work: Path, env: dict[str, str], *, force: bool = False) -> None:
    subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace",
                    *(["--force"] if force else [])],
                   cwd=work, check=True, stdout=subprocess.DEVNULL, env=env)


def _profiled(work: Path) -> bool:
    """Build instrumented, train, rebuild from the counts; False (nothing built) if a step
    failed.
    """
    try:
        _setup(work, build_env(PGO_GENERATE, link=PGO_GENERATE))
        subprocess.run([sys.executable, "-c", TRAINING], cwd=work, check=True,
                       stdout=subprocess.DEVNULL)
        _setup(work, build_env(PGO_USE), force=True)
    except subprocess.CalledProcessError:
        print("the profile-guided build failed: building it plainly", file=sys.stderr)
        return False
    return True


def build(*, pgo: bool = True) -> list[Path]:
    """Compile a copy of the fast path with mypyc (profile-guided with GCC unless ``pgo`` is
    false); the files built.
    """
    from bot.sim.fastpath import lines_sha256, source_sha256

    source = (TARGET_DIR / "fast.py").read_bytes()
    imports = b"from bot.rules.royale.fast_write import"
    if source.count(imports) != 1:
        raise SystemExit("fast.py must import fast_write once, as `from ... import ...`")
    source = source.replace(imports, b"from bot.rules.royale.fast_write_compiled import")
    digest = source_sha256(TARGET_DIR)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        shutil.copytree(PACKAGE, work / "bot",
                        ignore=shutil.ignore_patterns("*.so", "__pycache__"))
        copy = work / "bot" / "rules" / "royale" / "fast_compiled.py"
        copy.write_bytes(source + f'\n\nSOURCE_SHA256 = "{digest}"\n'.encode())
        shutil.copy2(TARGET_DIR / "fast_write.py", copy.with_name("fast_write_compiled.py"))
        (work / "setup.py").write_text(SETUP.format(lines_sha256=lines_sha256(TARGET_DIR)))
        if not (pgo and gcc() and _profiled(work)):
            _setup(work, build_env(), force=True)
        clean()
        folder = work / "bot" / "rules" / "royale"
        built = sorted(path for pattern in BUILT for path in folder.glob(pattern))
        if not built:
            raise SystemExit("mypyc produced no module")
        for path in built:
            shutil.copy2(path, TARGET_DIR / path.name)
    return [TARGET_DIR / p.name for p in built]


def main(argv: list[str] | None = None) -> int:
    """``./dev compile-fast [--clean] [--no-pgo]``."""
    args = sys.argv[1:] if argv is None else argv
    if "--clean" in args:
        for path in clean():
            print(f"removed {path}")
        return 0
    for path in build(pgo="--no-pgo" not in args):
        print(f"built {path}")
    from bot.sim.fastpath import compiled_module

    module, why = compiled_module()
    print("the simulator will use it" if module is not None else f"not usable: {why}")
    from bot.sim.fastpath import lines_in_c

    lines = lines_in_c() is not None
    print("and write the busiest log lines in C" if lines else "the log lines in C are not usable")
    return 0 if module is not None and lines else 1


if __name__ == "__main__":
    raise SystemExit(main())
