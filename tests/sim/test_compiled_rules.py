"""The mypyc build of bot/rules (bot/compiled.py): used only while every source is as it was
built, and then it plays exactly the games of the pure-Python rules."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot import compiled


def _fake_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A source tree with two rules files and a build of them recorded as fresh."""
    root = tmp_path / "repo"
    rules = root / "bot" / "rules"
    (rules / "royale").mkdir(parents=True)
    (rules / "rng.py").write_text("x = 1\n")
    (rules / "royale" / "rounds.py").write_text("y = 2\n")
    build = root / "build" / "mypyc"
    (build / "bot" / "rules").mkdir(parents=True)
    (build / "bot" / "rules" / f"rng{compiled.SUFFIX}").write_bytes(b"")
    for name, value in {"ROOT": root, "RULES": rules, "BUILD": build,
                        "MANIFEST": build / "manifest.json"}.items():
        monkeypatch.setattr(compiled, name, value)
    sources = {str(p.relative_to(root)): compiled.stamp(p) for p in compiled.rules_sources()}
    (build / "manifest.json").write_text(json.dumps({
        "suffix": compiled.SUFFIX, "sources": sources,
        "modules": {"bot.rules.rng": f"bot/rules/rng{compiled.SUFFIX}"}}))
    return root


def test_a_build_is_used_while_its_sources_are_as_built(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    root = _fake_build(tmp_path, monkeypatch)
    modules = compiled.fresh_modules()
    assert modules is not None and set(modules) == {"bot.rules.rng"}
    # an edit (a new time and size): stale
    source = root / "bot" / "rules" / "royale" / "rounds.py"
    source.write_text("y = 3  # edited\n")
    assert compiled.fresh_modules() is None


@pytest.mark.parametrize("change", ["added", "removed", "other python", "no module file"])
def test_any_change_makes_a_build_stale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        change: str) -> None:
    root = _fake_build(tmp_path, monkeypatch)
    rules = root / "bot" / "rules"
    if change == "added":
        (rules / "new.py").write_text("")
    elif change == "removed":
        (rules / "rng.py").unlink()
    elif change == "other python":
        monkeypatch.setattr(compiled, "SUFFIX", ".cpython-399-x.so")
    else:
        (compiled.BUILD / "bot" / "rules" / f"rng{compiled.SUFFIX}").unlink()
    assert compiled.fresh_modules() is None


def test_the_rules_asked_for(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compiled, "MANIFEST", tmp_path / "none.json")
    monkeypatch.setenv(compiled.ENV, "compiled")
    with pytest.raises(RuntimeError, match="no mypyc build"):
        compiled.install()
    monkeypatch.setenv(compiled.ENV, "python")
    assert compiled.install() == "python"


def test_the_build_leaves_out_what_mypyc_cannot_compile() -> None:
    names = {compiled.module_name(p) for p in compiled.compiled_sources()}
    assert "bot.rules.royale.rounds" in names and "bot.rules.rng" in names
    assert not any(n.startswith(("bot.rules.validate", "bot.rules.posing")) for n in names)
    assert "bot.rules.errors" not in names and not any(n.endswith("__init__") for n in names)


_GAMES = """
import hashlib, sys
import bot
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
import bot.rules.royale.rounds as rounds
print(bot.RULES, rounds.__file__.endswith(".py"), digest.hexdigest())
"""


@pytest.mark.skipif(compiled.fresh_modules() is None, reason="no fresh mypyc build here")
def test_the_compiled_rules_play_the_same_games() -> None:
    def run(rules: str) -> list[str]:
        env = {**os.environ, compiled.ENV: rules}
        out = subprocess.run([sys.executable, "-c", _GAMES], env=env, check=True,
                             capture_output=True, text=True).stdout.split()
        return out

    python, built = run("python"), run("compiled")
    assert python[:2] == ["python", "True"] and built[:2] == ["compiled", "False"]
    assert python[2] == built[2]
