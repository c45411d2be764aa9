"""Group a game log by game and check each game: the shape of its events, then its replay."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import Any

# The module, not its names: the registry imports each kind's log checks from this package.
from bot.rules import registry
from bot.rules.validate.problems import Problems
from bot.rules.validate.replay import replay
from bot.rules.validate.report import GameReport, ValidationReport
from bot.rules.validate.shape import PLAYERS, shape_problem

_CHECK_ERRORS = (KeyError, TypeError, ValueError, IndexError, AttributeError)


def validate_objects(
    objs: Iterable[dict[str, Any]], *, allow_unfinished: bool = False
) -> ValidationReport:
    """Validate log objects (parsed JSON), grouped by their ``"game"`` in order of appearance.

    ``allow_unfinished``: a game whose log stops before ``game_end`` (in progress, cancelled)
    is valid if everything it logs is; by default the missing end is a problem.
    """
    return _validate(((None, obj) for obj in objs), [], allow_unfinished)


def validate_lines(lines: Iterable[str], *, allow_unfinished: bool = False) -> ValidationReport:
    """Validate JSON Lines text (:func:`validate_objects`); malformed lines are problems of
    the file (blank lines are skipped). Problems name each event's line number (1-based).
    """
    problems: list[str] = []

    def parsed() -> Iterator[tuple[int, Any]]:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                yield number, json.loads(line)
            except json.JSONDecodeError as exc:
                problems.append(f"line {number}: malformed JSON ({exc.msg}, column "
                                f"{exc.colno})")
            except RecursionError:
                problems.append(f"line {number}: malformed JSON (nested too deeply)")

    return _validate(parsed(), problems, allow_unfinished)


class _Group:
    """The events of one game while the log is read; validated at its ``game_end``."""

    __slots__ = ("count", "late", "lines", "notes", "objs", "report")

    def __init__(self, notes: list[str]) -> None:
        self.lines: list[int | None] = []
        self.objs: list[dict[str, Any]] = []
        self.notes = notes
        self.count = 0  # events seen, late ones included
        self.report: GameReport | None = None
        self.late: list[tuple[int, int | None, Any]] = []  # after game_end: index, line, name


def _validate(
    entries: Iterable[tuple[int | None, Any]], problems: list[str], allow_unfinished: bool
) -> ValidationReport:
    # Each game is checked as soon as its game_end is read and its events dropped, so a big
    # file needs the memory of its unfinished games only.
    games: dict[str, _Group] = {}
    for i, (line, obj) in enumerate(entries):
        where = f"line {line}" if line is not None else f"object {i + 1}"
        if not isinstance(obj, dict):
            problems.append(f"{where}: not a JSON object")
            continue
        gid = obj.get("game")
        if gid is None:
            problems.append(f"{where}: no \"game\" key")
            continue
        if not isinstance(gid, str):
            key = f"<{json.dumps(gid)}>"
            group = games.get(key) or games.setdefault(
                key, _Group([f"the game id {json.dumps(gid)} is not text"]))
        else:
            key = gid
            group = games.get(key) or games.setdefault(key, _Group([]))
        if group.report is not None:
            group.late.append((group.count, line, obj.get("event")))
        else:
            group.lines.append(line)
            group.objs.append(obj)
            if obj.get("event") == "game_end":
                group.report = validate_game(key, group.objs, group.lines, allow_unfinished,
                                             notes=group.notes)
                group.objs, group.lines = [], []
        group.count += 1
    reports = []
    for key, group in games.items():
        report = group.report or validate_game(key, group.objs, group.lines,
                                               allow_unfinished, notes=group.notes)
        if group.late:
            report = replace(report, problems=(*report.problems, _late(group.late)))
        reports.append(report)
    return ValidationReport(tuple(reports), tuple(problems))


def _late(late: list[tuple[int, int | None, Any]]) -> str:
    index, line, name = late[0]
    where = f"event {index}" + (f" (line {line})" if line is not None else "")
    if name == "setup":
        return (f"{where}: a second setup: the game id is used for two games (it must be "
                f"unique in the file); the {len(late)} events from here are not checked")
    return f"{where}: {len(late)} event(s) after game_end"


def validate_game(
    game: str,
    events: list[dict[str, Any]],
    lines: list[int | None] | None = None,
    allow_unfinished: bool = False,
    *,
    notes: Iterable[str] = (),
) -> GameReport:
    """Check the events of one game, in log order (``events[0]`` should be setup)."""
    p = Problems(lines if lines is not None else [None] * len(events))
    for note in notes:
        p.add(None, note)

    def report(kind: str) -> GameReport:
        return GameReport(game, kind, p.result())

    if not events:
        p.add(None, "the game has no events")
        return report("unknown")
    setup = events[0]
    kind = setup.get("game_kind")
    if setup.get("event") != "setup":
        p.add(0, f"the game starts with {setup.get('event')!r}, not setup")
        return report("unknown")
    entry = registry.KINDS.get(kind) if isinstance(kind, str) else None
    if entry is None:
        p.add(0, f"unknown game_kind {kind!r}")
        return report("unknown")
    schema = entry.log_checks.schema
    players: list[str] = setup.get("players") or []
    err = PLAYERS(players, []) or shape_problem(setup, schema, players)
    if err:
        p.add(0, err)
        return report(entry.name)
    for k, obj in enumerate(events[1:], 1):
        err = shape_problem(obj, schema, players)
        if err:
            p.add(k, err)
    try:
        replay(setup.get("game", game), entry, events, p)
    except _CHECK_ERRORS as exc:  # a log too damaged for the engine's readers
        p.add(None, f"replay: stopped on damaged data ({type(exc).__name__}: {exc})")
    if events[-1].get("event") != "game_end" and not allow_unfinished:
        p.add(len(events) - 1, "the log ends before game_end (an unfinished or truncated game)")
    return report(entry.name)
