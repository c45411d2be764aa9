"""The container installs the runtime dependencies from requirements.lock (pinned, hashed) and
checks the bot's health; ./dev keeps installing from pyproject.toml."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


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


def test_dockerfile_installs_from_the_lock_and_checks_health() -> None:
    text = (ROOT / "Dockerfile").read_text()
    assert "pip install --require-hashes -r requirements.lock" in text
    assert "pip install --no-deps ." in text
    assert re.search(r"HEALTHCHECK .*\\\n\s+CMD \[\"python\", \"-m\", \"bot\", \"health\"\]", text)
    assert "requirements.lock" not in (ROOT / ".dockerignore").read_text()


def test_dev_hides_the_editable_install_notice() -> None:
    assert 'PYTHONWARNINGS="ignore:Editable installation"' in (ROOT / "dev").read_text()


def _shipped_packages() -> list[str]:
    found = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    return [p.rstrip("*") for p in found["packages"]["find"]["include"]]


def test_the_image_copies_every_shipped_package_and_no_dev_tool() -> None:
    text = (ROOT / "Dockerfile").read_text()
    copied = set(re.findall(r"^COPY (\w+) \./\1$", text, re.M))
    assert copied == set(_shipped_packages())
    assert "tools" not in copied and "tools" in (ROOT / ".dockerignore").read_text().split()


def test_the_wheel_holds_no_dev_tool(tmp_path: Path) -> None:
    import subprocess
    import sys
    import zipfile

    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                    "-q", "-w", str(tmp_path), str(ROOT)], check=True, capture_output=True)
    (wheel,) = tmp_path.glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names if "/" in n and ".dist-info" not in n}
    assert tops == set(_shipped_packages())
    assert not any("crashdrill" in n or "benchbot" in n or n.startswith("tests/")
                   for n in names)
    assert "bot/rules/py.typed" in names
    # the message catalogues, read at run time (ui/i18n.py): the template and every language
    catalogues = {f"ui/locales/{p.name}" for p in (ROOT / "ui" / "locales").iterdir()}
    assert {"ui/locales/messages.pot", "ui/locales/ja.po"} <= catalogues <= set(names)
