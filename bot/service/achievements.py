"""Achievements as the service keeps them: what a finishing game earned its people
(:func:`award_for`, handed to storage's finishing transaction), and the same sets recomputed
from every stored log of a server (:func:`recompute`), which must equal what was kept.

Kept for people with a result only: computer players earn nothing, and a seat the computer
took over (its person left or resigned) has no result and earns nothing. The season's
achievements count the person's results in the server's season at the time of the finish.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from bot.rules import achievements as rules
from bot.service.season_calendar import SeasonWindow
from storage import AwardFn, Game, GameStatus, Storage, relabel


def award_for(game: Game, season: SeasonWindow | None) -> AwardFn:
    """What ``game``'s finish keeps: each person's achievements of the game (its log names
    them by seat token) and, in a season, the season's.
    """
    people = {p.token: p.player_id for p in game.players if not p.by_computer}

    def award(events: Sequence[Mapping[str, Any]], times: Mapping[str, Sequence[int]]
              ) -> dict[str, Collection[str]]:
        out: dict[str, Collection[str]] = {}
        for token, earned in rules.earned_by_player(game.kind, events).items():
            player = people.get(token)
            if player is None:
                continue
            got = set(earned)
            if season is not None:
                got |= rules.season_earned(times.get(player, ()), season.window)
            if got:
                out[player] = got
        return out

    return award


async def recompute(db: Storage, games: Sequence[Game], seasons: Sequence[SeasonWindow] = ()
                    ) -> dict[str, set[str]]:
    """Every person's achievements from the stored logs of ``games`` (a server's finished
    games) with ``seasons`` (the server's, as they were when its games finished): the people
    of each log named by their Discord ids, the seats without a result left out.
    """
    records = []
    for game in games:
        if game.status != GameStatus.FINISHED:
            continue
        rated = {p.player_id for p in await db.results.of_game(game.id) if not p.is_bot}
        names = {p.token: (p.player_id if p.player_id in rated else f"unrated:{p.token}")
                 for p in game.players if not p.is_bot}
        events = relabel(await db.games.events(game.id), names)
        records.append(rules.GameRecord(game.kind, events, game.finished_ms))
    everyone = rules.recompute(records, [s.window for s in seasons])
    return {p: ids for p, ids in everyone.items()
            if ids and not p.startswith(("cpu:", "unrated:"))}
