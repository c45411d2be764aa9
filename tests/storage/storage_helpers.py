"""Helpers shared by the storage tests (plain functions; fixtures are in conftest.py)."""

from __future__ import annotations

from typing import Any

from storage import Game, Seat, Storage
from storage.connection import fetch_one

T0 = 1_700_000_000_000
"""A fixed epoch-ms "now" for deterministic tests."""


def seats(*names: str, bots: int = 0) -> list[Seat]:
    """Humans named ``names`` (ids ``"1001"``, ...) then computer players, in seat order."""
    rows = [Seat(i, str(1001 + i), name) for i, name in enumerate(names)]
    rows += [
        Seat(len(names) + k, f"cpu:{k + 1}", f"Computer {k + 1}", is_bot=True)
        for k in range(bots)
    ]
    return rows


async def new_game(
    db: Storage,
    *,
    channel_id: int = 500,
    guild_id: int = 10,
    kind: str = "royale",
    players: list[Seat] | None = None,
    now_ms: int = T0,
) -> Game:
    """A lobby game with Ann, Bob and Cat unless ``players`` is given."""
    return await db.games.create(
        guild_id=guild_id,
        channel_id=channel_id,
        kind=kind,
        host_id=1001,
        settings={"expansions": ["mischief"], "turn_timeout": 120},
        seed=42,
        players=seats("Ann", "Bob", "Cat") if players is None else players,
        now_ms=now_ms,
    )


def setup_events(game: Game) -> list[dict[str, Any]]:
    """A small stand-in for the engine's start events."""
    return [
        {"event": "setup", "game_kind": game.kind, "seed": game.seed, "players": game.player_ids},
        {"event": "token", "round": 1, "player": game.player_ids[0]},
    ]


async def started_game(db: Storage, **kwargs: Any) -> Game:
    """A game (see :func:`new_game`) that has been started with state ``{"step": 0}``."""
    game = await new_game(db, **kwargs)
    return await db.games.start(
        game.id, game.version, {"step": 0}, setup_events(game), T0 + 60_000, T0 + 10
    )


async def play(db: Storage, game: Game, step: int, **kwargs: Any) -> Game:
    """Commit action number ``step`` (state ``{"step": step}``) to ``game``."""
    return await db.games.commit_action(
        game.id,
        game.version,
        action={"seat": step % max(1, len(game.players)), "step": step},
        actor=game.player_ids[step % len(game.player_ids)] if game.players else "nobody",
        events=[{"event": "pick", "step": step, "game_id": game.id}],
        state={"step": step},
        deadline_ms=kwargs.pop("deadline_ms", T0 + 60_000 * (step + 1)),
        now_ms=kwargs.pop("now_ms", T0 + 1_000 * step),
        **kwargs,
    )


_SEASON_END = ("guild_id", "season", "start_ms", "end_ms", "claimed_ms", "posted_ms",
               "channel_id", "message_id", "outcome")


async def season_end(db: Storage, guild_id: int, season: str) -> dict[str, Any] | None:
    """The row of a season's claimed end (``season_ends``), by column, or None."""
    row = await db.read(lambda conn: fetch_one(
        conn, f"SELECT {', '.join(_SEASON_END)} FROM season_ends WHERE guild_id = ?"
              " AND season = ?", (guild_id, season)))
    return None if row is None else {column: row[column] for column in _SEASON_END}
