"""The layers and concepts hold: no import circle anywhere, the Discord layer never reaches storage
but through the service, the import contracts of pyproject.toml are kept (lint-imports), the rules
engines are pure, each kind has one engine reached through the registry, SQL lives in storage/,
and a click's path through the Discord layer stays short. Modules are split by concept, so no
check counts their lines."""

from __future__ import annotations

import ast
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

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


def _imports(path: Path) -> set[str]:
    """The modules a source file imports (absolute imports, by their full name)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.update(f"{node.module}.{a.name}" for a in node.names)
    return found


CLOCK_AND_IO = ("time", "datetime", "os", "io", "pathlib", "socket", "asyncio", "threading",
                "subprocess", "sqlite3", "logging", "aiohttp", "aiosqlite", "asyncpg")
"""Modules that read a clock or do I/O: never in the rules engines."""


def test_the_rules_engines_have_no_clock_no_io_and_no_shared_random() -> None:
    hits = {}
    for path in (ROOT / "bot" / "rules").rglob("*.py"):
        bad = sorted(m for m in _imports(path)
                     if m.split(".")[0] in CLOCK_AND_IO or m == "random"
                     or (m.startswith("random.") and m != "random.Random"))
        if bad:
            hits[str(path.relative_to(ROOT))] = bad
    # everything random comes from the generator in the game state (bot/rules/rng.py)
    assert hits == {}


def test_one_engine_per_kind_reached_through_the_registry() -> None:
    """A kind's own rules (``bot.rules.<kind>``) are reached by the service, the bot and the
    shared Discord building blocks only through the registry's :class:`GameKind` (its one
    engine); outside the rules only the kind's own cog, its demo, the pictures and the developer
    tools use them.
    """
    from bot.rules.registry import KINDS

    graph = grimp.build_graph(*PACKAGES, include_external_packages=False)
    for name, kind in KINDS.items():
        assert kind.engine is not None and kind.engine.kind == name
        package = f"bot.rules.{name}"
        users = {m for target in graph.find_children(package) | {package}
                 if target in graph.modules
                 for m in graph.find_modules_that_directly_import(target)
                 if not f"{m}.".startswith(("bot.rules.", "bot.sim.", "pictures.",
                                            f"cogs.{name}.", "tools."))}
        assert users == set(), (name, users)


SQL = re.compile(r"\b(SELECT\s+\S+.*\bFROM|INSERT\s+INTO|DELETE\s+FROM|UPDATE\s+\w+\s+SET|"
                 r"CREATE\s+(TABLE|INDEX)|ALTER\s+TABLE|DROP\s+TABLE)\b")


def test_sql_lives_in_storage_only() -> None:
    hits = [f"{p.relative_to(ROOT)}:{n}"
            for package in ("bot", "cogs", "ui", "pictures")
            for p in (ROOT / package).rglob("*.py")
            for n, line in enumerate(p.read_text().splitlines(), 1) if SQL.search(line)]
    assert hits == []


def _layer_path() -> list[str]:
    """The Discord layer's calls (``module:function``) on the stack now, outermost first."""
    path = []
    frame = sys._getframe(2)
    while frame is not None:
        file = Path(frame.f_code.co_filename)
        if file.is_relative_to(ROOT / "ui") or file.is_relative_to(ROOT / "cogs"):
            module = ".".join(file.relative_to(ROOT).with_suffix("").parts)
            path.append(f"{module}:{frame.f_code.co_name}")
        frame = frame.f_back  # type: ignore[assignment]
    return path[::-1]


MOST_CALLS_TO_THE_SERVICE = 2
"""A click's item, then its verb: nothing dispatches in between."""
MOST_CALLS_TO_THE_BOARD = 3
"""The item, its verb, the kind's presenter: then the board's edit."""


async def test_a_click_path_stays_short(tmp_path: Path) -> None:
    """A decision goes from discord.py straight to its item (ui/items.py), to the kind's verb,
    to the service; the kind's presenter shows the outcome on the game's board (ui/board.py):
    no layer of dispatchers, routers or wrappers in between.
    """
    from tools.benchbot.simworld import World

    world = World(tmp_path)
    async with world.running():
        [table] = await world.open_games(1, 2)
        bot = world.bot
        seen: dict[str, list[str]] = {}
        act, edit = bot.service.act, bot.boards.edit

        async def traced_act(*args: Any, **kwargs: Any) -> Any:
            seen.setdefault("service", _layer_path())
            return await act(*args, **kwargs)

        async def traced_edit(*args: Any, **kwargs: Any) -> Any:
            seen.setdefault("board", _layer_path())
            return await edit(*args, **kwargs)

        bot.service.act = traced_act  # type: ignore[method-assign]
        bot.boards.edit = traced_edit  # type: ignore[method-assign]
        move = table.next_move(random.Random(1))
        assert move is not None and move.verb == "pick"
        await world.burst_checked([move])
    service, board = seen["service"], seen["board"]
    assert service[0] == "ui.items:callback", service
    assert len(service) <= MOST_CALLS_TO_THE_SERVICE, service
    assert board[:len(service)] == service, (service, board)
    assert len(board) <= MOST_CALLS_TO_THE_BOARD, board
