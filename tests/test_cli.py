"""The command lines: demo (the product's), simulate and bench (the developers', tools.sim) print
what they promise and write the log."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from bot import cli
from tools.sim import __main__ as sim_cli


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    main = sim_cli.main if argv[:1] in (("simulate",), ("bench",)) else cli.main
    code = main(list(argv), out=out)
    return code, out.getvalue()


def test_simulate_writes_one_log_per_game(tmp_path: Path) -> None:
    log = tmp_path / "games.jsonl"
    code, text = run("simulate", "--game", "royale", "--players", "3", "--games", "5",
                     "--seed", "11", "--ai", "random", "--log", str(log))
    assert code == 0
    assert text.count("\n") == 1 and text.startswith("royale: 5 games, 3 players")
    objs = [json.loads(line) for line in log.read_text().splitlines()]
    games = {o["game"] for o in objs}
    assert len(games) == 5
    assert sum(o["event"] == "setup" for o in objs) == 5
    assert sum(o["event"] == "game_end" for o in objs) == 5


def test_simulate_same_seed_same_log(tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for path in (a, b):
        run("simulate", "--players", "4", "--games", "3", "--seed", "5",
            "--expansions", "mischief,cannon,mercenary", "--log", str(path))
    assert a.read_bytes() == b.read_bytes()
    assert '"event":"mischief_dealt"' in a.read_text()


def test_simulate_rejects_bad_player_count() -> None:
    code, text = run("simulate", "--players", "11", "--games", "1")
    assert code == 2 and "2 to 10 players" in text


def test_unknown_expansion_is_a_usage_error() -> None:
    with pytest.raises(SystemExit):
        run("simulate", "--expansions", "wild")


def test_demo_prints_ten_rounds_and_standings() -> None:
    code, text = run("demo", "--seed", "3", "--players", "4", "--expansions", "mischief")
    assert code == 0
    for r in range(1, 11):
        assert f"\nRound {r} - Panda token:" in text
    assert "Final standings" in text and "<- winner" in text


def test_run_without_token_explains_and_demos(monkeypatch: pytest.MonkeyPatch,
                                              tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    code, text = run()
    assert code == 0
    assert "No DISCORD_TOKEN is set" in text and "Final standings" in text


def test_sync_without_token_says_so(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    code, _ = run("sync", "--guild", "123")
    assert code == 2
    assert "DISCORD_TOKEN is not set" in capsys.readouterr().err


def test_posing_simulate_and_demo(tmp_path: Path) -> None:
    log = tmp_path / "posing.jsonl"
    code, text = run("simulate", "--game", "posing", "--players", "2", "--games", "3",
                     "--seed", "4", "--ai", "heuristic", "--log", str(log))
    assert code == 0 and text.startswith("posing: 3 games, 2 players")
    code, text = run("validate", str(log))
    assert code == 0 and "all valid" in text
    code, text = run("demo", "--game", "posing", "--players", "2", "--seed", "4")
    assert code == 0 and "Face It" in text


def test_simulate_says_what_its_rate_measures(tmp_path: Path) -> None:
    code, text = run("simulate", "--players", "4", "--games", "2", "--ai", "random")
    assert code == 0 and "games/s (wall-clock rate of the game loop, no log, start-up not " \
                          "counted; " in text
    assert re.search(r"; \d+ games per CPU second of the same loop; 1 process\)", text)
    code, text = run("simulate", "--players", "4", "--games", "8", "--ai", "random",
                     "--jobs", "2")
    assert code == 0 and re.search(r"same loop; 2 processes\)", text)
    log = tmp_path / "g.jsonl"
    code, text = run("simulate", "--players", "4", "--games", "2", "--ai", "random",
                     "--log", str(log))
    assert code == 0 and "log writing included" in text
    assert text.rstrip().split("; decision time")[0].endswith(
        f"log {log} ({len(log.read_text().splitlines())} events)")


def test_simulate_log_over_many_chunks_is_the_engine_log(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The log, written chunk by chunk, is the engine's log game after game."""
    monkeypatch.setattr("tools.sim.chunks.CHUNK", 4)  # 25 games: 7 chunks
    from bot.rules.gamelog import log_lines
    from bot.rules.registry import kind_of
    from bot.sim.runner import play_game

    log = tmp_path / "many.jsonl"
    code, text = run("simulate", "--players", "5", "--games", "25", "--seed", "40",
                     "--ai", "random", "--expansions", "cannon", "--log", str(log))
    assert code == 0
    players = [f"cpu{i + 1}" for i in range(5)]
    want = "".join(
        line for g in range(40, 65)
        for line in log_lines(f"royale-{g}", play_game(
            kind_of("royale"), players, g, ["random"], {"expansions": ["cannon"]}).events))
    assert log.read_text(encoding="utf-8") == want
    assert f"({want.count(chr(10))} events)" in text


