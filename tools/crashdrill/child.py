"""The process the crash drill kills: ``python -m tools.crashdrill.child --db PATH --seed S``.

It runs the real :class:`bot.service.GameService` on the real :class:`storage.Database` (one
file, WAL), the way the bot does: at start-up ``service.restore()``, and once the gateway would
be ready ``release_deadlines()`` and ``resume_shard(0)``; then it carries on with the
channel's open game if there is one, else opens the next: the host opens a lobby, the other
humans join, the host adds the computer seats and starts. Every decision of a human seat is made
by a seeded computer player and goes through ``service.act`` (the channel lock, the version check,
one transaction per action). The stdout lines are described in :mod:`tools.crashdrill.protocol`.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable, Sequence
from typing import Any

from bot.rules.registry import engine_for, kind_of
from bot.service import GameService, Outcome, Person, Place, is_cpu
from storage import Database, Game, Storage
from tools.crashdrill.hold import Hook, hold_commits
from tools.crashdrill.protocol import (
    CHANNEL_ID,
    DEFAULT_VARIANTS,
    GUILD_ID,
    Variant,
    decision_seed,
    digest,
    game_seed,
    state_text,
    variant_of,
)

HOLD: Callable[[Storage, Hook], None] = hold_commits
"""How the child reaches inside its storage's game-moving transactions (the drill's own tests
swap in a broken way)."""


def say(*words: object) -> None:
    """One protocol line, flushed at once (the parent may kill right after reading it)."""
    sys.stdout.write(" ".join(str(w) for w in words) + "\n")
    sys.stdout.flush()


class Announcer:
    """Announces each game-moving transaction just before its COMMIT, wrapping the storage's
    parts (:data:`HOLD`, :func:`tools.crashdrill.hold.hold_commits`): once the writes of
    ``games.start`` or ``games.commit_action`` are done, still inside the transaction,
    ``COMMITTING <game> <version>`` is printed and, when ``hold`` is set, the child waits for a
    line on stdin (the parent's go-ahead, or a SIGKILL while the transaction is open).
    """

    def __init__(self, db: Storage, *, hold: bool) -> None:
        self.hold = hold
        HOLD(db, self)

    async def __call__(self, game_id: int, version: int) -> None:
        say("COMMITTING", game_id, version)
        if self.hold:
            sys.stdin.buffer.readline()


def answered(game: Game, state: Any | None) -> None:
    """The service call returned: print what the bot would now show."""
    mark = "-" if state is None else digest(state_text(engine_for(game.kind).state_to_json(state)))
    say("ANSWERED", game.id, game.version, mark)


def chooser(bot: Any) -> Callable[[Any, int], Any]:
    """The ``build(state, seat)`` of ``service.act``: the computer player's choice."""

    def build(state: Any, seat: int) -> Any:
        return bot.choose(state)

    return build


def person(user_id: int) -> Person:
    """The service's view of a drill user."""
    return Person(user_id, f"player{user_id}")


class Child:
    """Plays drill games on one database until ``games`` of them exist and are finished."""

    def __init__(self, service: GameService, *, seed: int, games: int,
                 variants: tuple[Variant, ...]) -> None:
        self.service = service
        self.db = service.db
        self.seed = seed
        self.games = games
        self.variants = variants

    async def run(self) -> None:
        game = await self.db.games.open_in_channel(CHANNEL_ID)
        if game is None:
            say("FRESH")
        else:
            say("RESUMED", game.id, game.version, game.status)
        # What the bot does at start-up, then once its gateway is ready (it may play computers).
        await self.service.restore()
        await self.service.release_deadlines()
        await self.service.resume_shard(0)
        if game is not None:
            game = await self.db.games.get(game.id)
        while True:
            if game is None:
                latest = await self.db.games.latest_in_channel(CHANNEL_ID)
                played = 0 if latest is None else latest.id
                if played >= self.games:
                    say("DONE", played)
                    return
                game = await self.open_lobby(played + 1)
            if game.status == "lobby":
                game = await self.fill_and_start(game)
            if game.status == "active":
                game = await self.play(game)
            if game.status in ("finished", "cancelled"):
                say("FINISHED", game.id)
                game = None

    async def open_lobby(self, number: int) -> Game:
        variant = variant_of(number, self.variants)
        self.service.seed_source = lambda: game_seed(self.seed, number)
        host = person(variant.human_ids()[0])
        game = await self.service.new_lobby(
            kind="royale", place=Place(GUILD_ID, CHANNEL_ID), host=host,
            settings=variant.settings())
        if game.id != number:  # pragma: no cover - game ids are 1, 2, 3, ... in a drill file
            raise RuntimeError(f"expected game {number}, the database made game {game.id}")
        answered(game, None)
        return game

    async def fill_and_start(self, game: Game) -> Game:
        variant = variant_of(game.id, self.variants)
        for user in variant.human_ids():
            if str(user) not in game.player_ids:
                game = await self.service.join(game.id, person(user))
                answered(game, None)
        while sum(is_cpu(p) for p in game.player_ids) < variant.computers:
            game = await self.service.add_computer(game.id, person(game.host_id))
            answered(game, None)
        outcome = await self.service.start(game.id, person(game.host_id))
        answered(outcome.game, outcome.state)
        return outcome.game

    async def play(self, game: Game) -> Game:
        kind = kind_of(game.kind)
        while game.status == "active":
            state = self.service.state_of(game)
            seat = kind.engine.current_seat(state)
            assert seat is not None  # an active game waits on a seat
            player_id = game.players[seat].player_id
            outcome: Outcome | None
            if is_cpu(player_id):
                # resume_shard() plays computer seats a crash left waiting: this must not happen.
                say("STUCK", game.id, game.version, seat)
                outcome = await self.service.timeout(game.id, game.version)
                if outcome is None:  # pragma: no cover - nothing else changes the game
                    raise RuntimeError(f"game {game.id} could not be moved on")
            else:
                ai = "heuristic" if seat % 2 == 0 else "random"
                bot = kind.make_player(ai, decision_seed(game.seed, game.version, seat))
                outcome = await self.service.act(game.id, person(int(player_id)), game.version,
                                                 chooser(bot))
            answered(outcome.game, outcome.state)
            game = outcome.game
        return game


def build_parser() -> argparse.ArgumentParser:
    """The child's command line."""
    p = argparse.ArgumentParser(prog="python -m tools.crashdrill.child",
                                description="Play drill games on a database (to be killed).")
    p.add_argument("--db", required=True, help="the SQLite file")
    p.add_argument("--seed", type=int, required=True, help="seeds the games and the players")
    p.add_argument("--games", type=int, default=1_000_000,
                   help="stop once this many games exist in the database and are over")
    p.add_argument("--variant", action="append", default=None,
                   help="H+C:options, e.g. 3+1:mischief,cannon (repeat to cycle; game n uses "
                        "the n-th, modulo)")
    p.add_argument("--hold", action="store_true",
                   help="before each COMMIT wait for a line on stdin")
    return p


async def amain(argv: Sequence[str] | None = None) -> int:
    """Play games until killed or done (see the module docstring)."""
    args = build_parser().parse_args(argv)
    variants = tuple(Variant.parse(v) for v in (args.variant or DEFAULT_VARIANTS))
    db = await Database.open(args.db)
    Announcer(db, hold=args.hold)
    service = GameService(db)
    try:
        await Child(service, seed=args.seed, games=args.games, variants=variants).run()
    finally:
        await service.close()
        await db.close()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m tools.crashdrill.child``."""
    return asyncio.run(amain(argv))


if __name__ == "__main__":
    raise SystemExit(main())
