"""The report's shape, unfinished games, odd objects, and ``python -m bot validate``."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.cli import main
from bot.rules.validate import validate_game, validate_lines, validate_objects
from tools.sim import __main__ as sim_cli

from .conftest import MakeLog
from .logs import ALL_OPTIONS, Obj, fresh, games_of, lines_of, objects, winners_changed


@pytest.fixture(scope="module")
def royale(sim_log: MakeLog) -> list[Obj]:
    return objects(sim_log("royale", 4, games=1, seed=7, expansions=ALL_OPTIONS))


@pytest.fixture(scope="module")
def posing(sim_log: MakeLog) -> list[Obj]:
    return objects(sim_log("posing", 2, games=1, seed=3))


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    command = sim_cli.main if argv[:1] == ("simulate",) else main
    code = command(list(argv), out=out)
    return code, out.getvalue()


def test_report_of_a_valid_game(royale: list[Obj]) -> None:
    g = validate_game(royale[0]["game"], royale)
    assert g.ok and g.kind == "royale" and g.game == royale[0]["game"]


@pytest.mark.parametrize("cut", [1, 2, 40, 77, 150])
def test_unfinished_games(royale: list[Obj], cut: int) -> None:
    """A game stopped at a decision (cancelled, in progress) is valid only when allowed."""
    # Stop where the engine waits for a decision: after the last automatic event.
    decisions = {"mischief", "cannon", "trade", "pick"}
    while royale[cut]["event"] not in decisions:
        cut += 1
    events = royale[:cut]
    strict = validate_objects(events).games[0]
    assert not strict.ok
    assert any("ends before game_end" in p for p in strict.problems)
    lenient = validate_objects(events, allow_unfinished=True).games[0]
    assert lenient.ok, lenient.problems


def test_unfinished_posing_game(posing: list[Obj]) -> None:
    cut = 30
    while posing[cut]["event"] == "roll" and posing[cut]["roll"] == 1:  # automatic
        cut += 1
    events = posing[:cut]
    assert validate_objects(events, allow_unfinished=True).ok
    assert not validate_objects(events).ok


@pytest.mark.parametrize("last", ["score", "game_end"])
def test_a_log_cut_between_automatic_events_is_caught_even_if_unfinished_is_allowed(
        royale: list[Obj], last: str) -> None:
    i = next(i for i, o in enumerate(royale) if o["event"] == last)
    g = validate_objects(royale[:i], allow_unfinished=True).games[0]
    assert any(f"the log ends here, the engine goes on with {last}" in p for p in g.problems)


def test_odd_games(royale: list[Obj], posing: list[Obj]) -> None:
    no_setup = [{**o, "game": "a"} for o in royale[1:5]]
    bad_kind = [{**royale[0], "game": "b", "game_kind": "chess"}]
    int_id = [{**o, "game": 7} for o in posing]
    twice = [*royale, *royale]  # the same game id used for two games
    report = validate_objects([*no_setup, *bad_kind, *int_id, *twice])
    a, b, c, d = report.games
    assert a.kind == "unknown" and "not setup" in a.problems[0]
    assert b.kind == "unknown" and "unknown game_kind 'chess'" in b.problems[0]
    assert c.game == "<7>" and c.problems == ("the game id 7 is not text",)
    assert any("a second setup" in p for p in d.problems)
    assert report.summary() == "validated 4 games (royale 1, posing 1, unknown 2): 4 invalid"


def test_problems_are_capped_per_game(royale: list[Obj]) -> None:
    damaged = fresh(royale)
    for o in damaged:
        if o["event"] == "score":
            o["total"] = str(o["total"])  # a shape problem in each of the 40 score events
    problems = validate_objects(damaged).games[0].problems
    assert len(problems) == 26 and problems[-1].startswith("... and ")


# --------------------------------------------------------------------------- CLI


def test_cli_valid_files(tmp_path: Path, sim_log: MakeLog) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_text("".join(sim_log("royale", 4, games=2, seed=7, expansions=ALL_OPTIONS)))
    b.write_text("".join(sim_log("posing", 2, games=1, seed=3)))
    code, text = run("validate", str(a), str(b))
    assert code == 0
    assert text == "validated 3 games (royale 2, posing 1): all valid\n"


def test_cli_invalid_games_one_line_each(tmp_path: Path, sim_log: MakeLog) -> None:
    objs = objects(sim_log("royale", 4, games=2, seed=7, expansions=ALL_OPTIONS))
    games = list(games_of(objs).values())
    path = tmp_path / "bad.jsonl"
    path.write_text("".join(lines_of(winners_changed(fresh(games[0])))
                            + lines_of(games[1]) + ["{oops\n"]))
    code, text = run("validate", str(path))
    assert code == 1
    lines = text.splitlines()
    assert lines[0].startswith(f"line {len(objs) + 1}: malformed JSON")
    assert lines[1].startswith(f"game {games[0][0]['game']} (royale): event ")
    assert lines[-1] == ("validated 2 games (royale 2, posing 0): 1 invalid, "
                         "1 problem outside any game")
    assert len(lines) == 3
    code, text = run("validate", "-v", str(path))
    assert code == 1 and len(text.splitlines()) == 3 + len(
        validate_objects(winners_changed(fresh(games[0]))).games[0].problems) - 1


def test_cli_unfinished_flag(tmp_path: Path, posing: list[Obj]) -> None:
    path = tmp_path / "open.jsonl"
    cut = 20
    while posing[cut]["event"] == "roll" and posing[cut]["roll"] == 1:  # automatic
        cut += 1
    path.write_text("".join(lines_of(posing[:cut])))
    assert run("validate", str(path))[0] == 1
    assert run("validate", "--allow-unfinished", str(path)) == (
        0, "validated 1 game (royale 0, posing 1): all valid\n")


def test_cli_missing_file(tmp_path: Path) -> None:
    code, text = run("validate", str(tmp_path / "nope.jsonl"))
    assert code == 1 and "cannot read" in text


def test_cli_simulate_then_validate(tmp_path: Path) -> None:
    log = tmp_path / "sim.jsonl"
    assert run("simulate", "--players", "5", "--games", "3", "--seed", "2", "--ai", "random",
               "--expansions", "mischief,cannon,mercenary", "--log", str(log))[0] == 0
    assert run("validate", str(log)) == (0, "validated 3 games (royale 3, posing 0): all valid\n")
    assert validate_lines(log.read_text().splitlines()).ok
