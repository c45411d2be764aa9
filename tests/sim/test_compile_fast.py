"""``./dev compile-fast``'s build settings: flags, compiler detection, the generated scripts.

The build itself runs in the dev set-up (CI included); the compiled copy is then tested against
the engine game by game (test_fast.py) and the C lines against the Python writers
(test_fast_lines.py).
"""

from __future__ import annotations

import ast

import pytest

from bot.sim import compile_fast


def test_flags_come_after_the_callers_own(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CFLAGS", "-O1 -g")
    monkeypatch.setenv("LDFLAGS", "-L/opt")
    env = compile_fast.build_env()
    assert env["CFLAGS"] == f"-O1 -g {compile_fast.CFLAGS}"
    assert env["LDFLAGS"] == "-L/opt"
    env = compile_fast.build_env(compile_fast.PGO_GENERATE, link=compile_fast.PGO_GENERATE)
    assert env["CFLAGS"] == f"-O1 -g {compile_fast.CFLAGS} {compile_fast.PGO_GENERATE}"
    assert env["LDFLAGS"] == f"-L/opt {compile_fast.PGO_GENERATE}"
    monkeypatch.delenv("CFLAGS")
    monkeypatch.delenv("LDFLAGS")
    env = compile_fast.build_env(compile_fast.PGO_USE)
    assert env["CFLAGS"] == f"{compile_fast.CFLAGS} {compile_fast.PGO_USE}"
    assert "LDFLAGS" not in env


def test_a_missing_compiler_is_not_gcc(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compile_fast.sysconfig, "get_config_var",
                        lambda name: "no-such-compiler-here -pthread")
    assert compile_fast.gcc() is False


def test_the_generated_scripts_are_python() -> None:
    setup = compile_fast.SETUP.format(lines_sha256="ab" * 32)
    ast.parse(setup)
    assert '"' + "ab" * 32 + '"' in setup
    tree = ast.parse(compile_fast.TRAINING)
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                for alias in node.names}
    assert {"fast_compiled", "fast_lines", "ai_seeds"} <= imported
