"""The package as it is built and shipped: the Docker image builds the wheel in a stage with a C
compiler, so its rules engines are compiled by mypyc, and runs it on a slim image that installs
the runtime dependencies from requirements.lock (pinned, hashed); without a compiler, with
``PANDA_MYPYC=0`` or in an editable install (the source tree, ./dev) the rules are Python."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path
from types import ModuleType

import pytest

import bot.rules
from tools import compiled_rules

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = set(compiled_rules.shipped_packages())


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def stages() -> list[list[str]]:
    """The Dockerfile's stages, each a list of its instructions (its FROM first)."""
    found: list[list[str]] = []
    for line in compiled_rules.dockerfile_lines((ROOT / "Dockerfile").read_text()):
        if line.startswith("FROM "):
            found.append([])
        found[-1].append(line)
    return found


def setup_module_() -> ModuleType:
    """setup.py as a module (its ``setup()`` runs only as a script)."""
    spec = importlib.util.spec_from_file_location("panda_setup", ROOT / "setup.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def module_of(name: str) -> str:
    """``bot/rules/rng.cpython-311-x86_64-linux-gnu.so`` -> ``bot.rules.rng``."""
    return name.split(".", 1)[0].replace("/", ".") if "/" in name else name


def test_lock_pins_every_runtime_dependency_with_hashes() -> None:
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    wanted = {canonical(re.split(r"[<>=!~\[; ]", d, maxsplit=1)[0]) for d in deps}
    lock = (ROOT / "requirements.lock").read_text()
    pinned = {canonical(m.group(1)) for m in re.finditer(r"^([A-Za-z0-9_.-]+)==\S+", lock, re.M)}
    assert wanted <= pinned
    blocks = re.split(r"\n(?=[A-Za-z0-9])", lock.split("\n\n", 1)[-1])
    assert all("--hash=sha256:" in b for b in blocks if "==" in b)
    dev_only = {"pytest", "mypy", "ruff", "simcord", "hypothesis"}
    assert not pinned & dev_only


def test_the_image_builds_with_a_compiler_and_runs_without_one() -> None:
    build, image = stages()
    assert build[0] == "FROM python:3.11-slim AS build"
    assert "gcc libc6-dev" in " ".join(build)
    assert image[0] == "FROM python:3.11-slim"  # the same interpreter the wheel was built for
    text = "\n".join(image)
    assert "gcc" not in text
    assert "COPY --from=build /wheels /tmp/wheels" in text
    assert "pip install --require-hashes -r requirements.lock" in text
    install = next(line for line in image if "pip install --no-deps /tmp/wheels/*.whl" in line)
    # the image is not built unless its rules are compiled
    assert 'python -c "import bot.rules, sys; sys.exit(not bot.rules.compiled())"' in install
    assert re.search(r'HEALTHCHECK .* CMD \["python", "-m", "bot", "health"\]$', text, re.M)
    assert "requirements.lock" not in (ROOT / ".dockerignore").read_text()


def test_the_build_stage_copies_every_shipped_package_and_no_dev_tool() -> None:
    found = compiled_rules.image_build()
    assert found.command == ("pip", "wheel", "--no-deps", "--wheel-dir", "/wheels", ".")
    assert {"pyproject.toml", "setup.py", "README.md"} <= set(found.copies)
    assert {c for c in found.copies if (ROOT / c).is_dir()} == SHIPPED
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert "tools" in ignored and "tests" in ignored and "**/*.so" in ignored


def test_dev_hides_the_editable_install_notice() -> None:
    assert 'PYTHONWARNINGS="ignore:Editable installation"' in (ROOT / "dev").read_text()


def test_the_source_tree_runs_the_python_rules() -> None:
    # the reference: ./dev's editable install compiles nothing into the tree
    assert not bot.rules.compiled()
    assert Path(str(bot.rules.__file__)).resolve().is_relative_to(ROOT)
    assert not [p for p in (ROOT / "bot").rglob("*") if p.suffix in (".so", ".pyd")]


def test_only_a_build_of_the_package_compiles(monkeypatch: pytest.MonkeyPatch) -> None:
    setup = setup_module_()
    monkeypatch.delenv("PANDA_MYPYC", raising=False)
    for argv in (["editable_wheel", "--dist-dir", "x"], ["egg_info"], ["dist_info"]):
        assert setup.why_not_compiled(argv) == "not a build of the package"
    monkeypatch.setenv("PANDA_MYPYC", "0")
    assert setup.why_not_compiled(["bdist_wheel"]) == "PANDA_MYPYC=0"
    monkeypatch.delenv("PANDA_MYPYC")
    monkeypatch.setenv("CC", "/nonexistent/cc")
    assert setup.why_not_compiled(["bdist_wheel"]) == "no C compiler (/nonexistent/cc)"


@pytest.mark.parametrize("without", ["PANDA_MYPYC=0", "a C compiler"])
def test_without_a_compiler_the_wheel_holds_the_python_rules(tmp_path: Path,
                                                             without: str) -> None:
    env = {**os.environ, "PIP_NO_INPUT": "1"}
    if without == "a C compiler":
        env["CC"] = "/nonexistent/cc"
    else:
        env["PANDA_MYPYC"] = "0"
    wheel = compiled_rules.build_wheel(tmp_path, env=env)
    assert wheel.name.endswith("-py3-none-any.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "bot/rules/royale/rounds.py" in names
    assert not [n for n in names if n.endswith(".so")]
    # what the wheel holds: the shipped packages, no developer tool
    tops = {n.split("/")[0] for n in names if "/" in n and ".dist-info" not in n}
    assert tops == SHIPPED
    assert not any("crashdrill" in n or "benchbot" in n or n.startswith("tests/")
                   for n in names)
    assert "bot/rules/py.typed" in names
    # the message catalogues, read at run time (ui/i18n.py): the template and every language
    catalogues = {f"ui/locales/{p.name}" for p in (ROOT / "ui" / "locales").iterdir()}
    assert {"ui/locales/messages.pot", "ui/locales/ja.po"} <= catalogues <= set(names)


_GAMES = """
import hashlib
import bot.rules
from bot.rules.gamelog import log_lines
from bot.rules.registry import kind_of
from bot.sim.runner import play_game
digest = hashlib.sha256()
for n, opts, ai in [(4, [], ["random"]), (10, ["mischief", "cannon", "mercenary"],
                    ["heuristic", "random"]), (3, ["cannon"], ["expert", "heuristic"])]:
    for seed in range(3):
        played = play_game(kind_of("royale"), [f"p{i}" for i in range(n)], 900 + seed, ai,
                           {"expansions": opts})
        digest.update("".join(log_lines("g", played.events)).encode())
print(bot.rules.compiled(), bot.rules.__file__, digest.hexdigest())
"""


def test_the_image_s_wheel_runs_compiled_rules_that_play_the_same_games(tmp_path: Path) -> None:
    why = setup_module_().why_not_compiled(["bdist_wheel"])
    if why is not None:  # the image's build stage always has a compiler; CI installs one
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"the rules cannot be compiled here: {why}")
        pytest.skip(f"the rules cannot be compiled here: {why}")
    found = compiled_rules.install()  # built as the image builds it (reused while unchanged)
    assert found.compiled and re.search(r"-cp3\d+-cp3\d+-linux_\w+\.whl$", found.wheel.name)
    names = zipfile.ZipFile(found.wheel).namelist()
    built = {module_of(n) for n in names if n.endswith(".so") and n.startswith("bot/")}
    wanted = {p.removesuffix(".py").replace("/", ".") for p in setup_module_().compiled_sources()}
    assert built == wanted and "bot.rules.royale.rounds" in built
    assert not any(n.startswith(("bot.rules.validate", "bot.rules.posing")) for n in built)

    def play(cwd: Path, env: dict[str, str]) -> list[str]:
        return subprocess.run([sys.executable, "-c", _GAMES], cwd=cwd, env=env, check=True,
                              capture_output=True, text=True).stdout.split()

    source = play(ROOT, {k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    wheel = play(tmp_path, compiled_rules.process_env(found.site))
    assert source[0] == "False" and Path(source[1]).is_relative_to(ROOT / "bot")
    assert wheel[0] == "True" and Path(wheel[1]).is_relative_to(found.site)
    assert source[2] == wheel[2]
