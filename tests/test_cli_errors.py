"""Every failure a newcomer or an operator can cause ends in one or two plain lines, exit code 2
for a usage error and 1 at run time, never a traceback.

Most cases run in-process through ``bot.cli.main``; a few run ``python -m bot`` in a subprocess
to see exactly what a terminal shows. Discord is either a closed port on the loopback address
(unreachable) or a tiny local HTTP server that answers 401 (a rejected token).
"""

from __future__ import annotations

import base64
import io
import os
import re
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import discord
import pytest
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot import cli
from bot.app import discord_problem
from bot.health import check_health, write_heartbeat
from bot.invite import application_id_from_token, invite_url, permissions, user_install_url
from storage import preflight
from tools.sim import __main__ as sim_cli

ROOT = Path(__file__).resolve().parents[1]
APP_ID = 123456789012345678
TOKEN = base64.b64encode(str(APP_ID).encode()).decode().rstrip("=") + ".fake-part.fake-hmac"
UNREACHABLE = "http://127.0.0.1:9/api/v10"  # the discard port: nothing listens there
SETTINGS = ("DISCORD_TOKEN", "DATABASE_PATH", "DEV_GUILD_ID", "LOG_LEVEL", "DISCORD_API_BASE_URL",
            "DISCORD_GATEWAY_URL", "DEFAULT_TURN_TIMEOUT", "DISCORD_APPLICATION_ID", "HEALTH_FILE",
            "DATABASE_URL", "SHARD_COUNT", "SHARD_IDS", "METRICS_PORT", "MEMBERS_INTENT",
            "LOBBY_TTL", "GUILD_OPEN_GAMES", "GLOBAL_RATE_SHARE", "GUILD_RETENTION_DAYS")
HELP = "Run './dev {}' for the options.\n"


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No .env, no setting from the environment, messages name ./dev, endpoints restored."""
    monkeypatch.chdir(tmp_path)
    for key in SETTINGS:
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setattr(cli, "PROG", "./dev")
    monkeypatch.setenv("PANDA_PROG", "./dev")
    monkeypatch.setattr(Route, "BASE", Route.BASE)
    monkeypatch.setattr(DiscordWebSocket, "DEFAULT_GATEWAY", DiscordWebSocket.DEFAULT_GATEWAY)


def call(*argv: str) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of one command in-process; no traceback anywhere."""
    out, err = io.StringIO(), io.StringIO()
    try:
        main = sim_cli.main if argv[:1] in (("simulate",), ("bench",)) else cli.main
        code = main(list(argv), out=out, err=err)
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    assert "Traceback" not in out.getvalue() + err.getvalue()
    return code, out.getvalue(), err.getvalue()


def usage(command: str, message: str) -> str:
    return f"./dev {command}: {message}\n" + HELP.format(f"{command} --help")


# ---------------------------------------------------------------------- usage errors: exit 2

