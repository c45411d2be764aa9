"""Players of a game as the messages name them: display names and mentions."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.service import Game

MEDALS = ("🥇", "🥈", "🥉")


class Names:
    """Display names and mentions of a game's players."""

    def __init__(self, game: Game) -> None:
        self.players = game.players
        self.by_id = {p.player_id: p for p in game.players}
        self.seats = [p.player_id for p in game.players]

    def __call__(self, player_id: str) -> str:
        return self.of(player_id)

    def of(self, player_id: str) -> str:
        p = self.by_id.get(player_id)
        return p.display_name if p else player_id

    def seat(self, seat: int) -> str:
        return self.players[seat].display_name

    def is_bot(self, player_id: str) -> bool:
        p = self.by_id.get(player_id)
        return bool(p and p.is_bot)

    def mention(self, seat: int) -> str:
        p = self.players[seat]
        return f"<@{p.player_id}>" if p.player_id.isdigit() else f"**{p.display_name}**"


def short(name: str, width: int) -> str:
    """``name`` cut to ``width`` characters (with an ellipsis) for a code-block table."""
    return name if len(name) <= width else name[: width - 1] + "…"


def standings(names: Names, totals: Sequence[int], title: str,
              points: Callable[[int], str] = str) -> str:
    """Final standings, best first: medals, tied players sharing a place and the win."""
    top = max(totals)
    winners = [i for i, t in enumerate(totals) if t == top]
    order = sorted(range(len(totals)), key=lambda i: -totals[i])
    lines = []
    place = 0
    prev: int | None = None
    for idx, seat in enumerate(order):
        if totals[seat] != prev:
            place, prev = idx + 1, totals[seat]
        mark = MEDALS[place - 1] if place <= len(MEDALS) else f"{place}."
        lines.append(f"{mark} **{names.seat(seat)}**: {points(totals[seat])}")
    if len(winners) > 1:
        head = "🏆 Shared win: " + " and ".join(names.mention(w) for w in winners) + "!"
    else:
        head = f"🏆 {names.mention(winners[0])} wins {title}!"
    return (head + "\n" + "\n".join(lines))[:2000]