def test_bench_prints_every_figure_and_what_it_measured() -> None:
    code, text = run("bench", "--games", "20", "--no-startup")
    assert code == 0
    lines = text.splitlines()
    assert any("the loop of simulate --jobs 1 --ai random, no log, wall clock, start-up not "
               "counted" in li for li in lines)
    # the rules measured, as this process imported them: the source tree's Python here
    heads = [li for li in lines if not li.startswith(" ")]
    assert heads and all("rules: pure Python (" in li for li in heads if "rules:" in li)
    assert sum("rules: " in li for li in heads) == 2
    for n in (4, 10):
        assert sum(li.startswith(f"  royale {n:>2} random players: ") and "games/s" in li
                   for li in lines) == 1
    for game in ("royale", "posing"):
        for ai in ("random", "heuristic"):
            assert sum(li.startswith(f"  {game} {ai} ") and "decisions/s" in li
                       for li in lines) == 1
    # the engine loop figures are still there, one per configuration
    assert sum("players heuristic options" in li and "games/s" in li for li in lines) == 6
    assert not any(li.startswith(("start-up:", "whole process:")) for li in lines)


def test_bench_startup_figure_is_a_whole_process() -> None:
    from tools.sim.bench import startup_seconds

    whole, bare = startup_seconds(runs=1)
    assert whole > bare > 0


def test_bench_whole_process_figure_is_the_child_process_wall_clock() -> None:
    from tools.sim.bench import whole_process_pairs

    # a child process's wall clock: at least an interpreter start, which is not nothing
    for jobs in (None, 1):
        [(plain, logged)] = whole_process_pairs(3, 4, jobs=jobs, runs=1)
        assert plain > 0.05 and logged > 0.05


def test_bench_whole_process_line_gives_medians_and_the_spread_of_the_pairs() -> None:
    from tools.sim.bench import whole_process_line

    # (wall s without, wall s with the log): adds 20 %, 50 %, 10 %
    pairs = [(1.0, 1.2), (2.0, 3.0), (1.0, 1.1)]
    line = whole_process_line(4, 1000, "--jobs 1", pairs)
    assert line.startswith("  royale  4 random players, --jobs 1: ")
    assert "1000 games/s without the log" in line  # median 1.0 s for 1,000 games
    assert "833 with --log" in line  # median 1.2 s
    assert "adds 20 %, median of the pairs, 10 to 50 % across them" in line


def test_simulate_takes_levels_and_expert_names_and_prints_decision_times() -> None:
    code, text = run("simulate", "--players", "4", "--games", "1", "--seed", "3",
                     "--ai", "expert,heuristic,heuristic,heuristic")
    assert code == 0 and text.count("\n") == 1
    assert "expert mean" in text and "heuristic mean" in text and " ms p99 " in text
    code, text = run("simulate", "--players", "4", "--games", "1", "--seed", "3",
                     "--ai", "hard,normal,normal,normal")
    assert code == 0 and "hard mean" in text and "normal mean" in text


def test_posing_simulate_takes_levels() -> None:
    code, text = run("simulate", "--game", "posing", "--players", "2", "--games", "2",
                     "--ai", "hard,easy")
    assert code == 0 and "hard mean" in text and "easy mean" in text
    code, text = run("simulate", "--game", "posing", "--players", "1", "--games", "1",
                     "--ai", "optimal")
    assert code == 0 and text.startswith("posing: 1 games, 1 players")


def test_simulate_rejects_a_player_of_the_other_game() -> None:
    code, text = run("simulate", "--games", "1", "--ai", "optimal")
    assert code == 2 and "--ai for royale takes" in text
    code, text = run("simulate", "--game", "posing", "--games", "1", "--ai", "expert")
    assert code == 2 and "--ai for posing takes" in text
    with pytest.raises(SystemExit) as exited:  # argparse refuses it: exit 2, one line
        run("simulate", "--ai", "genius")
    assert exited.value.code == 2