USAGE_CASES: list[tuple[list[str], str]] = [
    (["demo", "--players", "1"],
     usage("demo", "--players: Panda Royale is for 2 to 10 players (got 1)")),
    (["demo", "--players", "11"],
     usage("demo", "--players: Panda Royale is for 2 to 10 players (got 11)")),
    (["demo", "--players", "0"],
     usage("demo", "--players: Panda Royale is for 2 to 10 players (got 0)")),
    (["demo", "--game", "posing", "--players", "0"],
     usage("demo", "--players: Posing Pandas is for 1 to 10 players (got 0)")),
    (["demo", "--game", "posing", "--players", "11"],
     usage("demo", "--players: Posing Pandas is for 1 to 10 players (got 11)")),
    (["simulate", "--players", "1", "--games", "1"],
     usage("simulate", "--players: Panda Royale is for 2 to 10 players (got 1)")),
    (["simulate", "--game", "posing", "--players", "11", "--games", "1"],
     usage("simulate", "--players: Posing Pandas is for 1 to 10 players (got 11)")),
    (["demo", "--players", "x"], usage("demo", "--players takes a whole number (got 'x')")),
    (["demo", "--expansions", "wild"],
     usage("demo", "--expansions takes any of mischief,cannon,mercenary (or none), "
                   "comma-separated (got wild)")),
    (["simulate", "--expansions", "mischief,wild"],
     usage("simulate", "--expansions takes any of mischief,cannon,mercenary (or none), "
                       "comma-separated (got wild)")),
    (["demo", "--game", "posing", "--expansions", "cannon"],
     usage("demo", "--expansions is for --game royale only (Posing Pandas has none)")),
    (["simulate", "--ai", "clever"],
     usage("simulate", "--ai takes easy or normal or hard or random or heuristic or expert or "
                       "optimal, or one per seat comma-separated like heuristic,random "
                       "(got clever)")),
    (["demo", "--ai", "random,heuristic"],
     usage("demo", "--ai names 2 computer players for 4 seats: give one name for every seat, "
                   "or a single name for all of them")),
    (["simulate", "--players", "3", "--ai", "random,random,random,heuristic", "--games", "1"],
     usage("simulate", "--ai names 4 computer players for 3 seats: give one name for every "
                       "seat, or a single name for all of them")),
    (["simulate", "--games", "-1"],
     usage("simulate", "--games takes a whole number of 0 or more (got '-1')")),
    (["simulate", "--game", "chess"],
     usage("simulate", "--game takes royale or posing (got 'chess')")),
    (["bench", "--games", "0"],
     usage("bench", "--games takes a whole number of 1 or more (got '0')")),
    (["demo", "--seed", "soon"],
     usage("demo", "--seed takes a whole number of 0 or more (got 'soon')")),
    (["sync", "--guild", "my-server"],
     usage("sync", "--guild takes a whole number of 1 or more (got 'my-server')")),
    (["validate"], usage("validate", "the following arguments are required: FILE.jsonl")),
    (["help", "dance"],
     usage("help", "no command 'dance': choose from run, sync, invite, demo, validate, health, "
                   "help, forget-user, db")),
    (["dance"], "./dev: unknown command 'dance'\nRun './dev help' for the list of commands.\n"),
]


@pytest.mark.parametrize(("argv", "message"), USAGE_CASES,
                         ids=[" ".join(a) for a, _ in USAGE_CASES])
def test_usage_errors(argv: list[str], message: str) -> None:
    code, out, err = call(*argv)
    assert (code, err, out) == (2, message, "")


def test_sync_without_token_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, _ = call("sync")
    assert code == 2
    assert capsys.readouterr().err == (
        "DISCORD_TOKEN is not set: nothing to sync with. Put the bot's token in .env (see ./dev "
        "run's instructions), then ./dev sync.\n")


# ---------------------------------------------------------------------- settings: exit 1


def bad_setting(name: str, requirement: str, got: str | None) -> str:
    shown = f" (got {got})" if got is not None else ""
    return f"{name} {requirement}{shown}; fix it in .env or the environment\n"


