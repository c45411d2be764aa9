"""Smoke test of the bot benchmarks (tools/benchbot/bot_bench.py) in a tiny configuration: every
benchmark runs and produces sane figures. Timings are never asserted."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import io
import math
from collections import Counter

import pytest

from tools.benchbot.bot_bench import main, rest_tables, scale_backends
from tools.benchbot.bot_runs import Results, run_benchmarks
from tools.benchbot.latency import route_template
from tools.benchbot.options import Options
from tools.benchbot.rest import RestRun

CALLBACK = "POST /interactions/{interaction.id}/{interaction.token}/callback"
THREAD = "POST /channels/{channel.id}/messages/{message.id}/threads"

TINY = Options(which=("latency", "rest", "scale", "memory", "startup", "new", "finished",
                      "ratelimit", "profile"), games=2, resident=2, traced=1, players=3,
               samples=8, decisions=2, bursts=1, profile_decisions=4, new_samples=5,
               elsewhere=300, finished=12, people_games=2, rl_games=2, rl_moves=6,
               rest_tables=((3, False, False, False), (3, True, True, False),
                            (2, False, False, True)), scale_games=3,
               scale_samples=4, scale_rounds=2, scale_backends=("sqlite",))


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

    base, thread, slow = results.rest
    assert (base.players, base.mayhem, base.thread) == (3, False, False)
    assert (thread.players, thread.mayhem, thread.thread) == (3, True, True)
    for rest in results.rest:
        assert rest.decisions > 0 and rest.interactions > rest.decisions
        assert rest.exempt_per_decision > 1  # at least the callback of each decision
        # every interaction answered exactly once, through its callback
        assert rest.exempt[CALLBACK] == rest.interactions, rest.exempt
        assert rest.pings > rest.decisions // 2  # the hand-overs ping the next player
        assert not set(rest.counted) & set(rest.exempt)
    # a game in a channel goes through its interactions alone (at most 0.1 a
    # decision); the thread's opening and first board use the bot token
    assert base.global_per_decision <= 0.1, base.counted
    assert base.sustained_games() > 1_000
    assert thread.counted[THREAD] == 1 and thread.global_total > 1, thread.counted
    assert thread.sustained_games() == pytest.approx(
        50 * 5 / thread.global_per_decision)
    # a slow game over days: its reminders, and the tidying of pings whose interaction
    # expired hours ago, are its only bot-token requests
    assert slow.slow and slow.reminders >= 1, slow.counted
    assert set(slow.counted) == {"POST /channels/{channel.id}/messages",
                                 "DELETE /channels/{channel.id}/messages/{message.id}"}
    assert slow.counted["POST /channels/{channel.id}/messages"] == slow.reminders

    [scale] = results.scale
    assert scale.backend == "sqlite" and scale.games == 3 and scale.errors == []
    assert scale.alone_answered.n == scale.alone_shown.n == 4
    assert scale.paced_answered.n == scale.paced_shown.n == 6  # 2 rounds of each game
    assert scale.spread == TINY.scale_spread == 8  # the games first spread over a round
    for answered, shown in ((scale.alone_answered, scale.alone_shown),
                            (scale.paced_answered, scale.paced_shown)):
        # the answer comes first or is the move itself (its edit, after its commit)
        assert all(0 < a <= b for a, b in zip(answered.samples, shown.samples, strict=True))
    assert scale.paced_rate > 0 and scale.paced_throughput > 0 and scale.opened_s > 0
    assert scale.alone_cpu_ms > 0 and len(scale.load) == 2
    assert {"SimCord", "our code", "discord.py"} <= set(scale.cpu_by_part), scale.cpu_by_part
    assert 0 < scale.rss_before_kb <= scale.peak_rss_kb and scale.held_per_game > 0

    mem = results.memory
    assert mem is not None and mem.games == 2
    assert mem.rss_before_kb > 0 and mem.rss_after_kb > 0
    assert sum(mem.traced.values()) > 0 and mem.bot_traced_per_game > 0
    assert mem.held_per_game > 0 and mem.top
    assert mem.caches["service deadlines"] == mem.caches["service cached games"] > 0

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
    for used in ("service cached games", "service deadlines", "boards.boards",
                 "boards.pings"):
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
    for heading in ("Latency, 1 game", "REST requests", "3 games in progress, sqlite",
                    "Memory with", "Start-up with",
                    "/royale new: dispatch", "Memory after 12 finished games",
                    "The board under Discord's message limit"):
        assert heading in text


def test_command_line() -> None:
    out = io.StringIO()
    assert main(["--which", "rest", "--rest-tables", "2"], out=out) == 0
    assert "2 people, base game: " in out.getvalue()
    assert "counted against the global limit (bot token): 0 = 0.000 per decision" \
        in out.getvalue()
    assert main(["--scale-games", "0"], out=io.StringIO()) == 2
    assert main(["--scale-spread", "-1"], out=io.StringIO()) == 2
    assert main(["--players", "1"], out=io.StringIO()) == 2
    assert main(["--finished", "0"], out=io.StringIO()) == 2
    assert main(["--people-games", "30", "--finished", "20"], out=io.StringIO()) == 2
    assert main(["--which", "new", "--new-samples", "2", "--elsewhere", "10"], out=out) == 0
    assert "10 open games elsewhere" in out.getvalue()


def test_the_games_of_the_rest_benchmark_on_the_command_line() -> None:
    assert rest_tables("4,10:mayhem,4:thread,3:thread:mayhem,4:slow") == (
        (4, False, False, False), (10, True, False, False), (4, False, True, False),
        (3, True, True, False), (4, False, False, True))
    for bad in ("1", "11", "4:fast", "four", ""):
        with pytest.raises(argparse.ArgumentTypeError):
            rest_tables(bad)
    assert scale_backends("postgres") == ("postgres",)
    with pytest.raises(argparse.ArgumentTypeError):
        scale_backends("mysql")


@pytest.mark.parametrize(("method", "path", "route"), [
    ("POST", "/interactions/123456789012/tok.En_1/callback",
     "POST /interactions/{interaction.id}/{interaction.token}/callback"),
    ("POST", "/webhooks/42/tok", "POST /webhooks/{application.id}/{interaction.token}"),
    ("PATCH", "/webhooks/42/tok/messages/@original",
     "PATCH /webhooks/{application.id}/{interaction.token}/messages/@original"),
    ("DELETE", "/webhooks/42/tok/messages/99",
     "DELETE /webhooks/{application.id}/{interaction.token}/messages/{message.id}"),
    ("POST", "/webhooks/43/tok", "POST /webhooks/{webhook.id}/{webhook.token}"),
    ("POST", "/channels/7/messages", "POST /channels/{channel.id}/messages"),
    ("POST", "/channels/7/messages/8/threads",
     "POST /channels/{channel.id}/messages/{message.id}/threads"),
    ("GET", "/users/@me", "GET /users/@me"),
])
def test_routes_are_counted_by_their_template(method: str, path: str, route: str) -> None:
    assert route_template(method, path, application_id=42) == route


def test_the_games_one_token_sustains() -> None:
    """50 requests a second for the bot, a decision every 5 s per game: the issue's 1.48
    bot-token requests per decision kept about 170 games going."""
    run = RestRun(4, False, False, False, decisions=73, interactions=78,
                  counted=Counter({"POST /channels/{channel.id}/messages": 58,
                                   "DELETE /channels/{channel.id}/messages/{message.id}": 50}),
                  exempt=Counter(), pings=50, share=1.0)
    assert run.global_per_decision == pytest.approx(1.48, abs=0.005)
    assert round(run.sustained_games()) == 169
    assert round(dataclasses.replace(run, share=0.5).sustained_games()) == 84
    assert dataclasses.replace(run, counted=Counter()).sustained_games() == math.inf


def test_the_command_line_module_is_light() -> None:
    """``./dev bench-bot`` parses its options without SimCord (a dev dependency)."""
    import subprocess
    import sys

    code = ("import sys, tools.benchbot.bot_bench as b; b.build_parser(); "
            "sys.exit(any(m.startswith(('simcord', 'discord')) for m in sys.modules))")
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_the_latency_benchmark_on_postgresql(pg_cluster) -> None:  # type: ignore[no-untyped-def]
    """``--backend postgres``: the bot keeps its games in PostgreSQL; the figures print (the
    scale benchmark's too, in its own process, on the same server)."""
    # a URL with its own query: the benchmark adds its schema to it, not a second "?"
    opts = dataclasses.replace(TINY, which=("latency", "new", "scale"), backend="postgres",
                               postgres_url=pg_cluster.url() + "?application_name=panda_bench",
                               scale_backends=("postgres",))
    out = io.StringIO()
    results: Results = asyncio.run(run_benchmarks(opts, out))
    text = out.getvalue()
    assert results.errors_logged == 0, text
    assert text.startswith("Backend: postgres")
    assert [r.games for r in results.latency] == [1, 2]
    assert all(run.answer.n > 0 for run in results.latency)
    assert results.new_lobby is not None and results.new_lobby.open_games_after >= 300
    [scale] = results.scale
    assert scale.backend == "postgres" and scale.errors == [] and scale.alone_shown.n == 4
    assert "3 games in progress, postgres" in text

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
