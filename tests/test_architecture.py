"""The layers hold: no import circle anywhere, the Discord layer never reaches storage but through
the service, and the import contracts of pyproject.toml are kept (lint-imports)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "cogs", "ui", "pictures", "storage", "tools")


def _circles(graph: grimp.ImportGraph) -> list[set[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.find_modules_directly_imported_by(v):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(group)

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return found


def test_no_import_circle_anywhere() -> None:
    graph = grimp.build_graph(*PACKAGES, include_external_packages=False)
    assert _circles(graph) == []


def test_the_discord_layer_never_names_storage() -> None:
    pattern = re.compile(r"service\.db|from storage|import storage")
    hits = [f"{p}:{n}" for package in ("cogs", "ui") for p in (ROOT / package).rglob("*.py")
            for n, line in enumerate(p.read_text().splitlines(), 1) if pattern.search(line)]
    assert hits == []


def test_the_import_contracts_are_kept() -> None:
    run = subprocess.run([str(Path(sys.executable).with_name("lint-imports"))], cwd=ROOT,
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout[-3000:]
    assert "0 broken" in run.stdout
