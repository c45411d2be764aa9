"""Playing a game through the service to its end, for tests: every person's decision made by
a seeded Easy player.
"""

from __future__ import annotations

import random
from typing import Any

from bot.rules.registry import kind_of
from bot.service import GameService, Person


async def play_to_end(svc: GameService, game_id: int, rng: random.Random) -> int:
    """Play the game's people's decisions until it is over; the number of decisions."""
    decisions = 0
    while True:
        game = await svc.get_game(game_id)
        assert game is not None
        if game.status != "active":
            return decisions
        state = svc.state_of(game)
        kind = kind_of(game.kind)
        seat = kind.engine.current_seat(state)
        assert seat is not None
        player = kind.make_player("easy", rng.randrange(2**32))

        def choose(state: Any, seat: int, player: Any = player) -> Any:
            return player.choose(state)

        await svc.act(game_id, Person(int(game.players[seat].player_id), ""), game.version, choose)
        decisions += 1
