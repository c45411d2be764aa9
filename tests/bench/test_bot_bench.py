"""Smoke test of the bot benchmarks (tools/benchbot/bot_bench.py) in a tiny configuration: every
benchmark runs and produces sane figures. Timings are never asserted."""

from __future__ import annotations

import asyncio
import io
import math

from tools.benchbot.bot_bench import main
from tools.benchbot.bot_runs import Results, run_benchmarks
from tools.benchbot.options import Options

TINY = Options(which=("latency", "rest", "memory", "startup", "new", "finished", "ratelimit",
                      "profile"), games=2, resident=2, traced=1, players=3, samples=8,
               decisions=2, bursts=1, profile_decisions=4, new_samples=5, elsewhere=300,
               finished=12, people_games=2, rl_games=2, rl_moves=6)


def test_every_benchmark_produces_sane_figures() -> None:
    out = io.StringIO()
    results: Results = asyncio.run(run_benchmarks(TINY, out))
    text = out.getvalue()
    assert results.errors_logged == 0, text

    assert [r.games for r in results.latency] == [1, 2]
    for run in results.latency:
        for dist in (run.answer, run.click, run.click_answer, run.last):
            assert dist.n > 0, (run.label, dist.name)
            assert all(x > 0 for x in dist.samples)
            assert dist.p99 >= dist.median
        assert run.answer_plain.n + run.answer_sheet.n == run.answer.n
        assert sum(d.n for d in run.by_verb.values()) == run.answer.n
    burst = results.latency[1].burst
    assert burst is not None and burst.n == 2 and burst.p99 >= burst.median

    assert len(results.rest) == 2
    for rest in results.rest:
        assert rest.decisions > 0 and rest.total > rest.decisions
        assert rest.per_decision > 0 and not math.isnan(rest.per_decision)
        callbacks = sum(n for k, n in rest.by_kind.items() if k.startswith("interaction callback"))
        assert callbacks == rest.interactions  # every interaction answered exactly once
        assert 0 < rest.in_play < rest.total

    mem = results.memory
    assert mem is not None and mem.games == 2
    assert mem.rss_before_kb > 0 and mem.rss_after_kb > 0
    assert sum(mem.traced.values()) > 0 and mem.bot_traced_per_game > 0
    assert mem.held_per_game > 0 and mem.top
    assert mem.caches["turn timers"] == mem.caches["service cache (open games)"] > 0

    up = results.startup
    assert up is not None and len(up.restarts) == 3 and all(t > 0 for t in up.restarts)
    assert up.timers == up.active > 0
    assert up.restore_alone and up.open_games_query and up.first_click > 0

    new = results.new_lobby
    assert new is not None and new.alone.n == new.crowded.n == 5
    for dist in (new.alone, new.crowded):
        assert all(x > 0 for x in dist.samples) and dist.p99 >= dist.median
    assert new.open_games_after >= 300 and new.seeded_s > 0  # the other servers' games were there

    fin = results.finished
    assert fin is not None and fin.games == 12 and fin.people_games == 2
    assert set(fin.end.values()) == {0}, fin.end  # every per-game structure let go
    for used in ("service.store.cache", "service.deadlines", "messages.boards",
                 "messages.pings"):
        assert fin.busiest[used] >= 1, (used, fin.busiest)  # ... after holding the games
    assert fin.rss_start_kb > 0 and fin.rss_end_kb > 0 and not math.isnan(fin.rss_per_game_kb)
    assert fin.caches and all(c.bytes <= c.budget for c in fin.caches)
    assert sum(c.entries for c in fin.caches) > 0  # the people's games drew pictures

    assert len(results.ratelimit) == 3
    for run in results.ratelimit:
        assert run.seconds and all(s >= 0 for s in run.seconds), run
        assert run.requests > 0 and run.pct(95) >= run.pct(50) >= 0
    assert results.ratelimit[0].games == 2

    assert "hot path" in results.profile and "our code" in results.profile
    for heading in ("Latency, 1 game", "REST requests", "Memory with", "Start-up with",
                    "/royale new: dispatch", "Memory after 12 finished games",
                    "The board under Discord's message limit"):
        assert heading in text


def test_command_line() -> None:
    out = io.StringIO()
    assert main(["--which", "rest", "--players", "2"], out=out) == 0
    assert "requests per decision" in out.getvalue()
    assert main(["--players", "1"], out=io.StringIO()) == 2
    assert main(["--finished", "0"], out=io.StringIO()) == 2
    assert main(["--people-games", "30", "--finished", "20"], out=io.StringIO()) == 2
    assert main(["--which", "new", "--new-samples", "2", "--elsewhere", "10"], out=out) == 0
    assert "10 open games elsewhere" in out.getvalue()


def test_the_command_line_module_is_light() -> None:
    """``./dev bench-bot`` parses its options without SimCord (a dev dependency)."""
    import subprocess
    import sys

    code = ("import sys, tools.benchbot.bot_bench as b; b.build_parser(); "
            "sys.exit(any(m.startswith(('simcord', 'discord')) for m in sys.modules))")
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_the_latency_benchmark_on_postgresql(pg_cluster) -> None:  # type: ignore[no-untyped-def]
    """``--backend postgres``: the bot keeps its games in PostgreSQL; the figures print."""
    import dataclasses

    # a URL with its own query: the benchmark adds its schema to it, not a second "?"
    opts = dataclasses.replace(TINY, which=("latency", "new"), backend="postgres",
                               postgres_url=pg_cluster.url() + "?application_name=panda_bench")
    out = io.StringIO()
    results: Results = asyncio.run(run_benchmarks(opts, out))
    text = out.getvalue()
    assert results.errors_logged == 0, text
    assert text.startswith("Backend: postgres")
    assert [r.games for r in results.latency] == [1, 2]
    assert all(run.answer.n > 0 for run in results.latency)
    assert results.new_lobby is not None and results.new_lobby.open_games_after >= 300

    async def games_in_postgres() -> int:
        import asyncpg

        conn = await asyncpg.connect(pg_cluster.url())
        try:
            schemas = await conn.fetch("SELECT schema_name FROM information_schema.schemata "
                                       "WHERE schema_name LIKE 'bench_%'")
            return sum([await conn.fetchval(f'SELECT count(*) FROM "{r[0]}".games')
                        for r in schemas])
        finally:
            await conn.close()

    assert asyncio.run(games_in_postgres()) >= 3  # the benchmark's games are in PostgreSQL


def test_a_schema_is_added_to_the_query_of_a_server_url() -> None:
    from tests.conftest import with_search_path

    assert with_search_path("postgresql://u@h:5/db", "s1") == "postgresql://u@h:5/db?search_path=s1"
    assert (with_search_path("postgresql://u@h/db?sslmode=disable&search_path=old", "s2")
            == "postgresql://u@h/db?sslmode=disable&search_path=s2")
