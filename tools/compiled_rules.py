"""``python -m tools.compiled_rules``: the package built as the Docker image builds it, installed
beside the source tree so that the tests and the benchmarks can run its compiled rules engines.

The wheel is built from the files the Dockerfile's build stage copies, by the ``pip wheel``
command that stage runs (both read from the Dockerfile), and installed with ``pip install
--target`` into ``build/compiled-rules/site``, which git ignores. It is built again only when
what it was built from changed: a file of ``bot/rules``, ``setup.py``, ``pyproject.toml``, the
Dockerfile's build stage, or the interpreter. Only the rules are compiled; the other packages
are Python in the wheel as in the source tree, so they are copied from the source tree as it is
now at every call: the rules as built, everything else current.

A process runs the install when the folder comes first on its ``sys.path``: ``PYTHONPATH`` with
``PYTHONSAFEPATH=1`` (without it ``python -m`` and ``python -c`` put the working directory, the
source tree, first), as ``./dev bench`` does; the tests take it as ``PANDA_TEST_COMPILED``
(``tests/conftest.py``), as ``./dev test`` does for its second pass.

Prints the folder and exits 0 when the installed rules are compiled; exits 3, saying why, when
the wheel holds them as Python (no C compiler or Python headers here, or ``PANDA_MYPYC=0``);
exits 1 when the build failed.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOME = ROOT / "build" / "compiled-rules"
SWITCH = "PANDA_MYPYC"  # setup.py's: PANDA_MYPYC=0 builds the Python modules only
EXT_SUFFIX = str(sysconfig.get_config_var("EXT_SUFFIX"))
SKIPPED = shutil.ignore_patterns("__pycache__", "*.pyc", "*.so")


@dataclass(frozen=True)
class Install:
    """The installed package: its folder (first on ``sys.path`` to run it), the wheel it came
    from, and whether that wheel's rules are compiled.
    """

    site: Path
    wheel: Path
    compiled: bool


@dataclass(frozen=True)
class ImageBuild:
    """What the Dockerfile's build stage does: the files it copies into the build's folder
    and the ``pip wheel`` command it runs there (``wheels``: the command's ``--wheel-dir``).
    """

    copies: tuple[str, ...]
    command: tuple[str, ...]
    wheels: str
    text: str


def dockerfile_lines(text: str) -> list[str]:
    """The Dockerfile's instructions, one string each (continuation lines joined, comments
    and blank lines left out).
    """
    lines: list[str] = []
    pending = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if line.endswith("\\"):
            pending += line[:-1].strip() + " "
            continue
        lines.append(pending + line)
        pending = ""
    return lines


def image_build(text: str | None = None) -> ImageBuild:
    """The build stage (``FROM ... AS build``) of the Dockerfile ``text`` (default: the
    project's).
    """
    if text is None:
        text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    stage: list[str] = []
    inside = False
    for line in dockerfile_lines(text):
        if line.upper().startswith("FROM "):
            inside = bool(re.search(r"\sAS\s+build$", line, re.IGNORECASE))
        elif inside:
            stage.append(line)
    copies: list[str] = []
    command: list[str] = []
    for line in stage:
        words = shlex.split(line)
        if words[0].upper() == "COPY" and not any(w.startswith("--") for w in words):
            copies += words[1:-1]
        elif words[0].upper() == "RUN" and words[1:3] == ["pip", "wheel"]:
            command = words[1:]
    if not copies or "--wheel-dir" not in command[:-1]:
        raise ValueError("the Dockerfile has no build stage that copies the sources and runs "
                         "pip wheel --wheel-dir DIR")
    wheels = command[command.index("--wheel-dir") + 1]
    return ImageBuild(tuple(copies), tuple(command), wheels, "\n".join(stage))


def shipped_packages() -> list[str]:
    """The packages the wheel holds (pyproject.toml's ``packages.find`` include list)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return [p.rstrip("*") for p in config["tool"]["setuptools"]["packages"]["find"]["include"]]


def build_key(build: ImageBuild) -> str:
    """A digest of what the compiled rules are built from: every file of ``bot/rules``,
    ``setup.py``, ``pyproject.toml``, the build stage and the interpreter.
    """
    digest = hashlib.sha256(f"{sys.version}\n{EXT_SUFFIX}\n{build.text}\n".encode())
    rules = [p for p in sorted((ROOT / "bot" / "rules").rglob("*"))
             if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".so"]
    for path in [ROOT / "setup.py", ROOT / "pyproject.toml", *rules]:
        digest.update(f"{path.relative_to(ROOT)}\n".encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def copy_sources(build: ImageBuild, into: Path) -> None:
    """Copy what the build stage copies from the source tree into ``into``."""
    for name in build.copies:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, into / name, ignore=SKIPPED)
        else:
            shutil.copy2(source, into / name)


def build_wheel(out: Path, build: ImageBuild | None = None,
                env: dict[str, str] | None = None) -> Path:
    """Build the wheel into ``out`` as the Dockerfile's build stage does (its files, its
    command, in a folder of their own); the wheel's path. ``env``: the build's environment.
    """
    build = build or image_build()
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp)
        copy_sources(build, src)
        command = [str(out) if word == build.wheels else word for word in build.command]
        run = subprocess.run([sys.executable, "-m", *command], cwd=src, env=env,
                             capture_output=True, text=True, check=False)
    if run.returncode != 0:
        raise RuntimeError(f"{shlex.join(build.command)} failed:\n{run.stdout[-3000:]}"
                           f"{run.stderr[-3000:]}")
    (wheel,) = out.glob("*.whl")
    return wheel


def compiled(site: Path) -> bool:
    """Whether the rules installed in ``site`` are compiled (their engine is an extension
    module).
    """
    return (site / "bot" / "rules" / "royale" / f"rounds{EXT_SUFFIX}").is_file()


def process_env(site: Path) -> dict[str, str]:
    """This process's environment for a child process that runs the package installed in
    ``site`` instead of the source tree.
    """
    path = os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")]))
    return {**os.environ, "PYTHONPATH": path, "PYTHONSAFEPATH": "1"}


def refresh(site: Path) -> None:
    """Copy every shipped package but ``bot/rules`` from the source tree into ``site`` as the
    tree is now (each of them is Python in the wheel too).
    """
    for package in shipped_packages():
        target = site / package
        if package != "bot":
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(ROOT / package, target, ignore=SKIPPED)
            continue
        for old in target.iterdir():
            if old.is_dir() and old.name != "rules":
                shutil.rmtree(old)
            elif old.is_file():
                old.unlink()
        shutil.copytree(ROOT / "bot", target, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("rules", "__pycache__", "*.pyc", "*.so"))


@contextmanager
def locked() -> Iterator[None]:
    """Hold the install's lock (one build at a time, across processes)."""
    HOME.parent.mkdir(parents=True, exist_ok=True)
    with open(HOME.parent / "compiled-rules.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def install() -> Install:
    """The wheel built as the image builds it and installed in ``build/compiled-rules/site``,
    built and installed again only when what it was built from changed.
    """
    build = image_build()
    key = build_key(build)
    site, wheels = HOME / "site", HOME / "wheel"
    with locked():
        stamp = HOME / "key"
        if not stamp.is_file() or stamp.read_text() != key:
            shutil.rmtree(HOME, ignore_errors=True)
            wheels.mkdir(parents=True)
            wheel = build_wheel(wheels, build)
            subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                            "--target", str(site), str(wheel)], check=True)
            stamp.write_text(key)
        refresh(site)
        (wheel,) = wheels.glob("*.whl")
        return Install(site, wheel, compiled(site))


def main() -> int:
    """Build or reuse the install; print its folder when its rules are compiled."""
    if os.environ.get(SWITCH) == "0":
        print(f"{SWITCH}=0: the rules stay Python.", file=sys.stderr)
        return 3
    if not HOME.joinpath("key").is_file():
        print("Building the wheel as the Docker image does, bot/rules compiled by mypyc where "
              "a C compiler is present (about a minute)...", file=sys.stderr)
    try:
        found = install()
    except (OSError, RuntimeError, subprocess.CalledProcessError) as exc:
        print(f"Could not build or install the wheel: {exc}", file=sys.stderr)
        return 1
    if not found.compiled:
        print(f"{found.wheel.name}: its rules are Python (no C compiler or no Python headers "
              "here: Debian's gcc, libc6-dev and python3-dev).", file=sys.stderr)
        return 3
    print(found.site)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
