"""What the bot keeps about a person or a server: a copy of it, and forgetting it.

A person is forgotten everywhere at once: their open games first hand their seat to the
computer (or let them out of the lobby), then one storage transaction deletes their results,
ratings and totals and gives their seats a pseudonym (``former:<hex>``, named "former player
3f9c"), so every other player's games, leaderboards and logs stay whole. A server's data goes
when its managers ask, or ``retention_days`` after the bot was removed from it.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from bot.service.games import GameService
from bot.service.logs import log_of
from bot.service.model import FORMER_PREFIX, Outcome, Person
from storage import Departure, Game, Storage

log = logging.getLogger(__name__)

EXPORT_FORMAT: Final = "panda-royale-bot/my-data"
EXPORT_VERSION: Final = 1
DAY_MS: Final = 86_400_000


def new_pseudonym() -> str:
    """A fresh pseudonym id: ``former:`` and 8 random hex digits (unrelated to the id)."""
    return f"{FORMER_PREFIX}{secrets.token_hex(4)}"


def pseudonym_name(pseudonym: str) -> str:
    """The name stored with a pseudonym ("former player 3f9c"; shown in each language)."""
    return f"former player {pseudonym.removeprefix(FORMER_PREFIX)[:4]}"


@dataclass
class Forgotten:
    """What forgetting a person did."""

    pseudonym: str
    rows: dict[str, int]
    """Rows changed or deleted, per table."""
    stood_in: list[Outcome] = field(default_factory=list)
    """Their games in play, the computer now in their seat (to be shown)."""
    lobbies: list[Game] = field(default_factory=list)
    """Lobbies they left (or that closed: they hosted them)."""


@dataclass
class ServerForgotten:
    """What deleting a server's data did."""

    ended: list[Game]
    """Its open games, ended (abandoned) first."""
    rows: dict[str, int]
    """Rows deleted, per table."""


class PersonalData:
    """A copy of a person's data; forgetting a person or a server; the retention of the
    data of servers that removed the bot.
    """

    def __init__(self, db: Storage, games: GameService, *, retention_days: int = 30,
                 pseudonyms: Callable[[], str] = new_pseudonym) -> None:
        """Serve the data of ``db`` (``games``: its games, which a forgotten person leaves);
        servers' data goes ``retention_days`` after the bot is removed.
        """
        self.db = db
        self.games = games
        self.clock = games.clock
        self.retention_days = retention_days
        self.pseudonyms = pseudonyms

    # ------------------------------------------------------------------ a person

    async def export(self, user_id: int) -> dict[str, Any]:
        """Everything the bot holds about ``user_id``, in every server, as JSON values: their
        games (with the game logs as ``/royale log`` gives them), results, ratings, totals.
        """
        db = self.db
        pid = str(user_id)
        rows = await db.personal.person_rows(pid)
        games = []
        for game in rows.games:
            seat = next((p for p in game.players if p.player_id == pid), None)
            played = game.state is not None
            games.append({
                "game_id": game.id, "server_id": game.guild_id, "channel_id": game.channel_id,
                "reach": game.reach.value,
                "kind": game.kind, "status": game.status, "end_reason": game.end_reason,
                "created_ms": game.created_ms, "finished_ms": game.finished_ms,
                "host": game.host_id == user_id,
                "seat": None if seat is None else seat.seat,
                "display_name": None if seat is None else seat.display_name,
                "computer_took_over": None if seat is None else seat.stand_in,
                "players": [{"seat": p.seat, "player_id": p.player_id,
                             "display_name": p.display_name, "computer": p.is_bot}
                            for p in game.players],
                "log": (await log_of(db, game)).events if played else [],
            })
        return {
            "format": EXPORT_FORMAT, "version": EXPORT_VERSION, "user_id": pid,
            "exported_ms": self.clock(),
            "games": games,
            "results": [{"game_id": r.game_id, "server_id": r.guild_id, "kind": r.kind,
                         "display_name": r.display_name, "seat": r.seat, "score": r.score,
                         "rank": r.rank, "won": r.won, "finished_ms": r.finished_ms}
                        for r in rows.results],
            "ratings": [{"server_id": r.guild_id, "kind": r.kind,
                         "display_name": r.display_name, "mu": r.mu, "sigma": r.sigma,
                         "games": r.games, "updated_ms": r.updated_ms} for r in rows.ratings],
            "totals": [{("server_id" if k == "guild_id" else k): v for k, v in t.items()}
                       for t in rows.totals],
            "achievements": [{"server_id": a.guild_id, "achievement": a.achievement,
                              "game_id": a.game_id, "earned_ms": a.earned_ms}
                             for a in rows.achievements],
            "reminders": rows.reminders,
        }

    async def forget(self, user_id: int) -> Forgotten:
        """Forget ``user_id`` everywhere (see the module's docstring)."""
        who = Person(user_id, "")
        stood_in, lobbies = await self.games.withdraw(who)
        pseudonym = self.pseudonyms()
        rows = await self.db.personal.forget_person(who.player_id, pseudonym,
                                                    pseudonym_name(pseudonym))
        for outcome in stood_in:  # their seats as they are now, under the pseudonym
            outcome.game = await self._reread(outcome.game)
        lobbies = [await self._reread(game) for game in lobbies]
        log.info("a person was forgotten (%s): %s", pseudonym, rows)
        return Forgotten(pseudonym, rows, stood_in, lobbies)

    async def _reread(self, game: Game) -> Game:
        return await self.games.get_game(game.id) or game

    # ------------------------------------------------------------------ a server

    async def server_rows(self, guild_id: int) -> dict[str, int]:
        """The rows the server's data has, per table."""
        return await self.db.personal.server_counts(guild_id)

    async def forget_server(self, guild_id: int) -> ServerForgotten:
        """Delete a server's data now: its open games end first (abandoned, no timers)."""
        ended = await self.games.abandon_guild(guild_id, "server data deleted")
        return ServerForgotten(ended, await self.db.personal.forget_server(guild_id))

    async def departed(self, guild_id: int, reason: str = "bot removed from the server"
                       ) -> list[Game]:
        """The bot was removed from the server: its open games end as abandoned at once and
        its data is deleted after the retention period unless the bot comes back.
        """
        games = await self.games.abandon_guild(guild_id, reason)
        await self.db.personal.record_departure(guild_id, self.clock())
        return games

    async def returned(self, guild_id: int) -> bool:
        """The bot is in the server (again): its data stays. True if it had been removed."""
        return await self.db.personal.clear_departure(guild_id)

    async def departures(self) -> list[Departure]:
        """The servers that removed the bot and whose data is still kept."""
        return await self.db.personal.departures()

    async def due(self) -> list[Departure]:
        """The servers whose retention period has run out."""
        cutoff = self.clock() - self.retention_days * DAY_MS
        return await self.db.personal.departures(removed_before_ms=cutoff + 1)

    async def purge(self, *, dry_run: bool = False) -> dict[int, dict[str, int]]:
        """Delete the data of every server whose retention period has run out (``dry_run``:
        only count it). The rows per server and table.
        """
        db = self.db
        done: dict[int, dict[str, int]] = {}
        if db.closed:  # shutting down
            return done
        for departure in await self.due():
            gid = departure.guild_id
            personal = db.personal
            done[gid] = await (personal.server_counts(gid) if dry_run
                               else personal.forget_server(gid))
        return done