SETTING_CASES: list[tuple[str, str, str]] = [
    ("DISCORD_TOKEN", "not a token",
     bad_setting("DISCORD_TOKEN", "must be the bot token from https://discord.com/developers/"
                 "applications (Bot > Reset Token): three parts separated by dots, no spaces",
                 None)),
    ("DATABASE_PATH", "", bad_setting(
        "DATABASE_PATH", "must be the path of the SQLite database file, e.g. panda_royale.db",
        "''")),
    ("DEV_GUILD_ID", "my-server", bad_setting(
        "DEV_GUILD_ID", "must be a server (guild) id, a whole number like 123456789012345678 "
        "(right-click the server > Copy Server ID), or empty", "'my-server'")),
    ("LOG_LEVEL", "LOUD", bad_setting(
        "LOG_LEVEL", "must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL", "'LOUD'")),
    ("DISCORD_API_BASE_URL", "discord.com/api", bad_setting(
        "DISCORD_API_BASE_URL", "must be an http:// or https:// URL such as "
        "http://127.0.0.1:8080/api/v10, or empty", "'discord.com/api'")),
    ("DISCORD_GATEWAY_URL", "http://127.0.0.1:8080/gateway", bad_setting(
        "DISCORD_GATEWAY_URL", "must be a ws:// or wss:// URL such as "
        "ws://127.0.0.1:8080/gateway, or empty", "'http://127.0.0.1:8080/gateway'")),
    ("DEFAULT_TURN_TIMEOUT", "abc", bad_setting(
        "DEFAULT_TURN_TIMEOUT", "must be a whole number of seconds from 15 to 3600", "'abc'")),
    ("DEFAULT_TURN_TIMEOUT", "5", bad_setting(
        "DEFAULT_TURN_TIMEOUT", "must be a whole number of seconds from 15 to 3600", "'5'")),
    ("DISCORD_APPLICATION_ID", "-3", bad_setting(
        "DISCORD_APPLICATION_ID", "must be the application id, a whole number like "
        "123456789012345678 (General Information > Application ID), or empty", "'-3'")),
    ("DATABASE_URL", "mysql://u:secret@h/db", bad_setting(
        "DATABASE_URL", "must be a PostgreSQL URL such as postgresql://user:pass@host/db, or "
        "empty for the SQLite file of DATABASE_PATH", None)),  # the password is never shown
    ("HEALTH_FILE", "", bad_setting(
        "HEALTH_FILE", "must be the path of the heartbeat file, e.g. /tmp/panda-royale.health",
        "''")),
    ("SHARD_COUNT", "0", bad_setting(
        "SHARD_COUNT", "must be the total number of shards, a whole number from 1 to 4096, or "
        "empty for an unsharded bot", "'0'")),
    ("SHARD_IDS", "0-3", bad_setting(  # no SHARD_COUNT
        "SHARD_IDS", "must be this cluster's shards below SHARD_COUNT, a range or a list such "
        "as 0-3 or 0,2 (SHARD_COUNT must be set too), or empty for every shard", "'0-3'")),
    ("METRICS_PORT", "http", bad_setting(
        "METRICS_PORT", "must be a TCP port from 1 to 65535 for the Prometheus metrics, or "
        "empty for no metrics", "'http'")),
    ("MEMBERS_INTENT", "maybe", bad_setting(
        "MEMBERS_INTENT", "must be true or false (the privileged Server Members intent)",
        "'maybe'")),
    ("LOBBY_TTL", "10", bad_setting(
        "LOBBY_TTL", "must be a whole number of seconds from 60 to 604800 (a lobby nobody starts "
        "closes that long after its last change)", "'10'")),
    ("GLOBAL_RATE_SHARE", "2", bad_setting(
        "GLOBAL_RATE_SHARE", "must be a number above 0 and at most 1: this cluster's share of "
        "the bot's 50 requests per second (e.g. 0.5 for one of two clusters)", "'2'")),
    ("GUILD_OPEN_GAMES", "0", bad_setting(
        "GUILD_OPEN_GAMES", "must be a whole number from 1 to 1000 (open games per server)",
        "'0'")),
    ("GUILD_RETENTION_DAYS", "-1", bad_setting(
        "GUILD_RETENTION_DAYS", "must be a whole number of days from 0 to 3650 (how long a "
        "server's data is kept after the bot is removed from it)", "'-1'")),
]


def test_every_setting_of_env_example_is_covered() -> None:
    names = {line.split("=", 1)[0] for line in (ROOT / ".env.example").read_text().splitlines()
             if "=" in line and not line.startswith("#")}
    assert names == set(SETTINGS) == {name for name, _, _ in SETTING_CASES}


@pytest.mark.parametrize(("name", "value", "message"), SETTING_CASES,
                         ids=[f"{n}={v}" for n, v, _ in SETTING_CASES])
@pytest.mark.parametrize("command", ["run", "sync", "invite", "health"])
def test_bad_setting_in_env_file(name: str, value: str, message: str, command: str,
                                 tmp_path: Path) -> None:
    (tmp_path / ".env").write_text(f"{name}={value}\n")
    assert call(command) == (1, "", message)


def test_bad_setting_in_environment_and_several_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEFAULT_TURN_TIMEOUT", "abc")
    monkeypatch.setenv("LOG_LEVEL", "LOUD")
    code, out, err = call("run")
    assert code == 1 and out == ""
    assert err.splitlines() == [
        "LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL (got 'LOUD'); fix it in "
        ".env or the environment",
        "DEFAULT_TURN_TIMEOUT must be a whole number of seconds from 15 to 3600 (got 'abc'); fix "
        "it in .env or the environment"]


def test_token_never_shown_in_its_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "secret value with spaces")
    code, out, err = call("run")
    assert code == 1 and "secret" not in out + err


# ---------------------------------------------------------------------- discord: exit 1


class _Refuse(BaseHTTPRequestHandler):
    """A Discord that refuses every token."""

    def do_GET(self) -> None:
        body = b'{"message": "401: Unauthorized", "code": 0}'
        self.send_response(401)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def refusing_discord() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Refuse)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/api/v10"
    server.shutdown()
    server.server_close()


REJECTED = ("Discord rejected the token (401 Unauthorized): check DISCORD_TOKEN in .env or the "
            "environment (copy it again from https://discord.com/developers/applications, Bot > "
            "Reset Token)\n")
UNREACHED = (f"Could not reach Discord at {UNREACHABLE} (Connect call failed ('127.0.0.1', 9)): "
             "check the network (and DISCORD_API_BASE_URL / DISCORD_GATEWAY_URL if set), then "
             "try again\n")


@pytest.mark.parametrize("argv", [["run"], ["sync"], ["sync", "--guild", "42"]])
def test_rejected_token(argv: list[str], refusing_discord: str,
                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("DISCORD_API_BASE_URL", refusing_discord)
    assert call(*argv) == (1, "", REJECTED)


@pytest.mark.parametrize("argv", [["run"], ["sync"]])
def test_unreachable_discord(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("DISCORD_API_BASE_URL", UNREACHABLE)
    started = time.monotonic()
    assert call(*argv) == (1, "", UNREACHED)
    assert time.monotonic() - started < 30


class _Response:
    status = 403
    reason = "Forbidden"


def test_missing_access_on_guild_sync_says_to_invite() -> None:
    exc = discord.Forbidden(_Response(), {"message": "Missing Access", "code": 50001})  # type: ignore[arg-type]
    problem = discord_problem(exc, "sync the commands to guild 42")
    assert problem is not None and problem.message == (
        "Discord refused to sync the commands to guild 42 (403 Missing Access, code 50001): "
        "invite the bot to that server first (./dev invite), then try again")


def test_run_unreachable_in_a_real_process(tmp_path: Path) -> None:
    """What a terminal shows: one line, exit 1, quickly (nothing listens on port 9)."""
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS}
    env.update(DISCORD_TOKEN=TOKEN, DISCORD_API_BASE_URL=UNREACHABLE, PANDA_PROG="./dev",
               DATABASE_PATH=str(tmp_path / "bot.db"), HEALTH_FILE=str(tmp_path / "health"))
    done = subprocess.run([sys.executable, "-m", "bot", "run"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (1, "", UNREACHED)


# ---------------------------------------------------------------------- database: exit 1


@pytest.fixture
def go_run(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A token and an unreachable Discord: a good database would fail on Discord instead."""
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("DISCORD_API_BASE_URL", UNREACHABLE)
    monkeypatch.setenv("HEALTH_FILE", str(tmp_path / "health"))


def run_with_database(monkeypatch: pytest.MonkeyPatch, path: str) -> tuple[int, str, str]:
    monkeypatch.setenv("DATABASE_PATH", path)
    return call("run")


def test_good_database_goes_on_to_discord(go_run: None, monkeypatch: pytest.MonkeyPatch,
                                          tmp_path: Path) -> None:
    assert run_with_database(monkeypatch, str(tmp_path / "new" / "bot.db")) == (1, "", UNREACHED)


def test_database_path_is_a_folder(go_run: None, monkeypatch: pytest.MonkeyPatch,
                                   tmp_path: Path) -> None:
    assert run_with_database(monkeypatch, str(tmp_path)) == (1, "", (
        f"DATABASE_PATH={tmp_path} is a folder, not a database file: set DATABASE_PATH to a file "
        f"such as {tmp_path}/panda_royale.db\n"))


def test_database_folder_is_a_file(go_run: None, monkeypatch: pytest.MonkeyPatch,
                                   tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello")
    path = tmp_path / "notes.txt" / "bot.db"
    assert run_with_database(monkeypatch, str(path)) == (1, "", (
        f"DATABASE_PATH={path}: {tmp_path}/notes.txt is a file, not a folder: use another "
        "DATABASE_PATH\n"))


def test_database_folder_cannot_be_created(go_run: None, monkeypatch: pytest.MonkeyPatch,
                                           tmp_path: Path) -> None:
    path = "/proc/no-such-folder/bot.db"
    code, out, err = run_with_database(monkeypatch, path)
    assert code == 1 and out == ""
    assert err.startswith(f"DATABASE_PATH={path}: its folder /proc/no-such-folder does not exist "
                          "and cannot be created (")
    assert err.endswith("): create it or use another DATABASE_PATH\n") and err.count("\n") == 1


def test_database_folder_not_writable(go_run: None, monkeypatch: pytest.MonkeyPatch,
                                      tmp_path: Path) -> None:
    # Tests run as root, for whom every folder is writable: os.access answers as for a user.
    real_access = os.access
    monkeypatch.setattr(preflight.os, "access",
                        lambda p, mode: False if Path(p) == tmp_path else real_access(p, mode))
    assert run_with_database(monkeypatch, str(tmp_path / "bot.db")) == (1, "", (
        f"DATABASE_PATH={tmp_path}/bot.db: the folder {tmp_path} is not writable by this user: "
        "fix its permissions or use another DATABASE_PATH\n"))


def test_database_not_a_database(go_run: None, monkeypatch: pytest.MonkeyPatch,
                                 tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    path.write_bytes(b"this is a shopping list, not a database\n" * 50)
    assert run_with_database(monkeypatch, str(path)) == (1, "", (
        f"DATABASE_PATH={path} is not a SQLite database (or it is damaged): restore it from a "
        "backup or use another DATABASE_PATH\n"))
    assert path.read_bytes().startswith(b"this is a shopping list")


def make_database(path: Path, user_version: int = 0) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE t (x)")
    conn.execute(f"PRAGMA user_version = {user_version:d}")
    conn.commit()
    conn.close()


def test_database_read_only(go_run: None, monkeypatch: pytest.MonkeyPatch,
                            tmp_path: Path) -> None:
    make_database(tmp_path / "bot.db")
    path = f"file:{tmp_path}/bot.db?mode=ro"
    assert run_with_database(monkeypatch, path) == (1, "", (
        f"DATABASE_PATH={path} is read-only (attempt to write a readonly database): make the file "
        "and its folder writable or use another DATABASE_PATH\n"))


def test_database_disk_full(go_run: None, monkeypatch: pytest.MonkeyPatch,
                            tmp_path: Path) -> None:
    class Usage:
        free = 4096

    monkeypatch.setattr(preflight.shutil, "disk_usage", lambda _: Usage())
    assert run_with_database(monkeypatch, str(tmp_path / "bot.db")) == (1, "", (
        f"DATABASE_PATH={tmp_path}/bot.db: the disk is full (4 KiB free in {tmp_path}): free "
        "some space or use another DATABASE_PATH\n"))


def test_database_full_during_the_probe(tmp_path: Path) -> None:
    assert preflight._explain(sqlite3.OperationalError("database or disk is full"), "x",
                                   "DATABASE_PATH=x") == (
        "DATABASE_PATH=x: the disk is full: free some space or use another DATABASE_PATH")


def test_database_from_a_newer_bot(go_run: None, monkeypatch: pytest.MonkeyPatch,
                                   tmp_path: Path) -> None:
    make_database(tmp_path / "bot.db", user_version=999)
    known = preflight.known_schema_version()
    assert run_with_database(monkeypatch, str(tmp_path / "bot.db")) == (1, "", (
        f"DATABASE_PATH={tmp_path}/bot.db was written by a newer version of the bot (schema 999, "
        f"this bot knows {known}): upgrade the bot or use another DATABASE_PATH\n"))


def test_database_locked(go_run: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    make_database(tmp_path / "bot.db")
    holder = sqlite3.connect(tmp_path / "bot.db", isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    monkeypatch.setattr(preflight, "_LOCK_WAIT_S", 0.05)
    try:
        assert run_with_database(monkeypatch, str(tmp_path / "bot.db")) == (1, "", (
            f"DATABASE_PATH={tmp_path}/bot.db is locked by another process (is the bot already "
            "running?): stop it or use another DATABASE_PATH\n"))
    finally:
        holder.execute("ROLLBACK")
        holder.close()


async def test_the_probe_leaves_the_file_as_it_was(tmp_path: Path) -> None:
    make_database(tmp_path / "bot.db", user_version=1)
    before = (tmp_path / "bot.db").read_bytes()
    await preflight.check_database(tmp_path / "bot.db")
    await preflight.check_database(":memory:")
    assert (tmp_path / "bot.db").read_bytes() == before


# ---------------------------------------------------------------------- files: exit 1


def test_simulate_log_cannot_be_written(tmp_path: Path) -> None:
    assert call("simulate", "--games", "1", "--log", str(tmp_path)) == (1, "", (
        f"Cannot write the game log {tmp_path} (Is a directory): give --log a file in a folder "
        "you can write to\n"))
    missing = tmp_path / "no" / "such" / "log.jsonl"
    assert call("simulate", "--games", "1", "--log", str(missing)) == (1, "", (
        f"Cannot write the game log {missing} (No such file or directory): give --log a file in "
        "a folder you can write to\n"))


def test_validate_empty_file(tmp_path: Path) -> None:
    (tmp_path / "empty.jsonl").write_text("")
    assert call("validate", "empty.jsonl") == (1, (
        "empty.jsonl: no game in this file (it is empty): a game log is the JSON Lines that "
        "simulate --log or /royale log write\n"), "")
    (tmp_path / "blank.jsonl").write_text("\n\n  \n")
    assert call("validate", "blank.jsonl")[0] == 1


def test_validate_not_a_game_log(tmp_path: Path) -> None:
    (tmp_path / "notes.md").write_text("# Notes\nnot json\n")
    assert call("validate", "notes.md") == (1, (
        "notes.md: no game in this file, it is not a JSON Lines game log (line 1: malformed JSON "
        "(Expecting value, column 1); 2 bad lines)\n"), "")
    (tmp_path / "objects.jsonl").write_text('{"hello": 1}\n')
    code, out, _ = call("validate", "objects.jsonl")
    assert code == 1 and out.count("\n") == 1
    assert out.startswith("objects.jsonl: no game in this file, it is not a JSON Lines game log")
    (tmp_path / "picture.png").write_bytes(bytes(range(256)) * 4)
    code, out, _ = call("validate", "picture.png")
    assert code == 1 and out.count("\n") == 1


def test_validate_a_folder_and_a_good_log_with_an_empty_one(tmp_path: Path) -> None:
    assert call("validate", str(tmp_path)) == (1, f"{tmp_path}: cannot read (Is a directory)\n",
                                               "")
    assert call("simulate", "--games", "2", "--log", "good.jsonl")[0] == 0
    (tmp_path / "empty.jsonl").write_text("")
    code, out, _ = call("validate", "good.jsonl", "empty.jsonl")
    assert code == 1
    assert out.splitlines()[-1] == ("validated 2 games (royale 2, posing 0): 1 problem outside "
                                    "any game")


# ---------------------------------------------------------------------- help, invite, health


def test_help_lists_every_command_one_line_each() -> None:
    code, text, _ = call("help")
    assert code == 0
    for name in ("run", "sync", "invite", "demo", "simulate", "validate", "bench", "health",
                 "help", "test", "lint", "crash-drill", "bench-bot"):
        assert sum(line.startswith(f"  {name} ") for line in text.splitlines()) == 1, name
    code, text, _ = call("help", "demo")
    assert code == 0 and "--players" in text


def test_dash_dash_help_and_dev_help_in_a_real_process() -> None:
    env = dict(os.environ, PANDA_PROG="./dev")
    for argv in (["--help"], ["help"], ["-h"]):
        done = subprocess.run([sys.executable, "-m", "bot", *argv], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0 and done.stderr == ""
        assert done.stdout == cli.help_text().replace("python -m bot", "./dev")
        assert "  bench-bot " in done.stdout and "  crash-drill " in done.stdout


def test_debug_shows_the_traceback(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / "bot.db").write_text("not a database " * 100)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "bot.db"))
    out, err = io.StringIO(), io.StringIO()
    assert cli.main(["--debug", "run"], out=out, err=err) == 1
    assert "Traceback" in err.getvalue()
    assert err.getvalue().endswith("restore it from a backup or use another DATABASE_PATH\n")


def test_unexpected_error_is_two_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(**_: Any) -> None:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr("tools.sim.bench.run_bench", broken)
    assert call("bench", "--games", "1") == (1, "", (
        "Unexpected error: ZeroDivisionError: division by zero\n"
        "This is a bug: run the command again with --debug and report what it prints.\n"))


def test_invite_from_the_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    assert application_id_from_token(TOKEN) == APP_ID
    perms = (discord.Permissions.view_channel.flag | discord.Permissions.send_messages.flag
             | discord.Permissions.embed_links.flag | discord.Permissions.attach_files.flag
             | discord.Permissions.read_message_history.flag
             | discord.Permissions.create_public_threads.flag
             | discord.Permissions.send_messages_in_threads.flag)
    assert permissions().value == perms == 309237763072
    assert call("invite") == (0, (
        "Add the bot to a server (you need Manage Server there):\n"
        f"https://discord.com/oauth2/authorize?client_id={APP_ID}&integration_type=0"
        "&scope=bot+applications.commands&permissions=309237763072\n"
        "  The bot joins the server: game boards, pings, reminders, threads, leaderboards, "
        "seasons, server settings.\n"
        "  Scopes: bot, applications.commands; permissions 309237763072: View Channel, Send "
        "Messages, Embed Links, Attach Files, Read Message History, Create Public Threads, Send "
        "Messages In Threads.\n"
        "\n"
        "Add the app to your own account:\n"
        f"https://discord.com/oauth2/authorize?client_id={APP_ID}&integration_type=1"
        "&scope=applications.commands\n"
        "  Play in DMs, group DMs and servers without the bot, through the app's answers only: "
        "no slow games, no threads, no server settings or leaderboards there.\n"
        "  Scope: applications.commands; no bot, no permissions.\n"
        "\n"
        "Developer Portal (https://discord.com/developers/applications > your app > "
        "Installation):\n"
        "  - Installation Contexts: check Guild Install and User Install (a link works only for "
        "a context checked there).\n"
        "  - Install Link: Discord Provided Link or None; the links above name their own scopes "
        "and context, so either works.\n"
        "  - Default Install Settings (shown with Discord Provided Link, used by the Add App "
        "button of the bot's profile): Guild Install: scopes applications.commands and bot, the "
        "permissions above; User Install: scope applications.commands.\n"
        "\n"
        "What the bot keeps about players and servers, and how they remove it: docs/privacy.md "
        "(in Discord: /privacy). Link it from the bot's profile (Developer Portal > General "
        "Information > Privacy Policy URL).\n"),
        "")


def test_invite_from_the_setting_and_without_either(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_APPLICATION_ID", "42")
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    code, out, _ = call("invite")
    assert code == 0 and f"\n{invite_url(42)}\n" in out and f"\n{user_install_url(42)}\n" in out
    monkeypatch.delenv("DISCORD_APPLICATION_ID")
    monkeypatch.delenv("DISCORD_TOKEN")
    assert call("invite") == (1, "", (
        "No application id: set DISCORD_TOKEN (the id is read from it) or DISCORD_APPLICATION_ID "
        "(https://discord.com/developers/applications > your app > General Information > "
        "Application ID) in .env\n"))


def test_invite_with_a_token_that_hides_no_id(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "!!!.abc.def")
    assert call("invite") == (1, "", (
        "DISCORD_TOKEN does not start with an application id (is it a bot token?): set "
        "DISCORD_APPLICATION_ID in .env (General Information > Application ID)\n"))


def test_health(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    beat = tmp_path / "health"
    monkeypatch.setenv("HEALTH_FILE", str(beat))
    assert call("health") == (1, (
        f"unhealthy: no heartbeat file {beat} (the bot is not connected yet, or HEALTH_FILE "
        "differs between the bot and this check)\n"), "")
    write_heartbeat(beat)
    code, out, _ = call("health")
    assert code == 0 and out.startswith("healthy: last heartbeat ")
    write_heartbeat(beat, now=time.time() - 120)
    assert call("health") == (1, "unhealthy: last heartbeat 120 s ago (more than 90 s)\n", "")
    beat.write_text("garbage")
    assert call("health")[0] == 1
    assert check_health(beat, now=0)[0] == 1


def test_demo_without_token_ends_with_the_dev_commands() -> None:
    code, out, err = call("run")
    assert code == 0 and err == ""
    assert out.rstrip().splitlines()[-1] == (
        "That was the demo. To go live: put DISCORD_TOKEN in .env, then ./dev invite, ./dev sync "
        "and ./dev run (steps at the top).")
    assert "python -m bot" not in out
    for step in ("./dev invite", "./dev sync", "./dev run"):
        assert step in cli.GO_LIVE


def test_env_file_that_is_not_utf8(tmp_path: Path) -> None:
    (tmp_path / ".env").write_bytes(b"DISCORD_TOKEN=\xff\xfe\n")
    assert call("invite") == (1, "", (
        "The .env file cannot be read ('utf-8' codec can't decode byte 0xff in position 14: "
        "invalid start byte): it must be a UTF-8 text file of NAME=value lines (see "
        ".env.example)\n"))


def test_a_database_error_after_the_check_names_database_path(
        go_run: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from storage import SchemaError

    def failing_run(self: Any, token: str, **_: Any) -> None:
        raise SchemaError("migration 002_x failed: no such table: y")

    monkeypatch.setattr(discord.Client, "run", failing_run)
    assert run_with_database(monkeypatch, str(tmp_path / "bot.db")) == (1, "", (
        f"DATABASE_PATH={tmp_path}/bot.db cannot be used (migration 002_x failed: no such table: "
        "y): check the file or use another DATABASE_PATH\n"))


@pytest.mark.parametrize(("python", "found"), [
    ("/nonexistent/python3", "nothing that runs"),
    ("false", "nothing that runs"),
])
def test_dev_without_a_usable_python(python: str, found: str, tmp_path: Path) -> None:
    """./dev's first set-up refuses an absent or too old Python in one line."""
    for name in ("dev", "pyproject.toml"):
        (tmp_path / name).write_bytes((ROOT / name).read_bytes())
    (tmp_path / "dev").chmod(0o755)
    done = subprocess.run(["bash", str(tmp_path / "dev"), "help"], capture_output=True, text=True,
                          env=dict(os.environ, PYTHON=python), timeout=60)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (f"./dev needs Python 3.11 or newer as '{python}' (found: {found}): "
                           "install it, or name it: PYTHON=python3.11 ./dev ...\n")
    assert not (tmp_path / ".venv").exists()


async def test_start_up_is_frozen_then_logs_the_invite_link_once(
        caplog: pytest.LogCaptureFixture) -> None:
    import gc
    from types import SimpleNamespace

    from bot.app import _first_ready
    from bot.settings import Settings

    settings = Settings(_env_file=None, discord_token=TOKEN)  # type: ignore[call-arg]
    on_ready = _first_ready(SimpleNamespace(application_id=None, user="Panda#0001"),  # type: ignore[arg-type]
                            settings)
    try:
        with caplog.at_level("INFO", logger="bot"):
            await on_ready()
            frozen = gc.get_freeze_count()
            await on_ready()  # a reconnect: not again
        assert frozen > 1000  # what start-up made left the collector's generations
        lines = [r.getMessage() for r in caplog.records if r.name == "bot"]
        assert len(lines) == 2
        said = re.fullmatch(r"Start-up done: ([\d,]+) objects left out of the garbage "
                            r"collector's passes", lines[0])
        assert said is not None and int(said.group(1).replace(",", "")) > 1000
        assert lines[1] == f"Connected as Panda#0001. Invite it to a server: {invite_url(APP_ID)}"
    finally:
        gc.unfreeze()


def test_unrecognised_argument() -> None:
    assert call("run", "--fast") == (2, "", (
        "./dev: unrecognized arguments: --fast\nRun './dev --help' for the options.\n"))
